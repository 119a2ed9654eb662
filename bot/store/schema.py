"""The schema, declared once: every migration's statements, rendered for each backend.

The statements are SQLite's as they shipped, with the words the databases spell differently
left as fields (``SchemaWords``): ``{int}`` (SQLite's ``INTEGER``, PostgreSQL's ``BIGINT``:
Telegram ids pass 2**31), ``{real}`` (unix times), ``{blob}``, ``{rowid_key}`` (a key the
database numbers: SQLite's rowid alias, an identity column elsewhere), ``{serial_key}`` (the
same, never reusing a number), ``{without_rowid}``, ``{link_order}`` (the order rows were
linked, which every SQLite index holds implicitly in its rowid) and ``{keep_serial}`` (an
``INSERT`` that copies rows keeps their ``serial_key`` numbers). Each backend names its words
(``sqlite_backend.SCHEMA_WORDS``, ``pg_backend.SCHEMA_WORDS``); a database shared by several
instances also runs each step's ``shared_only`` statements: what they coordinate through, which
one process keeps in memory.

Rendered for SQLite the text is what shipped, byte for byte (SQLite keeps it in
``sqlite_master``); ``tests/store/test_schema_snapshots.py`` checks both renderings against the
schemas the hand-kept twins made.

To change the schema, append a ``SchemaStep`` with the next version number; never edit one that
has shipped, because databases in the field already recorded it as applied.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, fields

from bot.store.database import Executor
from bot.store.store_backend import StoreDatabase
from bot.store.store_errors import SchemaTooNewError


@dataclass(frozen=True)
class SchemaWords:
    """How one database spells what the schema declares; see the module docstring."""

    int: str
    real: str
    blob: str
    rowid_key: str
    serial_key: str
    without_rowid: str
    link_order: str
    keep_serial: str
    shared: bool

    def spell(self, sql: str) -> str:
        """``sql`` with every field named by this database's word."""
        return sql.format_map({field.name: getattr(self, field.name) for field in fields(self)})


@dataclass(frozen=True)
class Migration:
    """One forward step of the schema, rendered for one database."""

    version: int
    name: str
    statements: tuple[str, ...]


@dataclass(frozen=True)
class SchemaStep:
    """One forward step of the schema, for every database: ``statements`` with fields for
    ``SchemaWords``; ``shared_only`` run only on a database several instances share."""

    version: int
    name: str
    statements: tuple[str, ...]
    shared_only: tuple[str, ...] = ()

    def render(self, words: SchemaWords) -> Migration:
        """The step in ``words``' database's own terms."""
        shared = self.shared_only if words.shared else ()
        statements = tuple(words.spell(statement) for statement in (*self.statements, *shared))
        return Migration(self.version, self.name, statements)


