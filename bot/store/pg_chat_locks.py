"""``PgChatLocks``: one chat's turns one at a time across every instance on the database.

Telegram may hand two updates of one chat to two instances behind the load balancer. Each
instance first queues the chat's work on its own ``ChatLocks`` (FIFO, no database traffic for
work that waits behind a turn of the same instance), then takes the chat's PostgreSQL advisory
lock and holds it for the whole turn: load the session, run the engine, save it. The other
instance waits in the server's lock queue.

**Uncontended: one shared connection.** A turn spends most of its time elsewhere (the engine,
the Partner API, asleep in the request limit when many customers confirm at once), so holding
a connection per running turn would cap the turns in flight at the lock pool's size: the
turns behind them could not even start to tell their customer they must wait. So the lock is
first tried with ``pg_try_advisory_lock`` on one connection the instance shares for that
(one statement at a time), which holds the session locks of all its chats at once and costs no
connection per turn. It is released there too, with ``pg_advisory_unlock``: a session lock
belongs to the connection that took it.

**Contended: a pooled connection that waits.** When another instance holds the chat, the turn
takes a connection from a pool of its own and waits in the server's queue with
``pg_advisory_lock``, holding that connection for the turn, as FIFO as the server makes it.
The pool is separate from the store's, so a chat waiting for its lock never takes a connection
a running turn needs for its statements. asyncpg releases all advisory locks of a pooled
connection when it goes back to the pool, so a turn cancelled half-way cannot leave its chat
locked.

**When the shared connection breaks** (the server restarts, a network cut, an administrator
ends the backend), the server lets go of every lock it held. The turns that held them are not
stopped: stopping one half-way (say, between a create and the saving of its answer) would do
more harm than the rare moment it may now overlap another instance's turn of the same chat. Each
such chat is logged at ERROR the moment the loss is seen, so no turn runs on a lock it lost
without a trace; the next hold opens a new shared connection. A release that fails for any
other reason closes the shared connection, so nothing it may still hold stays locked. A turn
cancelled while its ``pg_try_advisory_lock`` is in flight (which answers at once, granted or
not) lets the answer come on its own and releases the lock if it was granted, so the other
chats on the shared connection keep theirs.

A task that holds a chat already goes on at once (the update processor holds the chat, then the
chat service holds it again for the turn). That is checked before the database is asked: a
lock held by a pooled connection's session would wait for itself on another connection.

**Many businesses, one set of connections.** The connections are ``ChatLockSessions``, apart
from the chats: a store opened alone has its own, and the business stores of one host
(``bot.store.pg_host``) all take their locks on the host's one shared connection and one pool
of waiting connections, each store keeping its own queue of its chats and its own keys (its
lock namespace mixed in, ``advisory_locks``). Advisory locks are the database's, not a
schema's, so where a store's tables are makes no difference here.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import asyncpg

from bot.chat_ref import ChatRef
from bot.chatlocks import ChatLocks
from bot.store.advisory_locks import LOCK_SESSION_KEEPALIVES, ChatLockKeys
from bot.store.pg_database import in_schema

logger = logging.getLogger(__name__)

_LOCK = "SELECT pg_advisory_lock($1)"
_TRY_LOCK = "SELECT pg_try_advisory_lock($1)"
_UNLOCK = "SELECT pg_advisory_unlock($1)"
# What a dead or unusable connection raises; a server error in a statement is a PostgresError.
_CONNECTION_ERRORS = (asyncpg.PostgresError, asyncpg.InterfaceError, OSError)


class PgChatLocks:
    """``hold(chat)`` for the length of a turn; see the module docstring. A chat's lock key
    is ``keys.key(chat)``: its channel's tag, declared to the store by the channel. The
    connections are ``pool`` and ``connect``'s, or ``sessions`` shared with other stores
    (which then outlive this one's ``close``)."""

    def __init__(
        self,
        pool: Any = None,
        connect: Callable[[], Awaitable[Any]] | None = None,
        *,
        keys: ChatLockKeys,
        sessions: ChatLockSessions | None = None,
    ) -> None:
        if sessions is None:
            if pool is None or connect is None:
                raise ValueError("PgChatLocks needs a pool and a connect, or shared sessions")
            sessions = ChatLockSessions(pool, connect)
            self._owns_sessions = True
        else:
            self._owns_sessions = False
        self._sessions = sessions
        self._key = keys.key
        self._local = ChatLocks()

    @classmethod
    async def connect(
        cls, dsn: str, *, pool_size: int, keys: ChatLockKeys, schema: str | None = None
    ) -> PgChatLocks:
        """One shared lock connection, plus a pool of ``pool_size`` for contended chats: that
        many chats held by another instance may wait for their lock at once in this instance;
        the others wait for a connection. ``schema``: the store's (its connections'
        ``search_path``)."""
        sessions = await ChatLockSessions.open(dsn, pool_size=pool_size, schema=schema)
        return cls(sessions.pool, sessions.connect, keys=keys)

    @contextlib.asynccontextmanager
    async def hold(self, chat: ChatRef) -> AsyncIterator[None]:
        """This instance's queue for the chat first, then the database-wide lock; at once
        when the current task holds the chat already."""
        if self._local.holds(chat):
            yield
            return
        async with self._local.hold(chat), self._sessions.hold(self._key(chat), chat):
            yield

    async def close(self) -> None:
        """Close the lock connections, if they are this store's own (any lock still held is
        released with them)."""
        if self._owns_sessions:
            await self._sessions.close()


class _Hold:
    """One chat's lock as held on the shared connection: its key and the chat, for the log."""

    __slots__ = ("chat", "key")

    def __init__(self, key: int, chat: ChatRef) -> None:
        self.key = key
        self.chat = chat


class ChatLockSessions:
    """The connections chat locks are taken on (see the module docstring): one shared
    connection for uncontended chats, a pool for chats that wait. ``hold(key, chat)`` takes
    one lock; each caller keeps a chat to one holder at a time in this process first."""

    def __init__(self, pool: Any, connect: Callable[[], Awaitable[Any]]) -> None:
        self.pool = pool
        self.connect = connect
        self._shared: Any = None  # the shared lock connection, opened on first use
        self._shared_turn = asyncio.Lock()  # one statement at a time on it
        self._on_shared: dict[_Hold, Any] = {}  # each lock held -> the shared connection
        self._give_backs: set[asyncio.Task[None]] = set()  # cancelled requests being settled

    @classmethod
    async def open(cls, dsn: str, *, pool_size: int, schema: str | None = None) -> ChatLockSessions:
        """A pool of ``pool_size`` waiting connections to ``dsn`` and the way to open the
        shared one, all with the keepalives of ``LOCK_SESSION_KEEPALIVES``."""
        settings = in_schema(schema, LOCK_SESSION_KEEPALIVES)
        pool = await asyncpg.create_pool(
            dsn, min_size=1, max_size=pool_size, server_settings=settings
        )
        connect = functools.partial(asyncpg.connect, dsn, server_settings=settings)
        return cls(pool, connect)

    @contextlib.asynccontextmanager
    async def hold(self, key: int, chat: ChatRef) -> AsyncIterator[None]:
        """The lock ``key`` (``chat``'s) for the block: on the shared connection when it is
        free, else waited for on a pooled connection."""
        held = _Hold(key, chat)
        shared = await self._try_on_shared(held)
        if shared is None:
            async with self._hold_on_pooled(key):
                yield
            return
        try:
            yield
        finally:
            # Shielded: a second cancellation must not leave the chat locked on a
            # connection that lives on.
            await asyncio.shield(self._release_on_shared(held, shared))

    async def close(self) -> None:
        """Close the lock connections (any lock still held is released with them)."""
        async with self._shared_turn:
            shared, self._shared = self._shared, None
        if shared is not None:
            await shared.close()
        await self.pool.close()

    async def _try_on_shared(self, held: _Hold) -> Any:
        """The shared connection, now holding ``held``'s lock; None when another instance
        holds the chat (or the shared connection cannot be used)."""
        await self._shared_turn.acquire()
        handed_over = False
        try:
            shared = await self._shared_connection()
            request = asyncio.ensure_future(shared.fetchval(_TRY_LOCK, held.key))
            try:
                taken = await asyncio.shield(request)
            except asyncio.CancelledError:
                # The server may grant the lock all the same. pg_try_advisory_lock never
                # waits, so its answer is one round trip away: let it come and give back
                # what it granted, keeping the connection to itself until then, rather than
                # close the connection and with it every other chat's lock.
                self._give_backs.add(asyncio.create_task(self._give_back(held, shared, request)))
                handed_over = True
                raise
        except _CONNECTION_ERRORS as error:
            # The pooled way still serves the turn; the next hold opens a new connection.
            logger.warning("shared chat-lock connection unusable (%s)", type(error).__name__)
            self._forget(self._shared)
            return None
        finally:
            if not handed_over:
                self._shared_turn.release()
        if not taken:
            return None
        self._on_shared[held] = shared
        return shared

    async def _give_back(self, held: _Hold, shared: Any, request: asyncio.Future[Any]) -> None:
        """After a lock request was cancelled in flight: release the lock if it was granted,
        then let the next statement onto the shared connection (``_shared_turn``, held until
        now). If the answer or the release fails, the connection is closed, which is the one
        way left to be sure the chat is not left locked."""
        try:
            if await request:
                await shared.fetchval(_UNLOCK, held.key)
        except _CONNECTION_ERRORS as error:
            logger.warning(
                "chat %s: a cancelled lock request could not be settled (%s); closing the "
                "shared chat-lock connection",
                held.chat.for_log,
                type(error).__name__,
            )
            self._forget(shared)
        finally:
            self._shared_turn.release()
            task = asyncio.current_task()
            if task is not None:
                self._give_backs.discard(task)

    async def _shared_connection(self) -> Any:
        if self._shared is None or self._shared.is_closed():
            connection = await self.connect()
            connection.add_termination_listener(self._lost)
            self._shared = connection
        return self._shared

    @contextlib.asynccontextmanager
    async def _hold_on_pooled(self, key: int) -> AsyncIterator[None]:
        async with self.pool.acquire() as conn:
            await conn.execute(_LOCK, key)
            try:
                yield
            finally:
                # A failed unlock is undone by the pool's reset of the connection on release.
                with contextlib.suppress(*_CONNECTION_ERRORS):
                    await conn.execute(_UNLOCK, key)

    async def _release_on_shared(self, held: _Hold, shared: Any) -> None:
        if self._on_shared.pop(held, None) is not shared:
            return  # lost with its connection, and logged then
        if not shared.is_closed():
            try:
                async with self._shared_turn:
                    released = await shared.fetchval(_UNLOCK, held.key)
            except _CONNECTION_ERRORS as error:
                if not shared.is_closed():
                    # Whether the lock is still held cannot be known: closing the connection
                    # is the one way to be sure nothing stays locked (its other chats are
                    # logged as lost).
                    logger.warning(
                        "chat %s: its lock could not be released (%s); closing the shared "
                        "chat-lock connection",
                        held.chat.for_log,
                        type(error).__name__,
                    )
                    self._forget(shared)
                    return
            else:
                if not released:
                    logger.error(
                        "chat %s: its lock was no longer held at its release", held.chat.for_log
                    )
                return
        # The connection died before its termination listener ran: the loss is said here.
        self._say_lost(held.chat)

    def _lost(self, connection: Any) -> None:
        """The termination listener of the shared connection: log every chat it held."""
        lost = [held for held, held_on in self._on_shared.items() if held_on is connection]
        for held in sorted(lost, key=lambda held: held.chat):
            del self._on_shared[held]
            self._say_lost(held.chat)
        self._forget(connection)

    @staticmethod
    def _say_lost(chat: ChatRef) -> None:
        logger.error(
            "chat %s: its lock was lost with the shared chat-lock connection; its turn is "
            "unguarded against the other instances",
            chat.for_log,
        )

    def _forget(self, connection: Any) -> None:
        """Stop using ``connection`` for locks; closed, so the server lets go of its locks."""
        if connection is None:
            return
        if connection is self._shared:
            self._shared = None
        if not connection.is_closed():
            connection.terminate()
