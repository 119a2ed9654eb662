"""``store.staff``: the business's staff members, their one-time sign-in links and sessions.

A member is a name, a role (``bot.staff_roles``) and, for an operator, the account they are
(their Telegram user); one invited from the shell has none. Signing a member out everywhere
moves their ``generation``: every session opened under an older one is dead at once, on every
instance, and their links still unused are dropped.

Tokens never rest here: a link's token and a session's token are handed out once and only
their SHA-256 is kept, so a copy of the database opens no session. A link is redeemed at most
once: one ``UPDATE .. WHERE used_at IS NULL`` decides, and of two redeems at once (on one
instance or two) exactly one changes the row. A session lives until ``idle_seconds`` pass
without a request or ``expires_at`` comes, both fixed when it is opened; ``prune`` (the
housekeeping) deletes expired links and dead sessions, so the tables do not grow.
"""

from __future__ import annotations

import enum
import hashlib
import secrets
from dataclasses import dataclass
from typing import Final

from bot.chat_ref import UserRef
from bot.clocks import Clock
from bot.staff_roles import StaffRole, staff_role
from bot.store.store_backend import StoreDatabase

TOUCH_SECONDS: Final = 60.0
"""A session's ``last_seen_at`` is written at most this often: a page's every request would
otherwise be a write, and idle expiry counts in minutes."""

# Every statement that returns members names their columns in this order (``_member``).
# A language already chosen stays: the client's fills only a member who never chose one.
_OPERATOR = """INSERT INTO staff_members (name, role, channel, user_id, created_at, language)
    VALUES (?, ?, ?, ?, ?, ?)
    ON CONFLICT (channel, user_id) DO UPDATE SET name = excluded.name, role = excluded.role,
        language = COALESCE(staff_members.language, excluded.language)
    RETURNING id, name, role, channel, user_id, created_at, generation, last_seen_at, language"""
_INVITED = """SELECT id, name, role, channel, user_id, created_at, generation, last_seen_at,
    language
    FROM staff_members WHERE channel IS NULL AND name = ? ORDER BY id LIMIT 1"""
_SET_ROLE = """UPDATE staff_members SET role = ? WHERE id = ?
    RETURNING id, name, role, channel, user_id, created_at, generation, last_seen_at, language"""
_NEW_INVITED = """INSERT INTO staff_members (name, role, channel, user_id, created_at)
    VALUES (?, ?, NULL, NULL, ?)
    RETURNING id, name, role, channel, user_id, created_at, generation, last_seen_at, language"""
_BY_ID = """SELECT id, name, role, channel, user_id, created_at, generation, last_seen_at, language
    FROM staff_members WHERE id = ?"""
_ALL = """SELECT id, name, role, channel, user_id, created_at, generation, last_seen_at, language
    FROM staff_members ORDER BY lower(name), id"""
_NAMED = """SELECT id, name, role, channel, user_id, created_at, generation, last_seen_at, language
    FROM staff_members WHERE lower(name) = lower(?) ORDER BY id"""
_SET_LANGUAGE = "UPDATE staff_members SET language = ? WHERE id = ?"

_NEW_LINK = """INSERT INTO staff_links (token_hash, member_id, created_at, expires_at)
    VALUES (?, ?, ?, ?)"""
# The one statement that decides a redeem: of two at once exactly one finds used_at NULL.
_REDEEM = """UPDATE staff_links SET used_at = ?
    WHERE token_hash = ? AND used_at IS NULL AND expires_at > ? RETURNING member_id"""
_LINK = "SELECT used_at, expires_at FROM staff_links WHERE token_hash = ?"
_LINK_LANGUAGE = """SELECT m.language FROM staff_links l JOIN staff_members m ON m.id = l.member_id
    WHERE l.token_hash = ?"""

_NEW_SESSION = """INSERT INTO staff_sessions (token_hash, member_id, csrf_token, created_at,
    last_seen_at, expires_at, idle_seconds, generation)
    SELECT ?, id, ?, ?, ?, ?, ?, generation FROM staff_members WHERE id = ?"""
_SESSION = """SELECT s.csrf_token, s.created_at, s.last_seen_at, s.expires_at, s.idle_seconds,
    s.generation, m.id, m.name, m.role, m.channel, m.user_id, m.created_at, m.generation,
    m.last_seen_at, m.language
    FROM staff_sessions s JOIN staff_members m ON m.id = s.member_id WHERE s.token_hash = ?"""
_TOUCH_SESSION = """UPDATE staff_sessions SET last_seen_at = ?
    WHERE token_hash = ? AND last_seen_at < ?"""