_INITIAL_SCHEMA = (
    # One conversation per chat; `data` is the conversations package's session, as JSON text.
    """CREATE TABLE sessions (
        chat_id    {int} PRIMARY KEY,
        user_id    {int} NOT NULL,
        data       TEXT NOT NULL,
        updated_at {real} NOT NULL
    )""",
    "CREATE INDEX sessions_by_updated ON sessions (updated_at)",
    # Which chat and user ordered a delivery, and the newest view of it that chat was given.
    # status_created is the `created` of the last webhook event applied (NULL: create response).
    """CREATE TABLE deliveries (
        delivery_id      TEXT PRIMARY KEY,
        chat_id          {int} NOT NULL,
        user_id          {int} NOT NULL,
        created_at       {real} NOT NULL,
        receiver_phone   TEXT,
        tracking_url     TEXT,
        status           TEXT NOT NULL,
        status_created   {int},
        tracking_sent_at {real},
        updated_at       {real} NOT NULL
    )""",
    "CREATE INDEX deliveries_by_user ON deliveries (user_id, created_at DESC, delivery_id DESC)",
    """CREATE INDEX deliveries_open ON deliveries (created_at, delivery_id)
        WHERE status NOT IN ('delivered', 'cancelled')""",
    # Partner webhook events, stored before the 2xx; seq is the arrival order.
    """CREATE TABLE inbox (
        seq          {rowid_key},
        event_id     TEXT NOT NULL UNIQUE,
        delivery_id  TEXT NOT NULL,
        event_type   TEXT NOT NULL,
        created      {int} NOT NULL,
        raw_body     {blob},
        received_at  {real} NOT NULL,
        processed_at {real},
        attempts     {int} NOT NULL DEFAULT 0,
        last_error   TEXT
    )""",
    "CREATE INDEX inbox_pending ON inbox (created, seq) WHERE processed_at IS NULL",
    "CREATE INDEX inbox_processed ON inbox (processed_at) WHERE processed_at IS NOT NULL",
    # One row per message the relay means to send; claimed_by is the store session that holds it.
    """CREATE TABLE sent_messages (
        event_id   TEXT NOT NULL,
        chat_id    {int} NOT NULL,
        kind       TEXT NOT NULL,
        claimed_by TEXT,
        claimed_at {real} NOT NULL,
        sent_at    {real},
        message_id {int},
        PRIMARY KEY (event_id, chat_id, kind)
    ){without_rowid}""",
    "CREATE INDEX sent_messages_by_claimed ON sent_messages (claimed_at)",
    # Re-hosted photos; the bytes live in the media directory under file_name.
    """CREATE TABLE media (
        token        TEXT PRIMARY KEY,
        file_name    TEXT NOT NULL UNIQUE,
        content_type TEXT NOT NULL,
        size         {int} NOT NULL,
        chat_id      {int} NOT NULL,
        created_at   {real} NOT NULL,
        expires_at   {real} NOT NULL
    )""",
    "CREATE INDEX media_by_expiry ON media (expires_at)",
    """CREATE TABLE seen_updates (
        update_id {int} PRIMARY KEY,
        seen_at   {real} NOT NULL
    )""",
    "CREATE INDEX seen_updates_by_time ON seen_updates (seen_at)",
    """CREATE TABLE contacts (
        user_id     {int} PRIMARY KEY,
        phone_e164  TEXT NOT NULL,
        verified_at {real} NOT NULL
    )""",
    # A drop-off code waiting for its receiver; code is NULL once it was delivered.
    """CREATE TABLE otp_handoffs (
        delivery_id       TEXT PRIMARY KEY
                          REFERENCES deliveries (delivery_id) ON DELETE CASCADE,
        token             TEXT NOT NULL UNIQUE,
        code              TEXT,
        receiver_phone    TEXT NOT NULL,
        created           {int} NOT NULL,
        delivered_at      {real},
        delivered_chat_id {int}
    )""",
    "CREATE INDEX otp_handoffs_by_created ON otp_handoffs (created)",
    """CREATE TABLE blocked_chats (
        chat_id    {int} PRIMARY KEY,
        blocked_at {real} NOT NULL
    )""",
)

_CREATE_REQUESTS = (
    # The create request a delivery was made from (JSON, without its idempotency key), so a
    # customer can order the same again; NULL for deliveries linked before this step.
    "ALTER TABLE deliveries ADD COLUMN request TEXT",
    # A user's kept requests, newest last; the implicit rowid breaks ties of created_at in
    # the order the rows were linked.
    """CREATE INDEX deliveries_requests_by_user ON deliveries (user_id, created_at)
        WHERE request IS NOT NULL""",
)

_OTP_BY_RECEIVER = (
    # The codes still waiting for a receiver, by phone, oldest first: what a user's proven
    # contact is matched against (``store.otp.pending_for_phone``) without reading the table.
    """CREATE INDEX otp_handoffs_pending_by_phone
        ON otp_handoffs (receiver_phone, created, delivery_id) WHERE code IS NOT NULL""",
)

_SAVED_ORDERS = (
    # A delivery keeps the flow and the answers that made it (``SavedOrder`` JSON), which is
    # what "repeat my last delivery" replays; the create request it kept before is dropped
    # (nothing maps a request back into answers any more).
    "DROP INDEX deliveries_requests_by_user",
    "ALTER TABLE deliveries DROP COLUMN request",
    "ALTER TABLE deliveries ADD COLUMN saved_order TEXT",
    """CREATE INDEX deliveries_orders_by_user ON deliveries (user_id, created_at{link_order})
        WHERE saved_order IS NOT NULL""",
)

