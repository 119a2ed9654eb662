"""The relay's bookkeeping after an event's messages went out, in one commit.

Relaying an event used to commit once per step: each message marked sent, the chat's view
moved, the tracking link noted, the event marked processed. With ``synchronous=FULL`` every
commit waits for the disk, and at a steady event rate those waits are what the next event queues
behind. ``finish_event`` applies all of it in one transaction, with the same statements as the
repositories' own methods (they run over the transaction's ``Statements``)::

    if await store.sent.claim(key):                         # its own commit, before the send
        message_id = await channel.send(chat_id, text)
        await store.relayed.finish_event(event_id, delivery_id,
                                         sent=[SentReceipt(key, message_id)], ...)

What happens on a crash is what happened before: a crash between a send and the commit that
marks it leaves the claim of a dead holder, so the message is sent again after the restart, at
most once; the event is still pending, so the rest of its bookkeeping is applied then. A
process that keeps running but cannot finish the event (another of its messages failed) calls
``record_sent`` for what did go out, so its retry sends only what is missing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.clocks import Clock
from bot.store.database import Executor
from bot.store.delivery_history import HistoryEvent, HistoryMessage, note_event, note_messages
from bot.store.delivery_links import Deliveries
from bot.store.inbox import mark_processed
from bot.store.listed_details import ListedDetails, note_news_failed
from bot.store.sent import SendKey, mark_sent
from bot.store.store_backend import Backend, StoreDatabase


@dataclass(frozen=True)
class SentReceipt:
    """A claimed message that Telegram took: ``message_id`` is its id there, when known;
    ``told`` what the console's delivery page keeps of it (``store.history``), if anything."""

    key: SendKey
    message_id: int | None
    told: HistoryMessage | None = field(default=None, repr=False, compare=False)


@dataclass(frozen=True)
class ViewChange:
    """The chat's new view of a delivery: ``store.deliveries.update_view``'s arguments."""

    status: str
    created: int
    tracking_url: str | None = None
    previous_status: str | None = None
    told: frozenset[str] = frozenset()  # facts the event's messages told (``note_told``)
    details: ListedDetails | None = None  # what the console lists, as the event shows it


class RelayedEvents:
    """``store.relayed``: the relay's per-event writes, committed together."""

    def __init__(self, db: StoreDatabase, clock: Clock, holder: str, backend: Backend) -> None:
        self._db = db
        self._backend = backend
        self._clock = clock
        self._holder = holder  # the same holder as ``store.sent``: its claims are these

    async def finish_event(
        self,
        event_id: str,
        delivery_id: str,
        *,
        sent: Sequence[SentReceipt] = (),
        view: ViewChange | None = None,
        tracking_sent: bool = False,
        paid: bool = False,
        gave_up: bool = False,
        history: HistoryEvent | None = None,
    ) -> bool:
        """In one transaction: mark ``sent`` (``store.sent.mark_sent``), apply ``view``
        (``deliveries.update_view``, never backwards) with the facts it told, note the tracking link
        (``deliveries.mark_tracking_sent``), note the fee paid when the event shows it
        (``deliveries.note_paid``), note that news about the delivery failed for good when the
        relay ``gave_up`` on some of the event's messages (``listed_details.note_news_failed``,
        for the console's "needs attention"), keep ``history``, what the console's delivery
        page shows of the event (``delivery_history.note_event``), and take the event out of
        the inbox's pending set (``inbox.mark_processed``).

        Returns what ``mark_processed`` returns: False when the event was not pending. Nothing
        is applied when any statement fails.
        """
        async with self._db.transaction() as tx:
            await self._mark_sent(tx, sent)
            deliveries = Deliveries(tx, self._clock, self._backend)
            if view is not None:
                await deliveries.update_view(
                    delivery_id,
                    view.status,
                    view.created,
                    previous_status=view.previous_status,
                    tracking_url=view.tracking_url,
                    details=view.details,
                )
                await deliveries.note_told(delivery_id, view.told)
            if tracking_sent:
                await deliveries.mark_tracking_sent(delivery_id)
            if paid:
                await deliveries.note_paid(delivery_id)
            if gave_up:
                await note_news_failed(tx, delivery_id, self._clock())
            if history is not None:
                await note_event(tx, history)
            return await mark_processed(tx, event_id, self._clock())

    async def record_sent(self, sent: Sequence[SentReceipt]) -> None:
        """Mark several messages sent in one transaction (``store.sent.mark_sent`` each), and
        keep what the console shows of each (``SentReceipt.told``)."""
        if not sent:
            return
        async with self._db.transaction() as tx:
            await self._mark_sent(tx, sent)

    async def _mark_sent(self, tx: Executor, sent: Sequence[SentReceipt]) -> None:
        for receipt in sent:
            # Marked once: a receipt marked before (a retried event) is not kept twice.
            marked = await mark_sent(
                tx, self._holder, self._clock(), receipt.key, receipt.message_id
            )
            if marked and receipt.told is not None:
                await note_messages(tx, [receipt.told])
