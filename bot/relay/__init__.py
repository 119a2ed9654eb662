"""The relay: Partner API events, stored in the inbox, turned into chat messages.

=====================  ========================================================================
``Relay``              the inbox worker: each event's messages, once, in order per delivery
``Channel``            how a message reaches a chat (Telegram, the terminal demo)
``ChatUnreachable``    raised by a channel for a chat that blocked the bot
``StatusPoller``       polling mode: status changes read from the API into the same inbox
``RelayTuning``        batch size, retry delays and give-up points
=====================  ========================================================================

Modules: ``planner`` (what each chat is owed for an event), ``sender`` (claim, send, mark),
``poller``, ``relay``, ``channel``, ``tuning``; the texts are in
``conversations.texts.deliveries_texts``.
"""

from bot.relay.channel import Channel, ChatUnreachable
from bot.relay.poller import StatusPoller
from bot.relay.relay import Relay
from bot.relay.tuning import RelayTuning

__all__ = ["Channel", "ChatUnreachable", "Relay", "RelayTuning", "StatusPoller"]