_UNCONFIRMED_CREATES = (
    # Creates whose answer was lost: retried with the same key until the service answers for
    # certain. request is the wire request (its idempotencyKey included); fingerprint is its
    # content without the key, photos, distance and duration, to hold an identical new order.
    # Once settled, delivery_id (when it was created) and notice (what the customer is told)
    # are set, and the row lives on only until that notice went out.
    """CREATE TABLE unconfirmed_creates (
        idempotency_key TEXT PRIMARY KEY,
        chat_id         {int} NOT NULL,
        user_id         {int} NOT NULL,
        request         TEXT NOT NULL,
        saved_order     TEXT NOT NULL,
        fingerprint     TEXT NOT NULL,
        created_at      {real} NOT NULL,
        attempts        {int} NOT NULL DEFAULT 0,
        next_attempt_at {real} NOT NULL,
        delivery_id     TEXT,
        notice          TEXT
    ){without_rowid}""",
    "CREATE INDEX unconfirmed_creates_due ON unconfirmed_creates (next_attempt_at)",
    """CREATE INDEX unconfirmed_creates_open ON unconfirmed_creates (fingerprint)
        WHERE notice IS NULL""",
)

_AGENT_CHANNELS = (
    # Customers of an agent channel (JSON API, MCP): the channel's own reference for them, and
    # ``seq``, their id in the ``agents`` channel (``UserRef(AGENTS, seq)``).
    """CREATE TABLE agent_customers (
        seq        {serial_key},
        channel    TEXT NOT NULL,
        customer   TEXT NOT NULL,
        created_at {real} NOT NULL,
        UNIQUE (channel, customer)
    )""",
    # One conversation of such a customer: its public id (unguessable), and ``seq``, its chat's
    # id in the ``agents`` channel (``ChatRef(AGENTS, seq)``).
    """CREATE TABLE agent_conversations (
        seq          {serial_key},
        id           TEXT NOT NULL UNIQUE,
        customer_seq {int} NOT NULL REFERENCES agent_customers (seq),
        flow         TEXT,
        created_at   {real} NOT NULL
    )""",
    # What was asked and answered, in order: the conversation's transcript.
    """CREATE TABLE agent_transcript (
        conversation_seq {int} NOT NULL,
        n                {int} NOT NULL,
        entry            TEXT NOT NULL,
        at               {real} NOT NULL,
        PRIMARY KEY (conversation_seq, n)
    ){without_rowid}""",
    # Events for a conversation's deliveries, once each (chat_id, event_key), in seq order for
    # the SSE stream; hook_* is the channel's signed webhook delivery of each.
    """CREATE TABLE agent_events (
        seq          {serial_key},
        chat_id      {int} NOT NULL,
        event_key    TEXT NOT NULL,
        body         TEXT NOT NULL,
        created_at   {real} NOT NULL,
        hook_sent_at {real},
        hook_attempts {int} NOT NULL DEFAULT 0,
        hook_next_at {real} NOT NULL,
        UNIQUE (chat_id, event_key)
    )""",
    "CREATE INDEX agent_events_by_chat ON agent_events (chat_id, seq)",
    "CREATE INDEX agent_events_hooks_due ON agent_events (hook_next_at) WHERE hook_sent_at IS NULL",
)

_CUSTOMER_DETAILS = (
    # What a returning customer is offered again: their name, phone and last places, as the
    # conversations package's ``Remembered`` JSON, one row per Telegram user (never shared).
    """CREATE TABLE customer_details (
        user_id    {int} PRIMARY KEY,
        data       TEXT NOT NULL,
        updated_at {real} NOT NULL
    )""",
)

_CUSTOMER_LANGUAGES = (
    # The shipped language (``fr``) the customer ordered in, so what is said to them later,
    # outside their own turns (the relay's news, the outcome of a lost create), is in it;
    # NULL for the business default (and for rows from before this step).
    "ALTER TABLE deliveries ADD COLUMN language TEXT",
    "ALTER TABLE unconfirmed_creates ADD COLUMN language TEXT",
)

_SHARED_BY_INSTANCES = (
    # Which chat opened which drop-off code hand-off link (its token), until ``expires_at``:
    # the contact that chat shares next may reach another instance.
    """CREATE TABLE otp_invitations (
        chat_id    {int} PRIMARY KEY,
        token      TEXT NOT NULL,
        expires_at {real} NOT NULL
    )""",
    # When each operator alert (by a hash of its text) was last sent, so it is not repeated
    # within a while by any instance.
    """CREATE TABLE operator_alerts (
        alert   TEXT PRIMARY KEY,
        sent_at {real} NOT NULL
    ){without_rowid}""",
)

