"""Hand-offs to the business's staff, and what is said through them (``store.handoffs``).

A customer who asks for a person opens a hand-off: its short reference, their chat, the flow and
question the order was at, and the language they speak. Staff take it (one owner: the first
``take`` wins, the others are told who has it) and close it; at most one hand-off of a chat is
not closed (a unique index), so asking again while waiting finds the open one.

Messages go both ways (``TO_STAFF``, ``TO_CUSTOMER``), kept in order. Each is delivered once in
effect whichever instance holds it: a sender ``claim``s the oldest pending message of a way for
a lease (only the oldest, so a way is delivered in order), sends it, and marks it delivered; a
claim of an instance that died passes to another once its lease is over.

Every customer message asks whether its chat waits for a person; almost always it does not.
Where one process owns the store (SQLite) the waiting chats are also kept in memory, read when
the store opens, so that question costs no SQL (as ``blocked`` does); where instances share
the database, the table always answers.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from typing import Final, Literal

from bot.chat_ref import ChatRef, UserRef
from bot.clocks import Clock
from bot.store.database import Row
from bot.store.delivery_changes import note_chat_changed
from bot.store.store_backend import StoreDatabase

State = Literal["open", "taken", "closed"]
Way = Literal["to_staff", "to_customer"]
TO_STAFF: Final = "to_staff"
TO_CUSTOMER: Final = "to_customer"

# Unambiguous letters and digits (no 0/O, 1/I/L): a reference staff can type.
_REF_ALPHABET: Final = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
_REF_LENGTH: Final = 6
DEFAULT_LEASE_SECONDS: Final = 60.0


@dataclass(frozen=True)
class StaffPost:
    """Where staff see a hand-off: the operators' chat, its message, and its forum topic."""

    chat: ChatRef
    message_id: int
    thread_id: int | None = None


@dataclass(frozen=True)
class Handoff:
    """One hand-off: whose chat, its state, who took it, and the question it was opened at."""

    ref: str
    chat: ChatRef
    user: UserRef
    name: str  # the customer's display name (never their phone)
    state: State
    flow: str | None
    step: str | None
    language: str | None
    owner: UserRef | None
    owner_name: str | None
    post: StaffPost | None
    opened_at: float
    taken_at: float | None
    closed_at: float | None
    active_at: float

    @property
    def waiting(self) -> bool:
        """Whether it is not closed yet (open, or taken by someone)."""
        return self.state != "closed"


@dataclass(frozen=True)
class Opened:
    """What ``open`` found: the chat's hand-off, and whether this call opened it."""

    handoff: Handoff
    new: bool


@dataclass(frozen=True)
class Taken:
    """What ``take`` found: the hand-off, and whether this operator is its owner now."""

    handoff: Handoff
    owner: bool


@dataclass(frozen=True)
class HandoffMessage:
    """One message through a hand-off: ``body`` is JSON (what the channel needs to send it)."""

    seq: int
    ref: str
    way: Way
    body: dict[str, object]
    created_at: float
    delivered_at: float | None


_SELECT = """SELECT ref, channel, chat_id, user_id, customer_name, state, flow, step, language,
    owner_channel, owner_id, owner_name, staff_channel, staff_chat_id, staff_message_id,
    staff_thread_id, opened_at, taken_at, closed_at, active_at FROM handoffs"""
_OPEN = """INSERT INTO handoffs (ref, channel, chat_id, user_id, customer_name, state, flow,
        step, language, opened_at, active_at)
    VALUES (?, ?, ?, ?, ?, 'open', ?, ?, ?, ?, ?)
    ON CONFLICT (channel, chat_id) WHERE state <> 'closed' DO NOTHING"""
_GET = _SELECT + " WHERE ref = ?"
_WAITING_FOR_CHAT = (
    _SELECT
    + """
    WHERE channel = ? AND chat_id = ? AND state <> 'closed'"""
)
_BY_POST = (
    _SELECT
    + """
    WHERE staff_chat_id = ? AND staff_message_id = ? AND staff_channel = ?"""
)
_BY_THREAD = (
    _SELECT
    + """
    WHERE staff_channel = ? AND staff_chat_id = ? AND staff_thread_id = ?
    ORDER BY opened_at DESC LIMIT 1"""
)
_POSTED = """UPDATE handoffs SET staff_channel = ?, staff_chat_id = ?, staff_message_id = ?,
    staff_thread_id = ? WHERE ref = ?"""
