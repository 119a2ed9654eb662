"""Every error the safety package raises on purpose, as one tree.

::

    SafetyError                   anything a safety command refuses
    └── _Refused                  a shell command named no customer; the reason is printed
                                  (shell_commands, private to the command line)
"""

from __future__ import annotations


class SafetyError(Exception):
    """Base of every error the safety package raises on purpose."""