_SHARED_STATE = (
    # The order the deliveries were linked: what SQLite's implicit rowid keeps.
    "ALTER TABLE deliveries ADD COLUMN link_seq {int} GENERATED ALWAYS AS IDENTITY",
    # Who relays a pending event, until when (``inbox.claim_batch``): an instance that dies
    # mid-send leaves a lease that runs out, and another instance takes the event over.
    "ALTER TABLE inbox ADD COLUMN lease_holder TEXT",
    "ALTER TABLE inbox ADD COLUMN lease_until {real}",
    "CREATE INDEX inbox_pending_by_delivery ON inbox (delivery_id) WHERE processed_at IS NULL",
    # The Partner API's rate budget, shared by every instance (``bot.store.pg_rate_budget``):
    # one row per request start within the last window, per API key (by its fingerprint).
    """CREATE TABLE partner_request_starts (
        key_id     TEXT NOT NULL,
        started_at {real} NOT NULL
    )""",
    "CREATE INDEX partner_request_starts_by_key ON partner_request_starts (key_id, started_at)",
    """CREATE TABLE partner_rate_blocks (
        key_id        TEXT PRIMARY KEY,
        blocked_until {real} NOT NULL
    )""",
)

# What ``bot.store.agent_conversations`` numbered agent chats and customers by until version 10:
# ids at or below this were an agent conversation's or customer's (this minus its seq).
_AGENT_ID_BASE = -(2**50)


# The statements below put only this module's own literals into their SQL (S608 is about input).


def _channel_of(column: str) -> str:
    """SQL: the channel of a row keyed by ``column`` before version 10 (an id in the agents'
    range was an agent's; every other id was Telegram's: databases before version 10 were
    written by ``deliverybot run``, a Telegram bot; the demo never kept one)."""
    return f"CASE WHEN {column} <= {_AGENT_ID_BASE} THEN 'agents' ELSE 'telegram' END"


def _id_of(column: str) -> str:
    """SQL: ``column``'s id in its channel (an agent's: its conversation's or customer's seq)."""
    return (
        f"CASE WHEN {column} <= {_AGENT_ID_BASE} THEN {_AGENT_ID_BASE} - {column} ELSE {column} END"
    )


def _rebuilt(table: str, create: str, columns: str, selected: str, *after: str) -> tuple[str, ...]:
    """Statements that remake ``table`` as ``create`` with its rows (``selected`` from the old
    rows, into ``columns``) and then ``after`` (its indexes): for a new primary key or unique
    constraint, which neither database adds to a table in place the same way. The old rows
    are set aside first (``CREATE TABLE ... AS`` copies no constraints, indexes or keys), so
    the new table is made under its own name: SQLite keeps its text as written and
    PostgreSQL names its constraints as for a new database.
    """
    return (
        f"CREATE TABLE {table}_v9 AS SELECT * FROM {table}",  # noqa: S608
        f"DROP TABLE {table}",
        create,
        f"INSERT INTO {table} ({columns}){{keep_serial}} SELECT {selected} FROM {table}_v9",  # noqa: S608
        f"DROP TABLE {table}_v9",
        *after,
    )


