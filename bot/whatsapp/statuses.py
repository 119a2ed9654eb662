"""``StatusFollowUp``: what becomes of a message the bot sent, and what the bot does about it.

WhatsApp reports each message's ``sent``, ``delivered``, ``read``, or ``failed`` in a status
webhook, possibly long after it accepted the send, possibly twice. Every status is counted
(``Metrics.count_whatsapp_status``); ``delivered`` and ``read`` let the stored text of the
message go (``store.whatsapp_sent.mark``). A ``failed`` one is taken once, by one instance
(``take_failed``), and followed up by its errors:

* 131047, the customer-service window closed before the message went: news and a person's
  answer go again as their template (``WhatsAppNews.resend``), never silence;
* a failure Meta counts as passing (131000, 131016, 131056, 130429) goes again as it was, up to
  ``max_attempts`` sends in all;
* anything else, or a message past its attempts: the operators are told (the customer was
  not), in the business's language, with Meta's code, never the message's words.

A status of a message the bot did not record (a conversation's reply, one forgotten) is only
counted and logged.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Final

from bot.metrics.business_metrics import NO_METRICS, Metrics
from bot.relay.channel_protocol import ChatUnreachable, SendFailed
from bot.store import Store
from bot.store.whatsapp_sent import SentRecord
from bot.whatsapp.inbound import StatusUpdate
from bot.whatsapp.news import NEWS, REPLY, WhatsAppNews
from bot.whatsapp.sender import OUTSIDE_WINDOW
from conversations.texts.catalogue import Catalogue
from conversations.texts.deliveries_texts import short_ref

log = logging.getLogger(__name__)

PASSING: Final = frozenset({131000, 131016, 131056, 130429})
"""Failures worth the same message again: Meta's unknown and unavailable errors, its limits."""
DEFAULT_ATTEMPTS: Final = 3

Alert = Callable[[str], Awaitable[None]]


class StatusFollowUp:
    """``contracts.StatusHandler``: ``StatusFollowUp(store, news, alert=..., catalogue=...,
    metrics=...)``; ``alert`` reaches the operators (the core's ``OperatorAlerts.alert``),
    ``catalogue`` gives the business's words."""

    def __init__(
        self,
        store: Store,
        news: WhatsAppNews,
        *,
        alert: Alert,
        catalogue: Callable[[], Catalogue],
        metrics: Metrics = NO_METRICS,
        max_attempts: int = DEFAULT_ATTEMPTS,
    ) -> None:
        self._store = store
        self._news = news
        self._alert = alert
        self._catalogue = catalogue
        self._metrics = metrics
        self._max_attempts = max_attempts

    async def status(self, update: StatusUpdate) -> None:
        """Count ``update``; for a failed message, the follow-up the module docstring says."""
        self._metrics.count_whatsapp_status(update.status)
        if update.status in ("delivered", "read"):
            await self._store.whatsapp_sent.mark(update.message_id, update.status)
            return
        if update.status != "failed":
            return
        record = await self._store.whatsapp_sent.take_failed(update.message_id)
        codes = [error.code for error in update.errors]
        if record is None:
            log.info("WhatsApp message failed (codes %s): not one to follow up", codes)
            return
        await self._follow_up(record, codes)

    async def _follow_up(self, record: SentRecord, codes: list[int]) -> None:
        followed = record.kind in (NEWS, REPLY)
        if followed and record.body is None:
            return  # one part of a long message: its last part carries the text
        closed = OUTSIDE_WINDOW in codes
        passing = bool(codes) and all(code in PASSING for code in codes)
        again = closed or (passing and record.attempts < self._max_attempts)
        if followed and again and await self._resend(record, as_template=closed):
            return
        await self._tell_operators(record, codes)

    async def _resend(self, record: SentRecord, *, as_template: bool) -> bool:
        try:
            sent = await self._news.resend(record, as_template=as_template)
        except (SendFailed, ChatUnreachable) as error:
            log.warning("failed WhatsApp message not sent again (%s)", error)
            return False
        return sent is not None

    async def _tell_operators(self, record: SentRecord, codes: list[int]) -> None:
        catalogue = self._catalogue()
        reason = "Cloud API error " + (", ".join(str(code) for code in codes) or "unknown")
        if record.reference:
            text = catalogue.say(
                "whatsapp.sending.alert_news_failed",
                ref=short_ref(record.reference),
                number=record.wa_id,
                reason=reason,
            )
        else:
            text = catalogue.say(
                "whatsapp.sending.alert_failed", number=record.wa_id, reason=reason
            )
        log.warning("WhatsApp message %s failed (%s): operators told", record.message_id, reason)
        await self._alert(text)
