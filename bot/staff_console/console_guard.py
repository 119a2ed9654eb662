"""``ConsoleGuard``: who is asking (the session cookie), whether their role may, and whether a
form came from their own page (its CSRF token).

A page or an action names the least role it needs; roles rank viewer < dispatcher < admin.
A request without a live session is sent to the signed-out page; one whose role is too low, or
a form whose CSRF token is missing or wrong, is refused with a plain 403 page, nothing done,
and written to the audit trail as an attempt (never with a token in it).
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from typing import Final

from starlette.requests import Request

from bot.staff.staff_door import StaffDoor
from bot.staff_roles import STAFF_ROLES, StaffRole
from bot.store import StaffSession, Store

SESSION_COOKIE: Final = "console_session"
CSRF_FIELD: Final = "csrf"


def role_allows(role: StaffRole, needed: StaffRole) -> bool:
    """Whether ``role`` is ``needed`` or above it (viewer < dispatcher < admin)."""
    return STAFF_ROLES.index(role) >= STAFF_ROLES.index(needed)


@dataclass(frozen=True)
class SignedOut:
    """No live session came with the request."""


@dataclass(frozen=True)
class RoleRefused:
    """A live session whose role is below what was asked."""

    session: StaffSession
    needed: StaffRole


@dataclass(frozen=True)
class CsrfRefused:
    """A form without its session's CSRF token, or with another one."""

    session: StaffSession


Refusal = SignedOut | RoleRefused | CsrfRefused


class ConsoleGuard:
    """Reads sessions through ``door``; writes refusals to ``store.audit``."""

    def __init__(self, door: StaffDoor, store: Store) -> None:
        self._door = door
        self._store = store

    async def session(self, request: Request, *, touch: bool = True) -> StaffSession | None:
        """The live session the request's cookie opens, or None (``touch`` False: a check
        that is not the member's activity, see ``StaffStore.session``)."""
        token = request.cookies.get(SESSION_COOKIE)
        if not token:
            return None
        return await self._door.session(token, touch=touch)

    async def allowed(self, request: Request, needed: StaffRole) -> StaffSession | Refusal:
        """The request's session when its role is ``needed`` or above; why not otherwise
        (a role too low is audited here)."""
        session = await self.session(request)
        if session is None:
            return SignedOut()
        if not role_allows(session.member.role, needed):
            detail = f"{request.method} {request.url.path}: {session.member.role} < {needed}"
            await self._store.audit.record(
                _subject(session), "console_denied", _subject(session), "refused", detail
            )
            return RoleRefused(session, needed)
        return session

    async def form_allowed(
        self, request: Request, form: dict[str, list[str]], needed: StaffRole
    ) -> StaffSession | Refusal:
        """``allowed``, and the form's CSRF token checked (in constant time) against the
        session's; a missing or wrong one is audited."""
        found = await self.allowed(request, needed)
        if not isinstance(found, StaffSession):
            return found
        sent = form.get(CSRF_FIELD, [""])[-1]
        if not hmac.compare_digest(sent.encode("utf-8"), found.csrf_token.encode("utf-8")):
            why = "missing" if not sent else "wrong"
            detail = f"{request.method} {request.url.path}: CSRF token {why}"
            await self._store.audit.record(
                _subject(found), "console_csrf", _subject(found), "refused", detail
            )
            return CsrfRefused(found)
        return found


def _subject(session: StaffSession) -> str:
    return f"staff:{session.member.id}"
