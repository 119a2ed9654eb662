"""One relay message, sent once in effect: claim, send, mark (``store.sent``'s protocol).

A message already marked sent is skipped, so an event retried after a crash or a failure sends
only what is still missing. A chat that blocked the bot is recorded in ``store.blocked`` and its
messages count as done: a blocked chat would otherwise hold its event back for ever.

``deliver`` marks the message sent at once. ``send`` stops after the send and returns a
``SentReceipt``: the relay marks an event's messages in the same commit as the rest of the
event's bookkeeping (``store.relayed``). ``send_together`` sends several pending messages of one
chat as one (their texts joined by a blank line), each under its own marker: the relay does
that for a chat with a backlog (``bot.relay.chat_queues``). A backlog too long for one message
is sent as a digest: the first messages in full, the rest (operator news only: each has its
``abridged_as``) counted in one closing line that names their deliveries; each is marked sent,
since the digest told it.

A message keeps the ``log_context`` it was planned in (its event and delivery), and is sent
under it with its kind as ``sending``: a chat's queue sends from its own task, and what the
channel logs about the send (``bot.agents.chatless_channel`` logs the message itself) still
names what it was about.
"""

from __future__ import annotations

import contextlib
import functools
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Final

from bot.chat_ref import ChatRef
from bot.log_context import current_context, log_context
from bot.metrics.business_metrics import NO_METRICS, Metrics
from bot.relay.asking import Asking, AskingChannel, typed_text
from bot.relay.channel_protocol import Channel, ChatUnreachable, SendFailed
from bot.relay.relay_sends import measured_send
from bot.store import SendKey, SentReceipt, Store, StoreError
from bot.store.delivery_history import HistoryMessage
from conversations.texts import deliveries_texts as wording
from conversations.texts.business_texts import BusinessTexts
from conversations.texts.catalogue import DEFAULT_TEXTS, Catalogue

logger = logging.getLogger(__name__)

COALESCED_SEPARATOR: Final = "\n\n"
"""Between the texts of messages sent together: each keeps its own paragraph."""


@dataclass(frozen=True)
class Told:
    """A message as the console's delivery page keeps it: the delivery it is about, whom it
    was for (``CUSTOMER`` or ``OPERATORS``), what it was (``kind``) and its text with the
    drop-off code masked (``bot.relay.planner``)."""

    delivery_id: str
    audience: str
    kind: str
    text: str = field(repr=False)


@dataclass(frozen=True)
class Outgoing:
    """A message the relay wants a chat to see; ``key`` names it for the sent markers."""

    key: SendKey
    text: str = field(repr=False)  # may hold a drop-off code
    abridged_as: str | None = None
    """How a digest names this message when it leaves the text out (the delivery's short
    reference); None for a message that is always said in full (a customer's, a code's)."""
    asking: Asking | None = None
    """The choices that answer it (the quote question): buttons where the channel has them."""
    about: Told | None = field(default=None, repr=False, compare=False)
    """What the console's delivery page keeps of it (``store.history``); None: nothing."""
    context: tuple[tuple[str, str], ...] = field(
        default_factory=lambda: tuple(current_context().items()), repr=False, compare=False
    )
    """The ``log_context`` fields where it was made (references only): it is sent under them."""


Outcome = SentReceipt | SendFailed | None
"""What became of one message: sent (its receipt), failed, or nothing to send (None)."""


