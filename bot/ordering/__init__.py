"""The bot side of the conversations: the flows' services over the Partner API, and the
per-chat runner every adapter (Telegram, the console) shares.

::

    cache = CapabilityCache.for_client(client)
    engine = build_engine(client, cache, geocoder=geocoder_from_config(config.geocoding))
    chats = ChatService(engine, store, alert_operators=tell_operators)
    turn = await chats.start(chat_id, user_id)
    turn = await chats.handle(chat_id, user_id, TextAnswer(text="Ada Obi"))

* ``PartnerCatalog``: ``conversations.CapabilitySource`` over the shared ``CapabilityCache``;
* ``PartnerCreator``: ``conversations.DeliveryCreator``; every ``PartnerError`` of a create
  becomes a ``conversations.Refused`` carrying its decision (``refusal_for``);
* ``geocoder_from_config``: the configured geocoder, or None;
* ``ChatService``: sessions in ``store.sessions`` after every turn, a lock per chat, created
  deliveries linked in ``store.deliveries`` with the answers that made them, operator alerts,
  and ``repeat`` (the last order replayed into its flow);
* ``OrderHistory``: those saved orders, read back.
"""

from bot.ordering.catalog import PartnerCatalog
from bot.ordering.chats import ChatService, DeliverLater
from bot.ordering.creator import PartnerCreator, refusal_for
from bot.ordering.engine import build_engine
from bot.ordering.geocoding import geocoder_from_config
from bot.ordering.history import OrderHistory

__all__ = [
    "ChatService",
    "DeliverLater",
    "OrderHistory",
    "PartnerCatalog",
    "PartnerCreator",
    "build_engine",
    "geocoder_from_config",
    "refusal_for",
]