_CHATS_BY_CHANNEL = (
    # Every row keyed by a chat or a customer names it by its channel and the channel's id
    # (``bot.chat_ref``), not by an id range: rows of agent conversations and customers (ids at
    # or below -2**50) become the channel 'agents' with their seq, every other row 'telegram'.
    # A customer is named in the channel of their chat: one ``channel`` column serves both.
    *_rebuilt(
        "sessions",
        """CREATE TABLE sessions (
        channel    TEXT NOT NULL,
        chat_id    {int} NOT NULL,
        user_id    {int} NOT NULL,
        data       TEXT NOT NULL,
        updated_at {real} NOT NULL,
        PRIMARY KEY (channel, chat_id)
    )""",
        "channel, chat_id, user_id, data, updated_at",
        f"{_channel_of('chat_id')}, {_id_of('chat_id')}, {_id_of('user_id')}, data, updated_at",
        # In the order sessions are listed (a chat id is no longer the rowid that ends it).
        "CREATE INDEX sessions_by_updated ON sessions (updated_at, channel, chat_id)",
    ),
    # Tables keyed by something else take the column in place; rows added later always name
    # their channel, the default only names the rows from before.
    "ALTER TABLE deliveries ADD COLUMN channel TEXT NOT NULL DEFAULT 'telegram'",
    f"""UPDATE deliveries SET channel = 'agents', chat_id = {_id_of("chat_id")},
        user_id = {_id_of("user_id")} WHERE chat_id <= {_AGENT_ID_BASE}""",  # noqa: S608
    "DROP INDEX deliveries_by_user",
    """CREATE INDEX deliveries_by_user
        ON deliveries (channel, user_id, created_at DESC, delivery_id DESC)""",
    "DROP INDEX deliveries_orders_by_user",
    """CREATE INDEX deliveries_orders_by_user
        ON deliveries (channel, user_id, created_at{link_order}) WHERE saved_order IS NOT NULL""",
    *_rebuilt(
        "sent_messages",
        """CREATE TABLE sent_messages (
        event_id   TEXT NOT NULL,
        channel    TEXT NOT NULL,
        chat_id    {int} NOT NULL,
        kind       TEXT NOT NULL,
        claimed_by TEXT,
        claimed_at {real} NOT NULL,
        sent_at    {real},
        message_id {int},
        PRIMARY KEY (event_id, channel, chat_id, kind)
    ){without_rowid}""",
        "event_id, channel, chat_id, kind, claimed_by, claimed_at, sent_at, message_id",
        f"event_id, {_channel_of('chat_id')}, {_id_of('chat_id')}, kind, claimed_by, claimed_at,"
        " sent_at, message_id",
        "CREATE INDEX sent_messages_by_claimed ON sent_messages (claimed_at)",
    ),
    "ALTER TABLE media ADD COLUMN channel TEXT NOT NULL DEFAULT 'telegram'",
    f"""UPDATE media SET channel = 'agents', chat_id = {_id_of("chat_id")}
        WHERE chat_id <= {_AGENT_ID_BASE}""",  # noqa: S608
    *_rebuilt(
        "contacts",
        """CREATE TABLE contacts (
        channel     TEXT NOT NULL,
        user_id     {int} NOT NULL,
        phone_e164  TEXT NOT NULL,
        verified_at {real} NOT NULL,
        PRIMARY KEY (channel, user_id)
    )""",
        "channel, user_id, phone_e164, verified_at",
        f"{_channel_of('user_id')}, {_id_of('user_id')}, phone_e164, verified_at",
    ),
    # The chat a drop-off code went to: its channel beside its id (NULL while pending).
    "ALTER TABLE otp_handoffs ADD COLUMN delivered_channel TEXT",
    f"""UPDATE otp_handoffs SET delivered_channel = {_channel_of("delivered_chat_id")},
        delivered_chat_id = {_id_of("delivered_chat_id")} WHERE delivered_chat_id IS NOT NULL""",  # noqa: S608
    *_rebuilt(
        "blocked_chats",
        """CREATE TABLE blocked_chats (
        channel    TEXT NOT NULL,
        chat_id    {int} NOT NULL,
        blocked_at {real} NOT NULL,
        PRIMARY KEY (channel, chat_id)
    )""",
        "channel, chat_id, blocked_at",
        f"{_channel_of('chat_id')}, {_id_of('chat_id')}, blocked_at",
    ),
    "ALTER TABLE unconfirmed_creates ADD COLUMN channel TEXT NOT NULL DEFAULT 'telegram'",
    f"""UPDATE unconfirmed_creates SET channel = 'agents', chat_id = {_id_of("chat_id")},
        user_id = {_id_of("user_id")} WHERE chat_id <= {_AGENT_ID_BASE}""",  # noqa: S608
    # seq is kept: it is each event's position in its conversation's SSE stream.
    *_rebuilt(
        "agent_events",
        """CREATE TABLE agent_events (
        seq          {serial_key},
        channel      TEXT NOT NULL,
        chat_id      {int} NOT NULL,
        event_key    TEXT NOT NULL,
        body         TEXT NOT NULL,
        created_at   {real} NOT NULL,
        hook_sent_at {real},
        hook_attempts {int} NOT NULL DEFAULT 0,
        hook_next_at {real} NOT NULL,
        UNIQUE (channel, chat_id, event_key)
    )""",
        "seq, channel, chat_id, event_key, body, created_at, hook_sent_at, hook_attempts,"
        " hook_next_at",
        f"seq, {_channel_of('chat_id')}, {_id_of('chat_id')}, event_key, body, created_at,"
        " hook_sent_at, hook_attempts, hook_next_at",
        "CREATE INDEX agent_events_by_chat ON agent_events (channel, chat_id, seq)",
        """CREATE INDEX agent_events_hooks_due ON agent_events (hook_next_at)
        WHERE hook_sent_at IS NULL""",
    ),
    *_rebuilt(
        "customer_details",
        """CREATE TABLE customer_details (
        channel    TEXT NOT NULL,
        user_id    {int} NOT NULL,
        data       TEXT NOT NULL,
        updated_at {real} NOT NULL,
        PRIMARY KEY (channel, user_id)
    )""",
        "channel, user_id, data, updated_at",
        f"{_channel_of('user_id')}, {_id_of('user_id')}, data, updated_at",
    ),
    *_rebuilt(
        "otp_invitations",
        """CREATE TABLE otp_invitations (
        channel    TEXT NOT NULL,
        chat_id    {int} NOT NULL,
        token      TEXT NOT NULL,
        expires_at {real} NOT NULL,
        PRIMARY KEY (channel, chat_id)
    )""",
        "channel, chat_id, token, expires_at",
        f"{_channel_of('chat_id')}, {_id_of('chat_id')}, token, expires_at",
    ),
)