_TOUCH_MEMBER = """UPDATE staff_members SET last_seen_at = ?
    WHERE id = ? AND (last_seen_at IS NULL OR last_seen_at < ?)"""
_SIGN_OUT = "DELETE FROM staff_sessions WHERE token_hash = ?"
_NEXT_GENERATION = "UPDATE staff_members SET generation = generation + 1 WHERE id = ?"
_DROP_SESSIONS = "DELETE FROM staff_sessions WHERE member_id = ?"
_DROP_UNUSED_LINKS = "DELETE FROM staff_links WHERE member_id = ? AND used_at IS NULL"

_PRUNE_LINKS = "DELETE FROM staff_links WHERE expires_at <= ?"
_PRUNE_SESSIONS = """DELETE FROM staff_sessions WHERE expires_at <= ?
    OR last_seen_at + idle_seconds <= ?
    OR generation < (SELECT m.generation FROM staff_members m WHERE m.id = member_id)"""


@dataclass(frozen=True)
class StaffMember:
    """One member of the staff: ``account`` is the operator's own account (None for one
    invited from the shell); ``generation`` moves when they are signed out everywhere;
    ``last_seen_at`` is their last request in the console (None: never signed in);
    ``language`` the shipped language they read it in (None: the business default)."""

    id: int
    name: str
    role: StaffRole
    account: UserRef | None
    created_at: float
    generation: int
    last_seen_at: float | None
    language: str | None = None


@dataclass(frozen=True)
class OpenedSession:
    """A session just opened: its ``token`` (for the cookie, kept nowhere else) and the
    ``csrf_token`` every change in it must carry."""

    token: str
    csrf_token: str

    def __repr__(self) -> str:  # the tokens stay out of logs
        return "OpenedSession(...)"


@dataclass(frozen=True)
class StaffSession:
    """A live session: whose it is, the CSRF token its forms carry, when it began and when
    it was last seen (to the minute, ``TOUCH_SECONDS``)."""

    member: StaffMember
    csrf_token: str
    created_at: float
    last_seen_at: float

    def __repr__(self) -> str:  # the CSRF token stays out of logs
        return f"StaffSession(member={self.member.id}, created_at={self.created_at})"


class LinkRefusal(enum.Enum):
    """Why a sign-in link opened nothing."""

    UNKNOWN = "unknown"  # never issued, or pruned since it expired
    USED = "used"
    EXPIRED = "expired"


