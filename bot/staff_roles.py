"""The staff's roles in the web console, named once.

At the bottom of the house so that the configuration (``bot.config.console_section``), the store
(``bot.store.staff``) and the console's doors (``bot.staff``) read one list without importing
each other.
"""

from __future__ import annotations

from typing import Literal, get_args

StaffRole = Literal["viewer", "dispatcher", "admin"]
"""What a staff member may do: a viewer reads everything; a dispatcher also assigns, unassigns,
cancels and takes hand-offs; an admin also blocks customers, sets limits and manages staff."""
STAFF_ROLES: tuple[StaffRole, ...] = get_args(StaffRole)


def staff_role(written: str) -> StaffRole:
    """The role ``written`` names; ``ValueError`` saying which roles there are otherwise."""
    for role in STAFF_ROLES:
        if written == role:
            return role
    raise ValueError(f"{written!r} is not a role: {', '.join(STAFF_ROLES)}")