class Sender:
    """Sends ``Outgoing`` messages through a channel under the store's sent markers, each send
    timed and its failure counted in the business's ``metrics``."""

    def __init__(
        self,
        store: Store,
        channel: Channel,
        metrics: Metrics = NO_METRICS,
        texts: BusinessTexts | None = None,
    ) -> None:
        self._store = store
        self._channel = channel
        self._metrics = metrics
        # A digest's own words are for operators: the business's default language.
        self._texts = texts or BusinessTexts(DEFAULT_TEXTS)

    async def deliver(self, message: Outgoing) -> None:
        """Send ``message`` unless it was sent before or its chat is blocked, and mark it sent.

        Raises ``SendFailed`` when the channel failed (the claim is released, so a later
        attempt sends it).
        """
        receipt = await self.send(message)
        if receipt is not None:
            await self._store.relayed.record_sent([receipt])

    async def mark(self, receipts: Sequence[SentReceipt]) -> None:
        """Mark ``receipts`` sent, in one commit (``store.relayed.record_sent``)."""
        await self._store.relayed.record_sent(receipts)

    async def send(self, message: Outgoing) -> SentReceipt | None:
        """Like ``deliver``, but the message is left claimed, not marked: the caller marks it
        (``store.relayed``). None when nothing was sent (sent before, or the chat is blocked).

        Until it is marked, this store's claim keeps it from being sent again here, and a
        crash leaves a claim that the next process takes over (and sends again).
        """
        (outcome,) = await self.send_together([message])
        if isinstance(outcome, SendFailed):
            raise outcome
        return outcome

    async def send_together(
        self, messages: Sequence[Outgoing], *, in_full: int | None = None
    ) -> list[Outcome]:
        """Send ``messages`` (all to one chat) as one message, their texts joined in order.

        With ``in_full``, only the first ``in_full`` are said in full and the rest (each with
        its ``abridged_as``) are counted in a closing line: a digest.

        Each is claimed first, as in ``send``; those sent before are left out (None), and one
        another task is sending is ``SendFailed`` on its own. Returns one outcome per message:
        its receipt (all carry the one message's id), None, or ``SendFailed`` when the channel
        failed (every claim is then released, so a later attempt sends them).
        """
        if not messages:
            return []
        chat = messages[0].key.chat
        if any(message.key.chat != chat for message in messages):
            raise ValueError("messages sent together go to one chat")
        outcomes: list[Outcome] = [None] * len(messages)
        if await self._store.blocked.is_blocked(chat):
            return outcomes
        claimed: list[int] = []
        for index, message in enumerate(messages):
            key = message.key
            if await self._store.sent.claim(key):
                claimed.append(index)
            elif not await self._store.sent.was_sent(key):
                # Claimed and not marked: another send of it is in flight (here, or in a
                # process that may have died; its claim is taken over after one lease).
                logger.info("the %s message of event %s is being sent elsewhere; retried later",
                            key.kind, key.event_id)  # fmt: skip
                outcomes[index] = SendFailed(
                    f"{key.kind} message for event {key.event_id} is being sent"
                )
        if not claimed:
            return outcomes
        first = messages[claimed[0]].key
        text = _composed(
            self._texts.business_catalogue(),
            [(index, messages[index]) for index in claimed],
            in_full,
        )
        asking = next((messages[i].asking for i in reversed(claimed) if messages[i].asking), None)
        sent = False
        try:
            with log_context(**{**dict(messages[claimed[0]].context), "sending": first.kind}):
                message_id = await measured_send(self._metrics, self._sending(asking), chat, text)
            sent = True
        except ChatUnreachable:
            await self._store.blocked.mark(chat)
            logger.info("chat %s cannot be messaged; marked blocked", chat.for_log)
            return outcomes
        except SendFailed as failed:
            logger.warning(
                "sending the %s message of event %s failed (%s)", first.kind, first.event_id, failed
            )
            for index in claimed:
                outcomes[index] = failed
            await self._keep_failed(messages, claimed, str(failed))
            return outcomes
        except Exception as exc:
            # The exception's text may quote the message: only its type is logged.
            logger.warning(
                "sending the %s message of event %s failed (%s)",
                first.kind,
                first.event_id,
                type(exc).__name__,
            )
            failure = SendFailed(type(exc).__name__)
            failure.__cause__ = exc
            for index in claimed:
                outcomes[index] = failure
            await self._keep_failed(messages, claimed, type(exc).__name__)
            return outcomes
        finally:
            if not sent:
                # Also on cancellation, so a later attempt may claim the messages again. The
                # store may be closing underneath: the claims then die with this holder anyway.
                with contextlib.suppress(StoreError):
                    for index in claimed:
                        await self._store.sent.release(messages[index].key)
        for index in claimed:
            told = self._history(messages[index])
            outcomes[index] = SentReceipt(messages[index].key, message_id, told)
        return outcomes

    def _history(self, message: Outgoing, failure: str | None = None) -> HistoryMessage | None:
        """What ``store.history`` keeps of ``message`` (sent now, or failed for ``failure``)."""
        about = message.about
        if about is None:
            return None
        key = message.key
        return HistoryMessage(
            about.delivery_id,
            key.event_id,
            key.chat,
            about.kind,
            about.audience,
            about.text,
            self._store.clock(),
            failure,
        )

    async def _keep_failed(
        self, messages: Sequence[Outgoing], claimed: Sequence[int], failure: str
    ) -> None:
        """Keep the failed sends for the console; a failing store does not hide the send's
        own failure."""
        failed = [self._history(messages[index], failure) for index in claimed]
        with contextlib.suppress(StoreError):
            await self._store.history.record_failed([told for told in failed if told])

    def _sending(self, asking: Asking | None) -> Callable[[ChatRef, str], Awaitable[int | None]]:
        """The channel's send, or for a message that asks, its choices as buttons (a channel
        that draws them) or as the words to type after the text (any other)."""
        channel = self._channel
        if asking is None:
            return channel.send
        if isinstance(channel, AskingChannel):
            return functools.partial(_ask, channel, asking)
        return functools.partial(_send_typed, channel, asking)


async def _ask(channel: AskingChannel, asking: Asking, chat: ChatRef, text: str) -> int | None:
    return await channel.ask(chat, text, asking)


async def _send_typed(channel: Channel, asking: Asking, chat: ChatRef, text: str) -> int | None:
    return await channel.send(chat, typed_text(text, asking))


def _composed(
    catalogue: Catalogue, claimed: Sequence[tuple[int, Outgoing]], in_full: int | None
) -> str:
    """The one text of the ``claimed`` messages (each with its place in the batch): those
    placed before ``in_full`` in full, the later ones counted in a closing line."""
    said = [message.text for index, message in claimed if in_full is None or index < in_full]
    told = [message for index, message in claimed if in_full is not None and index >= in_full]
    if told:
        refs = [message.abridged_as or "" for message in told]
        said.append(wording.operator_digest_more(catalogue, len(told), refs))
    return COALESCED_SEPARATOR.join(said)