_SERIALS_AFTER_COPY = (
    # PostgreSQL's identity does not follow values copied into it: the next event's seq
    # continues after the copied ones (SQLite's AUTOINCREMENT follows by itself).
    """SELECT setval(pg_get_serial_sequence('agent_events', 'seq'),
        coalesce(max(seq), 0) + 1, false) FROM agent_events""",
)

_SHARED_SEND_LIMITS = (
    # Telegram's send windows and holds, and each agent channel's request bucket, shared by
    # every instance (``bot.store.pg_send_limits``); one process keeps them in memory.
    # Every send granted within the longest window: the chat it went to and when.
    """CREATE TABLE telegram_sends (
        chat_id {int} NOT NULL,
        sent_at {real} NOT NULL
    )""",
    "CREATE INDEX telegram_sends_by_time ON telegram_sends (sent_at)",
    "CREATE INDEX telegram_sends_by_chat ON telegram_sends (chat_id, sent_at)",
    # Chats Telegram asked to wait for (a 429's retry_after), until when.
    """CREATE TABLE telegram_holds (
        chat_id    {int} PRIMARY KEY,
        held_until {real} NOT NULL
    )""",
    # Each agent channel's token bucket (``requests_per_minute``): its tokens at a moment.
    """CREATE TABLE agent_request_buckets (
        channel    TEXT PRIMARY KEY,
        tokens     {real} NOT NULL,
        counted_at {real} NOT NULL
    )""",
)

_CUSTOMER_SAFETY = (
    # Customers an operator stopped (``/block``): no order is taken from them until unblocked.
    # Not ``blocked_chats``, which lists chats that blocked the bot.
    """CREATE TABLE customer_blocks (
        channel    TEXT NOT NULL,
        user_id    {int} NOT NULL,
        reason     TEXT,
        blocked_by TEXT NOT NULL,
        blocked_at {real} NOT NULL,
        PRIMARY KEY (channel, user_id)
    )""",
    # What operators did and which limits customers hit: who, when, what, and how it ended.
    """CREATE TABLE audit_trail (
        seq     {serial_key},
        at      {real} NOT NULL,
        actor   TEXT NOT NULL,
        action  TEXT NOT NULL,
        subject TEXT NOT NULL,
        outcome TEXT NOT NULL,
        detail  TEXT
    )""",
    "CREATE INDEX audit_trail_by_time ON audit_trail (at)",
    # When each customer started an order ([limits] drafts_per_hour), kept a day.
    """CREATE TABLE customer_drafts (
        channel    TEXT NOT NULL,
        user_id    {int} NOT NULL,
        started_at {real} NOT NULL
    )""",
    "CREATE INDEX customer_drafts_by_user ON customer_drafts (channel, user_id, started_at)",
    "CREATE INDEX customer_drafts_by_time ON customer_drafts (started_at)",
)

_DURABLE_INTAKE = (
    # Creates recorded before they are sent (``bot.store.create_intents``): what the
    # follow-up needs to finish one whose sender died (the request with its key, the chat and
    # customer, the saved order), and who sends it: ``owner`` (a store's holder) renews
    # ``lease_until`` while the create is in flight. A row leaves when the create is settled
    # (linked, refused, or handed to ``unconfirmed_creates``), in the same commit.
    """CREATE TABLE create_intents (
        idempotency_key TEXT PRIMARY KEY,
        channel         TEXT NOT NULL,
        chat_id         {int} NOT NULL,
        user_id         {int} NOT NULL,
        request         TEXT NOT NULL,
        saved_order     TEXT NOT NULL,
        fingerprint     TEXT NOT NULL,
        language        TEXT,
        created_at      {real} NOT NULL,
        owner           TEXT NOT NULL,
        lease_until     {real} NOT NULL
    ){without_rowid}""",
    "CREATE INDEX create_intents_by_lease ON create_intents (lease_until)",
    # Telegram updates stored before their webhook's 200 (or before the polling offset moves
    # past them), until handled (``bot.store.update_inbox``): the update as Telegram sent it,
    # and its chat (NULL for an update without one), whose lock holder handles them in order.
    """CREATE TABLE telegram_update_inbox (
        update_id   {int} PRIMARY KEY,
        channel     TEXT NOT NULL,
        chat_id     {int},
        body        TEXT NOT NULL,
        received_at {real} NOT NULL
    ){without_rowid}""",
    """CREATE INDEX telegram_update_inbox_by_chat
        ON telegram_update_inbox (channel, chat_id, update_id)""",
    "CREATE INDEX telegram_update_inbox_by_age ON telegram_update_inbox (received_at)",
)

