"""One relay message, sent once in effect: claim, send, mark (``store.sent``'s protocol).

A message already marked sent is skipped, so an event retried after a crash or a failure sends
only what is still missing. A chat that blocked the bot is recorded in ``store.blocked`` and its
messages count as done: a blocked chat would otherwise hold its event back for ever.

``deliver`` marks the message sent at once. ``send`` stops after the send and returns a
``SentReceipt``: the relay marks an event's messages in the same commit as the rest of the
event's bookkeeping (``store.relayed``).
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass, field

from bot.relay.channel_protocol import Channel, ChatUnreachable, SendFailed
from bot.store import SendKey, SentReceipt, Store, StoreError

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Outgoing:
    """A message the relay wants a chat to see; ``key`` names it for the sent markers."""

    key: SendKey
    text: str = field(repr=False)  # may hold a drop-off code


class Sender:
    """Sends ``Outgoing`` messages through a channel under the store's sent markers."""

    def __init__(self, store: Store, channel: Channel) -> None:
        self._store = store
        self._channel = channel

    async def deliver(self, message: Outgoing) -> None:
        """Send ``message`` unless it was sent before or its chat is blocked, and mark it sent.

        Raises ``SendFailed`` when the channel failed (the claim is released, so a later
        attempt sends it).
        """
        receipt = await self.send(message)
        if receipt is not None:
            await self._store.sent.mark_sent(receipt.key, receipt.message_id)

    async def send(self, message: Outgoing) -> SentReceipt | None:
        """Like ``deliver``, but the message is left claimed, not marked: the caller marks it
        (``store.relayed``). None when nothing was sent (sent before, or the chat is blocked).

        Until it is marked, this store's claim keeps it from being sent again here, and a
        crash leaves a claim that the next process takes over (and sends again).
        """
        key = message.key
        if await self._store.blocked.is_blocked(key.chat_id):
            return None
        if not await self._store.sent.claim(key):
            if await self._store.sent.was_sent(key):
                return None
            # Claimed by this store and not marked: another send of it is in flight.
            raise SendFailed(f"{key.kind} message for event {key.event_id} is being sent")
        sent = False
        try:
            message_id = await self._channel.send(key.chat_id, message.text)
            sent = True
        except ChatUnreachable:
            await self._store.blocked.mark(key.chat_id)
            logger.info("chat %s cannot be messaged; marked blocked", key.chat_id)
            return None
        except SendFailed as failed:
            logger.warning(
                "sending the %s message of event %s failed (%s)", key.kind, key.event_id, failed
            )
            raise
        except Exception as exc:
            # The exception's text may quote the message: only its type is logged.
            logger.warning(
                "sending the %s message of event %s failed (%s)",
                key.kind,
                key.event_id,
                type(exc).__name__,
            )
            raise SendFailed(type(exc).__name__) from exc
        finally:
            if not sent:
                # Also on cancellation, so a later attempt may claim the message again. The
                # store may be closing underneath: the claim then dies with this holder anyway.
                with contextlib.suppress(StoreError):
                    await self._store.sent.release(key)
        return SentReceipt(key, message_id)
