"""Every error the terminal demo raises on purpose, as one tree.

::

    DemoError                     anything the demo refuses
    └── CommandProblem            a demo command that cannot run as typed (demo_commands)

The demo prints the message (how to type the command) and goes on.
"""

from __future__ import annotations


class DemoError(Exception):
    """Base of every error the terminal demo raises on purpose."""