_FUNNEL = (
    # Where customers give up (bot.funnel): one row per step event of a conversation. kind is
    # reached, answered, reasked, went_back, abandoned or created; reason is a re-ask's reason
    # code or an abandonment's (idle, cancelled); session is the conversation's opaque id, so
    # each conversation counts once per step whichever instance (or housekeeping pass) wrote it;
    # day is the unix day of at, what the report selects and the retention drops by.
    """CREATE TABLE funnel_events (
        day     {int} NOT NULL,
        flow    TEXT NOT NULL,
        step    TEXT NOT NULL,
        kind    TEXT NOT NULL,
        reason  TEXT,
        session TEXT NOT NULL,
        at      {real} NOT NULL
    )""",
    "CREATE INDEX funnel_events_by_day ON funnel_events (day, flow)",
    "CREATE INDEX funnel_events_by_session ON funnel_events (session, step, kind, at)",
)

_TOLD_AND_SPOKEN = (
    # The facts each delivery's chat was told (``delivery_links.DeliveryLink.told``: the
    # rider, the fee, the payment, the drop-off code, the quote question), one word each
    # separated by spaces, so no later event or reply tells one again.
    "ALTER TABLE deliveries ADD COLUMN told TEXT NOT NULL DEFAULT ''",
    # The language an agent conversation was started in (``language`` of its start): every
    # turn and its delivery's events are said in it; NULL for the business default.
    "ALTER TABLE agent_conversations ADD COLUMN language TEXT",
)

_PAYMENTS_SEEN = (
    # When the relay first saw a delivery's fee paid (``payment.delivery_payment_status``
    # "paid" in an event); NULL while it is not, for ``[limits] unpaid_deliveries``.
    "ALTER TABLE deliveries ADD COLUMN paid_at {real}",
)

_STAFF_HANDOFFS = (
    # A customer's hand-off to the business's staff (``bot.store.handoffs``): its reference,
    # the customer's chat, its state (open, taken, closed), who took it, the question the
    # order was at, and where staff see it (the operators' chat, its message and topic).
    """CREATE TABLE handoffs (
        ref              TEXT PRIMARY KEY,
        channel          TEXT NOT NULL,
        chat_id          {int} NOT NULL,
        user_id          {int} NOT NULL,
        customer_name    TEXT NOT NULL,
        state            TEXT NOT NULL,
        flow             TEXT,
        step             TEXT,
        language         TEXT,
        owner_channel    TEXT,
        owner_id         {int},
        owner_name       TEXT,
        staff_channel    TEXT,
        staff_chat_id    {int},
        staff_message_id {int},
        staff_thread_id  {int},
        opened_at        {real} NOT NULL,
        taken_at         {real},
        closed_at        {real},
        active_at        {real} NOT NULL
    )""",
    # At most one hand-off of a chat is not closed: asking again finds it.
    """CREATE UNIQUE INDEX handoffs_open_by_chat ON handoffs (channel, chat_id)
        WHERE state <> 'closed'""",
    "CREATE INDEX handoffs_by_staff_message ON handoffs (staff_chat_id, staff_message_id)",
    """CREATE INDEX handoffs_by_staff_topic ON handoffs (staff_chat_id, staff_thread_id,
        opened_at)""",
    "CREATE INDEX handoffs_open_by_activity ON handoffs (active_at) WHERE state <> 'closed'",
    # What was said through a hand-off, both ways, in order; each delivered once: a holder
    # claims the oldest pending one of its way for a lease, then marks it delivered.
    """CREATE TABLE handoff_messages (
        seq          {serial_key},
        ref          TEXT NOT NULL REFERENCES handoffs (ref),
        way          TEXT NOT NULL,
        body         TEXT NOT NULL,
        created_at   {real} NOT NULL,
        holder       TEXT,
        held_until   {real},
        delivered_at {real}
    )""",
    "CREATE INDEX handoff_messages_by_ref ON handoff_messages (ref, seq)",
    """CREATE INDEX handoff_messages_pending ON handoff_messages (ref, way, seq)
        WHERE delivered_at IS NULL""",
)

