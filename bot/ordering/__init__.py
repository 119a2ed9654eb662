"""The bot side of the conversations: the flows' services over the Partner API, the per-chat
runner every adapter (Telegram, the console) shares, and the desk that answers customers about
the deliveries they ordered.

::

    cache = CapabilityCache.for_client(client)
    engine = build_engine(client, cache, geocoder=geocoder_from_config(config.geocoding))
    chats = ChatService(engine, store, alert_operators=tell_operators)
    chat = ChatRef(TELEGRAM, 42)                  # the adapter names its chat and customer
    turn = await chats.start(chat, chat.user(42))
    turn = await chats.handle(chat, chat.user(42), TextAnswer(text="Ada Obi"))
    desk = CustomerDesk(store, client, words, phone_region="NG", chats=chats)
    reply = await desk.status(chat.user(42), "3F2A9C1E")  # reply.text, reply.delivery

* ``PartnerCatalog``: ``conversations.CapabilitySource`` over the shared ``CapabilityCache``;
* ``PartnerCreator``: ``conversations.DeliveryCreator``; every ``PartnerError`` of a create
  becomes a ``conversations.Refused`` carrying its decision (``refusal_for``);
* ``geocoder_from_config``: the configured geocoder, or None;
* ``ChatService``: sessions in ``store.sessions`` after every turn, a lock per chat, created
  deliveries linked in ``store.deliveries`` with the answers that made them, operator alerts,
  and ``repeat`` (the last order replayed into its flow);
* ``OrderHistory``: those saved orders, read back;
* ``CreateFollowUp`` (``unconfirmed_worker``): the creates whose answer was lost, kept in
  ``store.unconfirmed``, read back and retried with the same key until the service answers for
  certain; ``HoldingCreator`` (``duplicate_hold``) holds an identical order once meanwhile;
* ``CustomerDesk``: one delivery's status, the customer's deliveries (paged), cancel with a
  reason, and the receiver's side of the drop-off code hand-off, for every channel; plain
  replies (``desk_replies``) worded by ``conversations.texts`` with the channel's
  ``ChannelWords``.
"""

from bot.ordering.catalog import PartnerCatalog
from bot.ordering.chats import ChatService, DeliverLater
from bot.ordering.creator import PartnerCreator, refusal_for
from bot.ordering.customer_desk import CustomerDesk
from bot.ordering.desk_replies import (
    CancelReply,
    DeliveryEntry,
    DeliveryPage,
    HandoffCode,
    HandoffReply,
    StatusReply,
)
from bot.ordering.engine import build_engine
from bot.ordering.geocoding import geocoder_from_config
from bot.ordering.history import OrderHistory

__all__ = [
    "CancelReply",
    "ChatService",
    "CustomerDesk",
    "DeliverLater",
    "DeliveryEntry",
    "DeliveryPage",
    "HandoffCode",
    "HandoffReply",
    "OrderHistory",
    "PartnerCatalog",
    "PartnerCreator",
    "StatusReply",
    "build_engine",
    "geocoder_from_config",
    "refusal_for",
]