_TAKE = """UPDATE handoffs SET state = 'taken', owner_channel = ?, owner_id = ?, owner_name = ?,
        taken_at = ?, active_at = ?
    WHERE ref = ? AND state = 'open'"""
_CLOSE = """UPDATE handoffs SET state = 'closed', closed_at = ?, active_at = ?
    WHERE ref = ? AND state <> 'closed'"""
_IDLE = (
    _SELECT
    + """ WHERE state <> 'closed' AND active_at < ?
    ORDER BY active_at LIMIT ?"""
)
_TOUCH = "UPDATE handoffs SET active_at = ? WHERE ref = ?"
_ADD = """INSERT INTO handoff_messages (ref, way, body, created_at) VALUES (?, ?, ?, ?)"""
_HEAD = """SELECT seq, holder, held_until FROM handoff_messages
    WHERE ref = ? AND way = ? AND delivered_at IS NULL ORDER BY seq LIMIT 1"""
_CLAIM = """UPDATE handoff_messages SET holder = ?, held_until = ?
    WHERE seq = ? AND delivered_at IS NULL
        AND (holder IS NULL OR holder = ? OR held_until < ?)"""
_MESSAGE = """SELECT seq, ref, way, body, created_at, delivered_at FROM handoff_messages
    WHERE seq = ?"""
_DELIVERED = """UPDATE handoff_messages SET delivered_at = ?, holder = NULL, held_until = NULL
    WHERE seq = ? AND holder = ? AND delivered_at IS NULL"""
_RELEASE = """UPDATE handoff_messages SET holder = NULL, held_until = NULL
    WHERE seq = ? AND holder = ? AND delivered_at IS NULL"""
_RECENT = """SELECT seq, ref, way, body, created_at, delivered_at FROM handoff_messages
    WHERE ref = ? ORDER BY seq DESC LIMIT ?"""
_PENDING_REFS = """SELECT DISTINCT ref, way FROM handoff_messages
    WHERE delivered_at IS NULL AND (holder IS NULL OR held_until < ?) LIMIT ?"""
_ALL_WAITING = "SELECT channel, chat_id FROM handoffs WHERE state <> 'closed'"
_NOT_CLOSED = (
    _SELECT
    + """ WHERE state <> 'closed'
    ORDER BY active_at DESC LIMIT ?"""
)
_WAITING_OF_USER = (
    _SELECT
    + """
    WHERE channel = ? AND user_id = ? AND state <> 'closed'"""
)
# Hand-offs still waiting although their customer is blocked (a block from the shell, or
# another process: the bot that shows them to staff ends them, ``bot.handoff.desk``).
_WAITING_OF_BLOCKED = (
    _SELECT  # noqa: S608 - this module's own literals only
    + """
    WHERE state <> 'closed' AND EXISTS (SELECT 1 FROM customer_blocks AS b
        WHERE b.channel = handoffs.channel AND b.user_id = handoffs.user_id)
    ORDER BY opened_at LIMIT ?"""
)
_COUNT_SINCE = """SELECT count(*) FROM handoff_messages
    WHERE ref = ? AND way = ? AND created_at >= ?"""