_ANSWERED_CREATES = (
    # A create answered with a delivery (linked in the same commit) whose customer is still to
    # be told: its intent stays, with what to tell them, until the turn's reply went out; the
    # follow-up tells it if the sender died first (``bot.store.create_intents``).
    "ALTER TABLE create_intents ADD COLUMN delivery_id TEXT",
    "ALTER TABLE create_intents ADD COLUMN notice TEXT",
)

STEPS: tuple[SchemaStep, ...] = (
    SchemaStep(1, "initial schema", _INITIAL_SCHEMA, _SHARED_STATE),
    SchemaStep(2, "create requests of deliveries", _CREATE_REQUESTS),
    SchemaStep(3, "pending drop-off codes by receiver phone", _OTP_BY_RECEIVER),
    SchemaStep(4, "the answers that made each delivery", _SAVED_ORDERS),
    SchemaStep(5, "creates whose answer was lost", _UNCONFIRMED_CREATES),
    SchemaStep(6, "agent channels: customers, conversations, events", _AGENT_CHANNELS),
    SchemaStep(7, "what returning customers are offered again", _CUSTOMER_DETAILS),
    SchemaStep(8, "the language each customer ordered in", _CUSTOMER_LANGUAGES),
    SchemaStep(9, "hand-off links opened and operator alerts sent", _SHARED_BY_INSTANCES),
    SchemaStep(
        10, "chats and customers named by their channel", _CHATS_BY_CHANNEL, _SERIALS_AFTER_COPY
    ),
    SchemaStep(11, "send limits shared by instances", (), _SHARED_SEND_LIMITS),
    SchemaStep(12, "blocked customers, orders started, the audit trail", _CUSTOMER_SAFETY),
    SchemaStep(
        13, "creates recorded before they are sent; the Telegram update inbox", _DURABLE_INTAKE
    ),
    SchemaStep(14, "where customers give up: the funnel's step events", _FUNNEL),
    SchemaStep(15, "facts each chat was told; agent conversations' languages", _TOLD_AND_SPOKEN),
    SchemaStep(16, "hand-offs to staff and their messages", _STAFF_HANDOFFS),
    SchemaStep(17, "when each delivery's fee was seen paid", _PAYMENTS_SEEN),
    SchemaStep(18, "creates answered, their customer still to be told", _ANSWERED_CREATES),
)
"""Every schema step, oldest first. Append only."""

LATEST_VERSION = STEPS[-1].version

VERSION_TABLE = """CREATE TABLE IF NOT EXISTS schema_version (
    version    {int} PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at {real} NOT NULL
)"""
"""Where a database records the steps applied (``SchemaWords.spell`` it too)."""


def render(words: SchemaWords, steps: tuple[SchemaStep, ...] = STEPS) -> tuple[Migration, ...]:
    """Every step in ``words``' database's own terms, oldest first."""
    return tuple(step.render(words) for step in steps)


MAX_VERSION = "SELECT coalesce(max(version), 0) FROM schema_version"
_RECORD_VERSION = "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)"


async def apply_newer(
    db: StoreDatabase,
    migrations: Sequence[Migration],
    *,
    found: int,
    now: float,
    first: Callable[[Executor], Awaitable[object]],
) -> None:
    """Apply every one of ``migrations`` newer than ``found``, each in its own transaction
    with its version row, after ``first`` (a lock, or the version table) in that transaction.

    Raises ``SchemaTooNewError`` (changing nothing) when ``found`` is newer than them all.
    """
    latest = migrations[-1].version if migrations else 0
    if found > latest:
        raise SchemaTooNewError(db.path, found, latest)
    for migration in migrations:
        if migration.version <= found:
            continue
        async with db.transaction() as tx:
            await first(tx)
            # Another process may have applied it since ``found`` was read.
            row = await tx.fetch_one(MAX_VERSION)
            if row is not None and int(row[0]) >= migration.version:
                continue
            for statement in migration.statements:
                await tx.execute(statement)
            await tx.execute(_RECORD_VERSION, (migration.version, migration.name, now))
