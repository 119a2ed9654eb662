"""The relay: Partner API events, stored in the inbox, turned into chat messages.

=====================  ========================================================================
``Relay``              the inbox worker: each event's messages, once, in order per delivery
``Channel``            how a message reaches a chat (Telegram, the terminal demo)
``ChatUnreachable``    raised by a channel for a chat that blocked the bot
``SendFailed``         raised by a channel (or the relay's outbox) for a message to retry later
``StatusPoller``       polling mode: status changes read from the API into the same inbox
``RelayTuning``        batch size, retry delays and give-up points
=====================  ========================================================================

Modules: ``inbox_worker`` (``Relay``), ``planner`` (what each chat is owed for an event),
``chat_queues`` (per-chat queues served fairly, a backlog composed after the chat's wait and
sent as one message, or as a digest for operators),
``outbox`` (each message claimed, sent, marked; ``relay_sends`` times each send and counts
its failures), ``channel_protocol`` (``Channel`` and its
errors), ``poller``, ``tuning``; the texts are in ``conversations.texts.deliveries_texts``.
"""

from bot.relay.channel_protocol import Channel, ChatUnreachable, SendFailed
from bot.relay.inbox_worker import Relay
from bot.relay.poller import StatusPoller
from bot.relay.tuning import RelayTuning

__all__ = ["Channel", "ChatUnreachable", "Relay", "RelayTuning", "SendFailed", "StatusPoller"]
