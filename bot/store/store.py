"""``Store``: one SQLite file or PostgreSQL database (plus a media directory) and the
repositories over it.

::

    async with Store.open(path) as store:
        await store.sessions.save(chat_id, user_id, session.stored_json())

``Store.connect_postgres(dsn, media_dir=...)`` opens the same repositories on PostgreSQL, for
several instances sharing one database. Either way the store offers ``store.chat_locks`` (one
chat's turns one at a time), ``store.leadership`` (who runs the jobs only one may run: the
status poller, the follow-up of lost creates, the agent event webhooks), ``store.rate_budget``
(the Partner API's per-key budget), ``store.send_budget`` (Telegram's send windows and holds),
``store.request_buckets`` (agent channels' requests per minute) and ``store.shared`` (whether
other processes work on the same data): held across instances on PostgreSQL, in this process's
memory on SQLite, where one process owns the file (``bot.store.coordination``).

or, where a framework owns start-up and shut-down (PTB's post_init / post_shutdown)::

    store = await Store.connect(path)
    ...
    await store.close()

Opening applies any pending migrations and refuses a file from a newer bot
(``SchemaTooNewError``). A store belongs to one business (``business``, ``DEFAULT_BUSINESS``
unless a host names another): the first to open it claims it, and it refuses to open for any
other (``StoreOwnedByAnother``, ``bot.store.store_owner``).

Times are unix seconds: a repository stamps its own bookkeeping times (``updated_at``,
``received_at`` ...) with the injected ``clock``; times that come from elsewhere (an event's
``created``, an expiry) and the cut-offs of every prune are arguments.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import AsyncIterator, Iterable
from pathlib import Path
from types import TracebackType

from bot.channel_kind import ChannelKind
from bot.clocks import Clock
from bot.store.advisory_locks import DEFAULT_NAMESPACE, ChatLockKeys
from bot.store.agent_conversations import AgentConversations
from bot.store.agent_events import AgentEvents
from bot.store.audit import AuditTrail
from bot.store.blocked import BlockedChats
from bot.store.coordination import Coordination, in_process
from bot.store.create_intents import CreateIntents
from bot.store.customer_blocks import CustomerBlocks
from bot.store.customer_counts import CustomerCounts
from bot.store.customer_data import CustomerData
from bot.store.customer_details import CustomerDetails
from bot.store.customer_search import CustomerSearch
from bot.store.database import Database, Synchronous
from bot.store.delivery_changes import DeliveryChanges
from bot.store.delivery_history import DeliveryHistory
from bot.store.delivery_links import Deliveries
from bot.store.delivery_list import DeliveryList
from bot.store.funnel_events import FunnelEvents
from bot.store.handoffs import Handoffs
from bot.store.inbox import DEFAULT_LEASE_SECONDS, Inbox
from bot.store.media_files import MediaStore
from bot.store.migrations import migrate
from bot.store.operator_alerts import OperatorAlerts
from bot.store.otp_handoffs import OtpHandoffs
from bot.store.otp_invitations import OtpInvitations
from bot.store.pg_backend import PgBackend
from bot.store.pg_coordination import pg_coordination
from bot.store.pg_database import DEFAULT_POOL_SIZE, PgDatabase
from bot.store.pg_host import PgHost
from bot.store.pg_migrations import migrate_postgres
from bot.store.queue_gauges import QueueGauges
from bot.store.relayed import RelayedEvents
from bot.store.retention_prunes import RetentionPrunes
from bot.store.rider_positions import RiderPositions
from bot.store.sent import SentMessages
from bot.store.sessions import Sessions
from bot.store.sqlite_backend import SqliteBackend
from bot.store.staff import StaffStore
from bot.store.store_backend import Backend, StoreDatabase
from bot.store.store_owner import DEFAULT_BUSINESS, claim_owner
from bot.store.unconfirmed_creates import UnconfirmedCreates
from bot.store.update_inbox import UpdateInbox
from bot.store.updates import SeenUpdates
from bot.store.verified_phones import Contacts
from bot.store.whatsapp_inbox import WhatsAppInbox
from bot.store.whatsapp_sent import WhatsAppSent
from bot.store.whatsapp_windows import WhatsAppWindows


class Store:
    """The bot's persistent state; build it with ``Store.open`` or ``Store.connect``."""

    def __init__(
        self,
        db: StoreDatabase,
        backend: Backend,
        coordination: Coordination,
        *,
        media_dir: Path,
        clock: Clock,
        schema_version: int,
        lease_seconds: float = DEFAULT_LEASE_SECONDS,
        lock_keys: ChatLockKeys | None = None,
        business: str = DEFAULT_BUSINESS,
    ) -> None:
        self._db = db
        # The business the store belongs to (its ``store_owner`` row).
        self.business = business
        # Every channel's chat lock tag, declared by the channels (``declare_channel``):
        # PostgreSQL's chat locks are keyed by it; SQLite's keep it to refuse a tag reused.
        self.chat_lock_keys = lock_keys if lock_keys is not None else ChatLockKeys()
        self.path = db.path
        self._backend = backend
        self._coordination = coordination
        self.chat_locks = coordination.chat_locks
        self.leadership = coordination.leadership
        self.rate_budget = coordination.rate_budget
        self.send_budget = coordination.send_budget
        self.whatsapp_send_budget = coordination.whatsapp_send_budget
        self.request_buckets = coordination.request_buckets
        self.shared = shared = coordination.shared
        self.media_dir = media_dir
        self.clock = clock
        self.schema_version = schema_version
        self.updates = SeenUpdates(db, clock)
        self.telegram_inbox = UpdateInbox(db, clock, backend)
        self.whatsapp_inbox = WhatsAppInbox(db, clock, backend)
        self.sessions = Sessions(db, clock, self.updates, backend)
        self.deliveries = Deliveries(db, clock, backend)
        self.delivery_list = DeliveryList(db)
        self.delivery_changes = DeliveryChanges(db)
        self.history = DeliveryHistory(db)
        self.inbox = Inbox(db, clock, backend)
        # This open Store, as the owner of its send claims and its inbox leases.
        self.holder = holder = secrets.token_hex(8)
        # How long a relay's claim on an event (and on a message) outlives an instance that
        # died holding it; claims are renewed by each relay pass.
        self.lease_seconds = lease_seconds
        self.sent = SentMessages(db, clock, holder, backend, lease_seconds=lease_seconds)
        self.relayed = RelayedEvents(db, clock, holder, backend)
        self.media = MediaStore(db, clock, media_dir, shared=shared)
        self.contacts = Contacts(db, clock)
        self.otp = OtpHandoffs(db, clock)
        self.blocked = BlockedChats(db, clock, shared=shared)
        self.unconfirmed = UnconfirmedCreates(db, clock, backend)
        self.create_intents = CreateIntents(db, clock, backend, self.sessions)
        self.agents = AgentConversations(db, clock)
        self.agent_events = AgentEvents(db, clock)
        self.customers = CustomerDetails(db, clock)
        self.otp_invitations = OtpInvitations(db, clock)
        self.operator_alerts = OperatorAlerts(db, clock)
        self.customer_blocks = CustomerBlocks(db, clock)
        self.audit = AuditTrail(db, clock)
        self.customer_counts = CustomerCounts(db, clock)
        self.customer_search = CustomerSearch(db)
        self.gauges = QueueGauges(db)
        self.funnel = FunnelEvents(db)
        self.handoffs = Handoffs(db, clock, holder, lease_seconds=lease_seconds, shared=shared)
        self.staff = StaffStore(db, clock)
        self.whatsapp_windows = WhatsAppWindows(db, clock)
        self.whatsapp_sent = WhatsAppSent(db, clock)
        self.rider_positions = RiderPositions(db, clock)
        self.customer_data = CustomerData(
            db, clock, media_dir=media_dir, blocked=self.blocked, shared=shared
        )
        self.retention = RetentionPrunes(
            db,
            self.sessions,
            self.media,
            handoffs=self.handoffs,
            chat_locks=self.chat_locks,
            blocked=self.blocked,
        )

    @classmethod
    async def connect(
        cls,
        path: str | Path,
        *,
        media_dir: str | Path | None = None,
        clock: Clock = time.time,
        synchronous: Synchronous = "FULL",
        channels: Iterable[ChannelKind] = (),
        business: str = DEFAULT_BUSINESS,
    ) -> Store:
        """Open (creating and migrating) the database at ``path``; call ``close()`` when done.

        ``media_dir`` defaults to ``<path>.media`` beside the database. ``synchronous="FULL"``
        makes every commit survive a power cut, which is what lets the webhook answer 2xx right
        after the inbox insert; ``"NORMAL"`` survives a process crash only. ``channels``: the
        kinds of the channels this bot knows (``declare_channel``). ``business``: the one the
        file belongs to (``StoreOwnedByAnother`` when another business's).
        """
        path = Path(path)
        media = Path(media_dir) if media_dir is not None else path.with_name(path.name + ".media")
        media.mkdir(mode=0o700, parents=True, exist_ok=True)
        db = await Database.connect(path, synchronous=synchronous)
        try:
            version = await migrate(db, now=clock())
            await claim_owner(db, business, where=str(path))
            backend = SqliteBackend(db)
            await backend.prepare()
            store = cls(
                db,
                backend,
                in_process(),
                media_dir=media,
                clock=clock,
                schema_version=version,
                lock_keys=ChatLockKeys(channels),
                business=business,
            )
            await store.blocked.load()
            await store.handoffs.load()
        except BaseException:
            await db.close()
            raise
        return store

    @classmethod
    async def connect_postgres(
        cls,
        dsn: str,
        *,
        media_dir: str | Path,
        clock: Clock = time.time,
        pool_size: int = DEFAULT_POOL_SIZE,
        lease_seconds: float = DEFAULT_LEASE_SECONDS,
        channels: Iterable[ChannelKind] = (),
        lock_namespace: int = DEFAULT_NAMESPACE,
        db_schema: str | None = None,
        business: str = DEFAULT_BUSINESS,
        host: PgHost | None = None,
    ) -> Store:
        """Open (migrating) the PostgreSQL database at ``dsn``; call ``close()`` when done.

        ``media_dir`` must be the same shared directory for every instance, so any of them can
        serve a photo another one stored. ``pool_size`` connections serve the repositories;
        the chat locks hold one connection of their own, plus a pool of their own for chats
        that wait for another instance, so a chat waiting for its turn never takes a
        connection a turn needs. ``lease_seconds``: how soon another instance takes over the
        webhook events (and their messages) of an instance that died relaying them.
        ``channels``: the kinds of the channels this bot knows, whose chats it may lock
        (``declare_channel``); ``lock_namespace``: the namespace of the fixed advisory locks
        (migrations, inbox claims, leadership, send grants), one per business on the database;
        ``db_schema``: the schema every table is kept in (made by the first migration), the
        ``search_path`` of every connection the store opens, so stores in two schemas of one
        database see none of each other's rows (None: the server's default, ``public``);
        ``business``: the one the database (or schema) belongs to. ``host``: a ``PgHost`` on
        the same ``dsn`` whose connections the store borrows instead of opening its own
        (``pool_size`` is then the host's), for the many businesses of one host.
        """
        if host is not None and host.dsn != dsn:
            raise ValueError("a store on a PgHost opens on the host's database")
        media = Path(media_dir)
        keys = ChatLockKeys(channels, namespace=lock_namespace)
        await asyncio.to_thread(media.mkdir, mode=0o700, parents=True, exist_ok=True)
        if host is None:
            db = await PgDatabase.connect(dsn, pool_size=pool_size, schema=db_schema)
        else:
            db = host.database(db_schema)
        coordination: Coordination | None = None
        try:
            version = await migrate_postgres(db, now=clock(), namespace=lock_namespace)
            where = db.label if db_schema is None else f"{db.label} schema {db_schema}"
            await claim_owner(db, business, where=where)
            if host is None:
                coordination = await pg_coordination(
                    dsn, db, pool_size=pool_size, keys=keys, namespace=lock_namespace
                )
            else:
                coordination = host.coordination(db, keys=keys, namespace=lock_namespace)
            store = cls(
                db,
                PgBackend(namespace=lock_namespace),
                coordination,
                media_dir=media,
                clock=clock,
                schema_version=version,
                lease_seconds=lease_seconds,
                lock_keys=keys,
                business=business,
            )
            await store.blocked.load()
            await store.handoffs.load()
        except BaseException:
            if coordination is not None:
                await coordination.close()
            await db.close()
            raise
        return store

    def declare_channel(self, kind: ChannelKind) -> None:
        """Know ``kind``'s chat lock tag (a channel registering, or one the bot knows); raises
        ``ValueError`` when another channel has that tag (``ChatLockKeys.declare``)."""
        self.chat_lock_keys.declare(kind)

    @classmethod
    @contextlib.asynccontextmanager
    async def open(
        cls,
        path: str | Path,
        *,
        media_dir: str | Path | None = None,
        clock: Clock = time.time,
        synchronous: Synchronous = "FULL",
        business: str = DEFAULT_BUSINESS,
    ) -> AsyncIterator[Store]:
        """``async with Store.open(path) as store:``; same arguments as ``connect``."""
        store = await cls.connect(
            path, media_dir=media_dir, clock=clock, synchronous=synchronous, business=business
        )
        try:
            yield store
        finally:
            await store.close()

    async def close(self) -> None:
        """Close the connection; every repository call that reads or writes the database
        afterwards raises ``StoreError`` (on SQLite ``blocked.is_blocked`` answers from
        memory)."""
        await self._coordination.close()
        await self._db.close()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()