class Handoffs:
    """``store.handoffs``: hand-offs by reference, chat or staff post, and their messages.

    ``holder`` names this open store in the claims it makes (``Store.holder``).
    """

    def __init__(
        self,
        db: StoreDatabase,
        clock: Clock,
        holder: str,
        *,
        lease_seconds: float = DEFAULT_LEASE_SECONDS,
        shared: bool = False,
    ) -> None:
        self._db = db
        self._clock = clock
        self._holder = holder
        self._lease_seconds = lease_seconds
        # None: the table answers (other instances open and close hand-offs too).
        self._waiting: set[ChatRef] | None = None if shared else set()

    async def load(self) -> None:
        """Read which chats wait for a person (the store calls it once, when it opens)."""
        if self._waiting is not None:
            rows = await self._db.fetch_all(_ALL_WAITING)
            self._waiting = {ChatRef(str(row[0]), int(row[1])) for row in rows}

    async def open(
        self,
        chat: ChatRef,
        user: UserRef,
        *,
        name: str,
        flow: str | None,
        step: str | None,
        language: str | None,
    ) -> Opened:
        """Open a hand-off for ``chat``, or find the one it has open already."""
        now = self._clock()
        while True:
            ref = new_ref()
            params = (ref, chat.channel, chat.id, user.id, name, flow, step, language, now, now)
            try:
                inserted = await self._db.execute(_OPEN, params)
            except Exception:
                # A reference taken already (one chance in 10^8): draw another.
                if await self.get(ref) is None:
                    raise
                continue
            if self._waiting is not None:
                self._waiting.add(chat)
            if inserted > 0:  # the chat's deliveries now wait for a hand-off
                await note_chat_changed(self._db, chat)
            found = await self.waiting_for(chat)
            if found is not None:
                return Opened(found, new=inserted > 0 and found.ref == ref)
            # Closed between the insert that lost and the read: open again.

    async def get(self, ref: str) -> Handoff | None:
        """The hand-off ``ref`` (as staff type it: any case), or None."""
        row = await self._db.fetch_one(_GET, (ref.strip().upper(),))
        return None if row is None else _handoff(row)

    async def waiting_for(self, chat: ChatRef) -> Handoff | None:
        """The chat's hand-off that is not closed, or None."""
        if self._waiting is not None and chat not in self._waiting:
            return None
        row = await self._db.fetch_one(_WAITING_FOR_CHAT, (chat.channel, chat.id))
        return None if row is None else _handoff(row)

    async def waiting_of(self, user: UserRef) -> list[Handoff]:
        """``user``'s hand-offs that are not closed (one a chat of theirs)."""
        rows = await self._db.fetch_all(_WAITING_OF_USER, (user.channel, user.id))
        return [_handoff(row) for row in rows]

    async def not_closed(self, limit: int = 100) -> list[Handoff]:
        """The hand-offs not closed (open or taken), the latest active first (staff's desk)."""
        rows = await self._db.fetch_all(_NOT_CLOSED, (limit,))
        return [_handoff(row) for row in rows]

    async def waiting_of_blocked(self, limit: int = 100) -> list[Handoff]:
        """Hand-offs not closed whose customer is blocked (``store.customer_blocks``)."""
        rows = await self._db.fetch_all(_WAITING_OF_BLOCKED, (limit,))
        return [_handoff(row) for row in rows]

    async def by_post(self, chat: ChatRef, message_id: int) -> Handoff | None:
        """The hand-off whose staff message is ``message_id`` in ``chat``, or None."""
        row = await self._db.fetch_one(_BY_POST, (chat.id, message_id, chat.channel))
        return None if row is None else _handoff(row)

    async def by_topic(self, chat: ChatRef, thread_id: int) -> Handoff | None:
        """The newest hand-off posted in the forum topic ``thread_id`` of ``chat``, or None."""
        row = await self._db.fetch_one(_BY_THREAD, (chat.channel, chat.id, thread_id))
        return None if row is None else _handoff(row)

    async def posted(self, ref: str, post: StaffPost) -> None:
        """Record where staff see the hand-off."""
        chat = post.chat
        params = (chat.channel, chat.id, post.message_id, post.thread_id, ref)
        await self._db.execute(_POSTED, params)

    async def take(self, ref: str, owner: UserRef, name: str) -> Taken | None:
        """Make ``owner`` the hand-off's owner if nobody is; None when there is no such one.

        Two operators taking it at once: the database lets one update win.
        """
        now = self._clock()
        changed = await self._db.execute(_TAKE, (owner.channel, owner.id, name, now, now, ref))
        found = await self.get(ref)
        if found is None:
            return None
        return Taken(found, owner=changed > 0 or found.owner == owner)

    async def close(self, ref: str) -> Handoff | None:
        """Close the hand-off; it is returned only by the call that closed it."""
        now = self._clock()
        if await self._db.execute(_CLOSE, (now, now, ref)) == 0:
            return None
        closed = await self.get(ref)
        if closed is not None:
            await note_chat_changed(self._db, closed.chat)
            if self._waiting is not None:
                self._waiting.discard(closed.chat)
        return closed

    def deleted(self, chat: ChatRef) -> None:
        """The chat's hand-off that was not closed is deleted (the retention job, holding the
        chat's lock): the chat waits for nobody now."""
        if self._waiting is not None:
            self._waiting.discard(chat)

    async def idle(self, before: float, limit: int = 100) -> list[Handoff]:
        """Hand-offs not closed whose last message or change was before ``before``."""
        rows = await self._db.fetch_all(_IDLE, (before, limit))
        return [_handoff(row) for row in rows]

    async def add(self, ref: str, way: Way, body: dict[str, object]) -> None:
        """Queue a message through the hand-off (it counts as activity); nothing for one the
        retention deleted meanwhile."""
        now = self._clock()
        async with self._db.transaction() as tx:
            # The hand-off's row first: the message's reference to it would hold a share lock
            # on it while this waited for the row, and the retention's delete of a silent
            # hand-off takes them the other way round (a deadlock PostgreSQL ends by failing one).
            if await tx.execute(_TOUCH, (now, ref)) == 0:
                return
            await tx.execute(_ADD, (ref, way, json.dumps(body, sort_keys=True), now))

    async def claim(self, ref: str, way: Way) -> HandoffMessage | None:
        """The oldest pending message of the way, held for this store for a lease; None when
        none is pending or another live holder has it (it will deliver it, in order)."""
        head = await self._db.fetch_one(_HEAD, (ref, way))
        if head is None:
            return None
        seq, now = int(head[0]), self._clock()
        until = now + self._lease_seconds
        if await self._db.execute(_CLAIM, (self._holder, until, seq, self._holder, now)) == 0:
            return None
        row = await self._db.fetch_one(_MESSAGE, (seq,))
        return None if row is None else _message(row)

    async def delivered(self, message: HandoffMessage) -> bool:
        """Mark the claimed message delivered; False when the claim was lost meanwhile."""
        params = (self._clock(), message.seq, self._holder)
        return await self._db.execute(_DELIVERED, params) > 0

    async def release(self, message: HandoffMessage) -> None:
        """Give up the claim (the send failed): the next pass tries it again."""
        await self._db.execute(_RELEASE, (message.seq, self._holder))

    async def recent(self, ref: str, count: int) -> list[HandoffMessage]:
        """The hand-off's last ``count`` messages both ways, oldest first."""
        rows = await self._db.fetch_all(_RECENT, (ref, count))
        return [_message(row) for row in reversed(rows)]

    async def pending(self, limit: int = 100) -> list[tuple[str, Way]]:
        """Hand-offs and ways with a message nobody live holds (a died holder's included)."""
        rows = await self._db.fetch_all(_PENDING_REFS, (self._clock(), limit))
        return [(str(row[0]), _way(row[1])) for row in rows]

    async def count_since(self, ref: str, way: Way, since: float) -> int:
        """How many messages of the way were queued since ``since`` (the rate limit)."""
        row = await self._db.fetch_one(_COUNT_SINCE, (ref, way, since))
        return 0 if row is None else int(row[0])


