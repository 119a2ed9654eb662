"""Every error the staff package raises on purpose, as one tree.

::

    StaffError                    anything a staff command refuses
    └── _StaffRefused             a shell command cannot be done as asked; the reason is printed
                                  (staff_commands, private to the command line)
"""

from __future__ import annotations


class StaffError(Exception):
    """Base of every error the staff package raises on purpose."""
