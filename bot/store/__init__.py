"""Persistence for the bot: one SQLite file through aiosqlite, in WAL mode (the default), or
one PostgreSQL database through asyncpg shared by several instances (``Store.connect_postgres``).

Each backend is a database (``database`` / ``pg_database``), the few statements it words its
own way (``sqlite_backend`` / ``pg_backend``, behind ``store_backend.Backend``), the schema
rendered in its words (``schema``, applied by ``migrations`` / ``pg_migrations``) and its
coordination (``coordination``: chat locks, leadership, the rate budget, the send limits; in
memory on SQLite (``send_limits``), ``pg_chat_locks``, ``pg_leadership``, ``pg_rate_budget`` and
``pg_send_limits`` on PostgreSQL).

``Store`` opens the database, migrates it, and exposes one repository per concept (the same
repositories and SQL on both backends):

========================  ====================================================================
``store.sessions``        conversation session of each chat (JSON text), resumed after restart
``store.deliveries``      delivery <-> chat/user link; the chat's view, never moved backwards
``store.inbox``           verified Partner webhook events, durable before the 2xx
``store.sent``            claim / mark markers: each relay message sent once in effect
``store.relayed``         the relay's bookkeeping after an event's sends, in one commit
``store.media``           re-hosted photos behind unguessable tokens, with expiry
``store.updates``         Telegram ``update_id`` dedupe
``store.telegram_inbox``  Telegram updates, durable before the 200, until handled
``store.contacts``        phone numbers users proved by sharing their own contact
``store.otp``             drop-off codes waiting for the receiver, erased once delivered
``store.blocked``         chats that blocked the bot
``store.unconfirmed``     creates whose answer was lost, until the service answers for certain
``store.create_intents``  creates recorded before they are sent, until their answer settles
``store.agents``          agent channels' conversations (ids, owners) and transcripts
``store.agent_events``    events for agent conversations: SSE order, webhook outbox
``store.handoffs``        customers' hand-offs to staff and their messages, each delivered once
``store.delivery_list``   the operators' console's list of deliveries, a keyset page at a time
``store.staff``           staff members, their one-time sign-in links and console sessions
``store.customer_search`` the console's customers: found by name or phone, their orders, limits
``store.rider_positions`` deliveries whose rider a customer follows; each one's last fix
``store.customer_data``   one customer's rows: exported ("my data"), erased ("forget me")
``store.retention``       what is kept only so long ([privacy]): pruned by kind, in batches
========================  ====================================================================

``store.delivery_changes`` says which deliveries changed as the console's list shows them, by
the change number each such write gives the row (the live list, on every instance).
"""

from bot.store.agent_conversations import AgentConversation, AgentConversations
from bot.store.agent_events import AgentEvent, AgentEvents, DueHook
from bot.store.blocked import BlockedChats
from bot.store.create_intents import CreateIntent, CreateIntents
from bot.store.customer_data import CustomerData, CustomerExport, ForgetOutcome, delete_files
from bot.store.delivery_links import Deliveries, DeliveryLink
from bot.store.handoffs import Handoff, HandoffMessage, Handoffs, StaffPost
from bot.store.inbox import Inbox, InboxCounts, InboxEvent
from bot.store.listed_details import ListedDetails
from bot.store.media_files import MediaFile, MediaStore
from bot.store.migrations import LATEST_VERSION, MIGRATIONS
from bot.store.otp_handoffs import OtpHandoff, OtpHandoffs
from bot.store.relayed import RelayedEvents, SentReceipt, ViewChange
from bot.store.rider_positions import (
    TRACKED_STATUSES,
    Fix,
    KeptPosition,
    Point,
    RiderOnMap,
    RiderPositions,
    TrackedDelivery,
)
from bot.store.schema_rendering import Migration
from bot.store.sent import SendKey, SentMessages
from bot.store.sessions import SessionRecord, Sessions
from bot.store.staff import LinkRefusal, OpenedSession, StaffMember, StaffSession, StaffStore
from bot.store.status_progress import FINAL_STATUSES
from bot.store.store import Store
from bot.store.store_errors import SchemaTooNewError, StoreError, UnknownDeliveryError
from bot.store.store_owner import DEFAULT_BUSINESS, StoreOwnedByAnother
from bot.store.unconfirmed_creates import CreatedLink, UnconfirmedCreate, UnconfirmedCreates
from bot.store.update_inbox import StoredUpdate, UpdateInbox
from bot.store.updates import SeenUpdates
from bot.store.verified_phones import Contacts
from bot.store.whatsapp_inbox import StoredItem, WhatsAppInbox

__all__ = [
    "DEFAULT_BUSINESS",
    "FINAL_STATUSES",
    "LATEST_VERSION",
    "MIGRATIONS",
    "TRACKED_STATUSES",
    "AgentConversation",
    "AgentConversations",
    "AgentEvent",
    "AgentEvents",
    "BlockedChats",
    "Contacts",
    "CreateIntent",
    "CreateIntents",
    "CreatedLink",
    "CustomerData",
    "CustomerExport",
    "Deliveries",
    "DeliveryLink",
    "DueHook",
    "Fix",
    "ForgetOutcome",
    "Handoff",
    "HandoffMessage",
    "Handoffs",
    "Inbox",
    "InboxCounts",
    "InboxEvent",
    "KeptPosition",
    "LinkRefusal",
    "ListedDetails",
    "MediaFile",
    "MediaStore",
    "Migration",
    "OpenedSession",
    "OtpHandoff",
    "OtpHandoffs",
    "Point",
    "RelayedEvents",
    "RiderOnMap",
    "RiderPositions",
    "SchemaTooNewError",
    "SeenUpdates",
    "SendKey",
    "SentMessages",
    "SentReceipt",
    "SessionRecord",
    "Sessions",
    "StaffMember",
    "StaffPost",
    "StaffSession",
    "StaffStore",
    "Store",
    "StoreError",
    "StoreOwnedByAnother",
    "StoredItem",
    "StoredUpdate",
    "TrackedDelivery",
    "UnconfirmedCreate",
    "UnconfirmedCreates",
    "UnknownDeliveryError",
    "UpdateInbox",
    "ViewChange",
    "WhatsAppInbox",
    "delete_files",
]