def new_ref() -> str:
    """A fresh reference: six unambiguous letters and digits."""
    return "".join(secrets.choice(_REF_ALPHABET) for _ in range(_REF_LENGTH))


def _state(value: object) -> State:
    if value == "open":
        return "open"
    if value == "taken":
        return "taken"
    return "closed"


def _way(value: object) -> Way:
    return "to_staff" if value == TO_STAFF else "to_customer"


def _handoff(row: Row) -> Handoff:
    channel = str(row[1])
    owner = None if row[9] is None else UserRef(str(row[9]), int(row[10]))
    post = None
    if row[12] is not None and row[13] is not None and row[14] is not None:
        thread = None if row[15] is None else int(row[15])
        post = StaffPost(ChatRef(str(row[12]), int(row[13])), int(row[14]), thread)
    return Handoff(
        ref=str(row[0]),
        chat=ChatRef(channel, int(row[2])),
        user=UserRef(channel, int(row[3])),
        name=str(row[4]),
        state=_state(row[5]),
        flow=_text(row[6]),
        step=_text(row[7]),
        language=_text(row[8]),
        owner=owner,
        owner_name=_text(row[11]),
        post=post,
        opened_at=float(row[16]),
        taken_at=None if row[17] is None else float(row[17]),
        closed_at=None if row[18] is None else float(row[18]),
        active_at=float(row[19]),
    )


def _text(value: object) -> str | None:
    return None if value is None else str(value)


def _message(row: Row) -> HandoffMessage:
    body = json.loads(str(row[3]))
    return HandoffMessage(
        seq=int(row[0]),
        ref=str(row[1]),
        way=_way(row[2]),
        body=body if isinstance(body, dict) else {},
        created_at=float(row[4]),
        delivered_at=None if row[5] is None else float(row[5]),
    )