def token_hash(token: str) -> str:
    """What the store keeps of ``token``: its SHA-256, in hex."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class StaffStore:
    """``store.staff``: members, links and sessions (see the module docstring)."""

    def __init__(self, db: StoreDatabase, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    async def operator(
        self, account: UserRef, name: str, role: StaffRole, language: str | None = None
    ) -> StaffMember:
        """The member ``account`` is, created now if they are new; their ``name`` and
        ``role`` are brought up to date when the config or their name changed. ``language``
        (their client's, when shipped) becomes theirs only while they have none."""
        row = await self._db.fetch_one(
            _OPERATOR, (name, role, account.channel, account.id, self._clock(), language)
        )
        assert row is not None  # an upsert with RETURNING always returns its row
        return _member(row)

    async def invited(self, name: str, role: StaffRole) -> StaffMember:
        """The member invited as ``name`` (one without an account), created now if there is
        none yet; an earlier one's role becomes ``role``."""
        async with self._db.transaction() as tx:
            found = await tx.fetch_one(_INVITED, (name,))
            if found is None:
                row = await tx.fetch_one(_NEW_INVITED, (name, role, self._clock()))
            else:
                row = await tx.fetch_one(_SET_ROLE, (role, found[0]))
        assert row is not None  # an insert or update with RETURNING returns its row
        return _member(row)

    async def member(self, member_id: int) -> StaffMember | None:
        """The member ``member_id``, or None."""
        row = await self._db.fetch_one(_BY_ID, (member_id,))
        return None if row is None else _member(row)

    async def members(self) -> list[StaffMember]:
        """Every member, by name."""
        return [_member(row) for row in await self._db.fetch_all(_ALL)]

    async def named(self, name: str) -> list[StaffMember]:
        """The members called ``name`` (case-blind), oldest first."""
        return [_member(row) for row in await self._db.fetch_all(_NAMED, (name,))]

    async def set_language(self, member: StaffMember, language: str | None) -> None:
        """``member`` reads the console in ``language`` (a shipped one; None: the business
        default) from their next page on, in every session and on every instance."""
        await self._db.execute(_SET_LANGUAGE, (language, member.id))

    async def issue_link(self, member: StaffMember, *, lifetime_seconds: float) -> str:
        """A new sign-in link's token for ``member``, good once for ``lifetime_seconds``; the
        token is returned here and kept nowhere."""
        token = secrets.token_urlsafe(32)
        now = self._clock()
        await self._db.execute(
            _NEW_LINK, (token_hash(token), member.id, now, now + lifetime_seconds)
        )
        return token

    async def redeem(self, token: str, now: float) -> StaffMember | LinkRefusal:
        """The member whose link ``token`` is, marking it used; why not when it was used
        already, has expired or is unknown. Of two redeems at once, one wins."""
        hashed = token_hash(token)
        won = await self._db.fetch_one(_REDEEM, (now, hashed, now))
        if won is not None:
            member = await self.member(int(won[0]))
            if member is not None:
                return member
        link = await self._db.fetch_one(_LINK, (hashed,))
        if link is None:
            return LinkRefusal.UNKNOWN
        return LinkRefusal.USED if link[0] is not None else LinkRefusal.EXPIRED

    async def link_language(self, token: str) -> str | None:
        """The language of the member the link ``token`` was issued to (used, expired or
        not), so its pages speak to them before it is redeemed; None when the link is unknown
        or its member has none. Nothing is written: a link's page must use nothing up."""
        row = await self._db.fetch_one(_LINK_LANGUAGE, (token_hash(token),))
        return None if row is None or row[0] is None else str(row[0])

    async def open_session(
        self, member: StaffMember, *, idle_seconds: float, life_seconds: float
    ) -> OpenedSession:
        """A new session for ``member``, ending after ``idle_seconds`` without a request or
        ``life_seconds`` after now, whichever is first."""
        opened = OpenedSession(secrets.token_urlsafe(32), secrets.token_urlsafe(32))
        now = self._clock()
        row = (token_hash(opened.token), opened.csrf_token, now, now, now + life_seconds)
        async with self._db.transaction() as tx:
            await tx.execute(_NEW_SESSION, (*row, idle_seconds, member.id))
            await tx.execute(_TOUCH_MEMBER, (now, member.id, now))
        return opened

    async def session(self, token: str, now: float, *, touch: bool = True) -> StaffSession | None:
        """The live session ``token`` opens, seen ``now`` (written at most once a minute;
        not with ``touch`` False: a check that is not the member's own request, such as an
        open live page's, must not keep the session from idling out); None when it is
        unknown, idle too long, past its life, signed out, or its member was signed out
        everywhere since it began."""
        hashed = token_hash(token)
        row = await self._db.fetch_one(_SESSION, (hashed,))
        if row is None:
            return None
        csrf, created, seen, expires, idle, generation = row[:6]
        member = _member(row[6:])
        seen_at = float(str(seen))
        alive = (
            now < float(str(expires))
            and now < seen_at + float(str(idle))
            and int(str(generation)) == member.generation
        )
        if not alive:
            return None
        if touch and now - seen_at >= TOUCH_SECONDS:
            async with self._db.transaction() as tx:
                await tx.execute(_TOUCH_SESSION, (now, hashed, now))
                await tx.execute(_TOUCH_MEMBER, (now, member.id, now))
            seen_at = now
        return StaffSession(member, str(csrf), float(str(created)), seen_at)

    async def sign_out(self, token: str) -> bool:
        """End the session ``token`` opens; False when there was none."""
        return await self._db.execute(_SIGN_OUT, (token_hash(token),)) > 0

    async def sign_out_everywhere(self, member: StaffMember) -> None:
        """End every session of ``member``, on every instance, and drop their unused links."""
        async with self._db.transaction() as tx:
            await tx.execute(_NEXT_GENERATION, (member.id,))
            await tx.execute(_DROP_SESSIONS, (member.id,))
            await tx.execute(_DROP_UNUSED_LINKS, (member.id,))

    async def prune(self, now: float) -> int:
        """Delete the links expired by ``now`` and the sessions dead by then; how many."""
        links = await self._db.execute(_PRUNE_LINKS, (now,))
        return links + await self._db.execute(_PRUNE_SESSIONS, (now, now))


def _member(row: tuple[object, ...]) -> StaffMember:
    member_id, name, role, channel, user_id, created_at, generation, last_seen, language = row
    account = None if channel is None else UserRef(str(channel), int(str(user_id)))
    return StaffMember(
        int(str(member_id)),
        str(name),
        staff_role(str(role)),
        account,
        float(str(created_at)),
        int(str(generation)),
        None if last_seen is None else float(str(last_seen)),
        None if language is None else str(language),
    )
