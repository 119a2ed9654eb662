"""``StaffDoor``: sign-in links issued, redeemed into sessions, and sessions ended, audited.

::

    door = StaffDoor.from_settings(store, console, public_base_url, clock=store.clock)
    url = await door.link_for(UserRef("telegram", 1900), "Olu")   # /console, in a private chat
    url = await door.invite("Bob", "dispatcher")                  # deliverybot staff invite
    signed = await door.sign_in(token)                            # the link's page: a session

A link is ``{public_base_url}/console/signin/{token}``: the token is in the URL handed to the
one person it is for, and nowhere else (not in the store, the audit trail or a log line).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Final

from bot.chat_ref import UserRef
from bot.clocks import Clock
from bot.config import CONSOLE_PATH, ConsoleConfig
from bot.staff_roles import StaffRole
from bot.store import LinkRefusal, OpenedSession, StaffMember, StaffSession, Store

NAME_LENGTH: Final = 64
SHELL: Final = "shell"  # who acted, in the audit trail, for the command line
SIGN_IN_PATH: Final = f"{CONSOLE_PATH}/signin/"


@dataclass(frozen=True)
class SignedIn:
    """A link redeemed: whose it was, and the session it opened (its tokens, for the cookie
    and the forms)."""

    member: StaffMember
    session: OpenedSession


def staff_name(written: str) -> str | None:
    """``written`` as a staff member's name (trimmed), or None when it is empty, longer than
    ``NAME_LENGTH`` or holds a control character (a line break among them)."""
    name = written.strip()
    if not name or len(name) > NAME_LENGTH:
        return None
    if any(unicodedata.category(char).startswith("C") for char in name):
        return None
    return name


async def sign_out_everywhere(store: Store, member: StaffMember, *, by: str) -> None:
    """End every session of ``member`` on every instance, and their links not yet used;
    audited as done by ``by``. Needs no door: the shell signs out while the console is off."""
    await store.staff.sign_out_everywhere(member)
    await store.audit.record(by, "console_signout", _subject(member), "done", "everywhere")


def _subject(member: StaffMember) -> str:
    """A member in the audit trail: ``staff:<id>``."""
    return f"staff:{member.id}"


class StaffDoor:
    """Links, sessions and sign-outs over ``store.staff``, by ``console``'s rules."""

    def __init__(
        self, store: Store, console: ConsoleConfig, public_base_url: str, *, clock: Clock
    ) -> None:
        self._store = store
        self._console = console
        self._public_base_url = public_base_url.rstrip("/")
        self._clock = clock

    @classmethod
    def from_settings(
        cls, store: Store, console: ConsoleConfig, public_base_url: str | None, *, clock: Clock
    ) -> StaffDoor | None:
        """The door of a bot whose ``[console]`` is ``console``; None while it is off (or
        without a public host, which the config refuses when it is on)."""
        if not console.enabled or public_base_url is None:
            return None
        return cls(store, console, public_base_url, clock=clock)

    @property
    def link_minutes(self) -> int:
        """How long a link works, in minutes (``[console] link_minutes``)."""
        return self._console.link_minutes

    async def link_for(self, account: UserRef, name: str, language: str | None = None) -> str:
        """A sign-in link for the operator ``account`` (called ``name``): their member is
        found or made, with the role ``[console]`` gives their account today. ``language``
        (their client's, when shipped) is the console's language for a member who has none."""
        role = self._console.role_of(account)
        shown = _shortened(name) or str(account)
        member = await self._store.staff.operator(account, shown, role, language)
        return await self._issue(member, by=str(account))

    async def invite(self, name: str, role: StaffRole, *, by: str = SHELL) -> str:
        """A sign-in link for ``name`` (a member without a chat; ``staff_name`` checked),
        as ``role``; ``by`` is who asked, for the audit trail."""
        member = await self._store.staff.invited(name, role)
        return await self._issue(member, by=by)

    async def sign_in(self, token: str) -> SignedIn | LinkRefusal:
        """The session the link ``token`` opens, once; why not otherwise. Both are audited
        (a refused link as an attempt, without the token)."""
        found = await self._store.staff.redeem(token, self._clock())
        if isinstance(found, LinkRefusal):
            refused = f"refused: {found.value} link"
            await self._store.audit.record("console", "console_signin", "link", refused)
            return found
        opened = await self._store.staff.open_session(
            found,
            idle_seconds=self._console.idle_minutes * 60.0,
            life_seconds=self._console.session_hours * 3600.0,
        )
        await self._store.audit.record(_subject(found), "console_signin", _subject(found), "done")
        return SignedIn(found, opened)

    async def link_language(self, token: str) -> str | None:
        """The language the member of the link ``token`` reads the console in, for the link's
        own pages (None: unknown link, or the business default); the link stays unused."""
        return await self._store.staff.link_language(token)

    async def session(self, token: str, *, touch: bool = True) -> StaffSession | None:
        """The live session ``token`` opens now, or None (see ``StaffStore.session``; without
        ``touch`` the check does not count as the member's activity)."""
        return await self._store.staff.session(token, self._clock(), touch=touch)

    async def sign_out(self, token: str) -> bool:
        """End the session ``token`` opens (the member's own sign-out); False if none."""
        return await self._store.staff.sign_out(token)

    async def sign_out_everywhere(self, member: StaffMember, *, by: str) -> None:
        """End every session of ``member`` and their unused links; audited as done by ``by``."""
        await sign_out_everywhere(self._store, member, by=by)

    def url_of(self, token: str) -> str:
        """Where the link ``token`` is opened."""
        return f"{self._public_base_url}{SIGN_IN_PATH}{token}"

    async def _issue(self, member: StaffMember, *, by: str) -> str:
        lifetime = self._console.link_minutes * 60.0
        token = await self._store.staff.issue_link(member, lifetime_seconds=lifetime)
        detail = f"{member.name} ({member.role})"
        await self._store.audit.record(by, "console_link", _subject(member), "issued", detail)
        return self.url_of(token)


def _shortened(name: str) -> str:
    """A Telegram name as a member's: printable, one line, at most ``NAME_LENGTH``
    characters ("" when nothing printable is left)."""
    printable = "".join(c for c in name if not unicodedata.category(c).startswith("C"))
    return " ".join(printable.split())[:NAME_LENGTH].strip()
