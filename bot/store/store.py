"""``Store``: one SQLite file (plus a media directory) and the repositories over it.

::

    async with Store.open(path) as store:
        await store.sessions.save(chat_id, user_id, session.model_dump_json())

or, where a framework owns start-up and shut-down (PTB's post_init / post_shutdown)::

    store = await Store.connect(path)
    ...
    await store.close()

Opening applies any pending migrations and refuses a file from a newer bot
(``SchemaTooNewError``). Times are unix seconds: a repository stamps its own bookkeeping times
(``updated_at``, ``received_at`` ...) with the injected ``clock``; times that come from
elsewhere (an event's ``created``, an expiry) and the cut-offs of every prune are arguments.
"""

from __future__ import annotations

import contextlib
import secrets
import time
from collections.abc import AsyncIterator
from pathlib import Path
from types import TracebackType

from bot.clocks import Clock
from bot.store.blocked import BlockedChats
from bot.store.customer_details import CustomerDetails
from bot.store.database import Database, Synchronous
from bot.store.delivery_links import Deliveries
from bot.store.inbox import Inbox
from bot.store.media_files import MediaStore
from bot.store.migrations import migrate
from bot.store.otp_handoffs import OtpHandoffs
from bot.store.relayed import RelayedEvents
from bot.store.sent import SentMessages
from bot.store.sessions import Sessions
from bot.store.unconfirmed_creates import UnconfirmedCreates
from bot.store.updates import SeenUpdates
from bot.store.verified_phones import Contacts


class Store:
    """The bot's persistent state; build it with ``Store.open`` or ``Store.connect``."""

    def __init__(self, db: Database, *, media_dir: Path, clock: Clock, schema_version: int) -> None:
        self._db = db
        self.path = db.path
        self.media_dir = media_dir
        self.clock = clock
        self.schema_version = schema_version
        self.sessions = Sessions(db, clock)
        self.deliveries = Deliveries(db, clock)
        self.inbox = Inbox(db, clock)
        holder = secrets.token_hex(8)  # this open Store, as the owner of its send claims
        self.sent = SentMessages(db, clock, holder=holder)
        self.relayed = RelayedEvents(db, clock, holder=holder)
        self.media = MediaStore(db, clock, media_dir)
        self.updates = SeenUpdates(db, clock)
        self.contacts = Contacts(db, clock)
        self.otp = OtpHandoffs(db, clock)
        self.blocked = BlockedChats(db, clock)
        self.unconfirmed = UnconfirmedCreates(db, clock)
        self.customers = CustomerDetails(db, clock)

    @classmethod
    async def connect(
        cls,
        path: str | Path,
        *,
        media_dir: str | Path | None = None,
        clock: Clock = time.time,
        synchronous: Synchronous = "FULL",
    ) -> Store:
        """Open (creating and migrating) the database at ``path``; call ``close()`` when done.

        ``media_dir`` defaults to ``<path>.media`` beside the database. ``synchronous="FULL"``
        makes every commit survive a power cut, which is what lets the webhook answer 2xx right
        after the inbox insert; ``"NORMAL"`` survives a process crash only.
        """
        path = Path(path)
        media = Path(media_dir) if media_dir is not None else path.with_name(path.name + ".media")
        media.mkdir(mode=0o700, parents=True, exist_ok=True)
        db = await Database.connect(path, synchronous=synchronous)
        try:
            version = await migrate(db, now=clock())
            store = cls(db, media_dir=media, clock=clock, schema_version=version)
            await store.blocked.load()
        except BaseException:
            await db.close()
            raise
        return store

    @classmethod
    @contextlib.asynccontextmanager
    async def open(
        cls,
        path: str | Path,
        *,
        media_dir: str | Path | None = None,
        clock: Clock = time.time,
        synchronous: Synchronous = "FULL",
    ) -> AsyncIterator[Store]:
        """``async with Store.open(path) as store:``; same arguments as ``connect``."""
        store = await cls.connect(path, media_dir=media_dir, clock=clock, synchronous=synchronous)
        try:
            yield store
        finally:
            await store.close()

    async def close(self) -> None:
        """Close the connection; every repository call that reads or writes the database
        afterwards raises ``StoreError`` (``blocked.is_blocked`` answers from memory)."""
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
