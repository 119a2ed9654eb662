"""``QuoteDesk``: the customer's answer to the quote question (``bot.relay.quote_question``),
for every channel: keep the order at the fee the business set, or cancel it.

The answer is recorded once, in the store, with what the chat was told of the delivery
(``quote_answer:keep`` / ``quote_answer:cancel`` in ``DeliveryLink.told``, claimed by
compare-and-set): a second answer, from the same chat or through another instance, is told it
was answered, and nothing is sent. So is an answer after the delivery moved on (picked up,
cancelled), or to a question never asked. Keep changes nothing at the service; Cancel cancels
through the Partner API with a reason (``CustomerDesk.cancel``, whose refusals are plain
words: "the rider already has the package"); a cancel the service could not be asked (busy,
unreachable) gives the answer back, to be tried again. Operators are told the choice, and the
audit trail keeps it (by reference, as ``quote_keep`` / ``quote_cancel``).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Literal

from pydantic import BaseModel, ConfigDict

from bot.chat_ref import UserRef
from bot.ordering.customer_desk import CustomerDesk
from bot.relay import quote_question
from bot.relay.quote_question import QuoteChoice
from bot.store import DeliveryLink
from conversations.texts import desk_texts, quote_texts
from conversations.texts.catalogue import Catalogue
from conversations.texts.deliveries_texts import short_ref

log = logging.getLogger(__name__)

QuoteOutcome = Literal[
    "kept",
    "cancelled",
    "not_allowed",
    "already_answered",
    "moved_on",
    "not_asked",
    "unknown",
    "busy",
    "unreachable",
    "refused",
]
"""``kept`` / ``cancelled``: the answer was taken; ``not_allowed``: the service refused the
cancel (the rider has the package); ``already_answered``, ``moved_on`` (the delivery is past
pickup or finished), ``not_asked``, ``unknown`` (no delivery of the customer's by that
reference): nothing was done; ``busy`` / ``unreachable`` / ``refused``: the service could not
take the cancel now, and the question is still open."""

TellOperators = Callable[[str], Awaitable[None]]


class QuoteReply(BaseModel):
    """What answering the quote did, in plain words (``text``) and as an ``outcome``."""

    model_config = ConfigDict(frozen=True)

    outcome: QuoteOutcome
    text: str
    delivery_id: str | None = None


class QuoteDesk:
    """Answers to the quote question over ``desk`` (its store, client and channel words);
    ``tell_operators`` reaches the operators' chats (None: none configured)."""

    def __init__(self, desk: CustomerDesk, tell_operators: TellOperators | None = None) -> None:
        self.desk = desk
        self._tell_operators = tell_operators

    def desk_unknown(self, catalogue: Catalogue, ref: str) -> str:
        """The answer for a reference that names none of the customer's deliveries."""
        return desk_texts.unknown_delivery(catalogue, ref, self.desk.words)

    async def answer(
        self, catalogue: Catalogue, user: UserRef, ref: str, choice: QuoteChoice
    ) -> QuoteReply:
        """``user``'s ``choice`` for their delivery ``ref`` (full id or short reference); a
        reference that names none of theirs is answered from ``catalogue`` (the turn's)."""
        link = await self.desk.find(user, ref.strip()) if ref.strip() else None
        if link is None:
            return QuoteReply(outcome="unknown", text=self.desk_unknown(catalogue, ref))
        # In the language the question was asked in (the one the customer ordered in).
        return await self._answer(self.desk.texts.catalogue_for(link.language), user, link, choice)

    async def _answer(
        self, catalogue: Catalogue, user: UserRef, link: DeliveryLink, choice: QuoteChoice
    ) -> QuoteReply:
        delivery_id = link.delivery_id
        if quote_question.answer_of(link.told) is not None:
            return _told(catalogue, "already_answered", link)
        if not quote_question.was_asked(link.told):
            return _told(catalogue, "not_asked", link)
        if link.status not in quote_question.ASKABLE:
            return _reply(
                "moved_on", quote_texts.moved_on(catalogue, delivery_id, link.status), link
            )
        answered = quote_question.answered_fact(choice)
        if not await self.desk.store.deliveries.note_first(
            delivery_id, answered, unless=quote_question.ANSWERED_PREFIX
        ):
            return _told(catalogue, "already_answered", link)
        if choice == "keep":
            await self._record(user, link, "quote_keep", "done", "kept")
            return _told(catalogue, "kept", link)
        return await self._cancel(catalogue, user, link, answered)

    async def _cancel(
        self, catalogue: Catalogue, user: UserRef, link: DeliveryLink, answered: str
    ) -> QuoteReply:
        delivery_id = link.delivery_id
        # Staff read the reason in the business's language.
        reason = quote_texts.cancel_reason(self.desk.texts.business_catalogue())
        cancelled = await self.desk.cancel(catalogue, user, delivery_id, reason)
        if cancelled.outcome == "cancelled":
            await self._record(user, link, "quote_cancel", "done", "cancelled")
            return _told(catalogue, "cancelled", link)
        if cancelled.outcome == "not_allowed":
            status = await self.desk.status_now(link)
            await self._record(
                user, link, "quote_cancel", f"refused: {cancelled.outcome}", "", status
            )
            return _reply("not_allowed", cancelled.text, link)
        # Not taken now: the answer is given back, so the customer may answer again.
        await self.desk.store.deliveries.forget_told(delivery_id, answered)
        outcome = cancelled.outcome if cancelled.outcome in ("busy", "refused") else "unreachable"
        log.info("quote cancel of %s not taken (%s)", delivery_id, cancelled.outcome)
        text = quote_texts.try_again(catalogue, delivery_id, cancelled.text)
        return QuoteReply(outcome=outcome, text=text, delivery_id=delivery_id)

    async def _record(
        self,
        user: UserRef,
        link: DeliveryLink,
        action: str,
        outcome: str,
        told: Literal["kept", "cancelled", ""],
        status: str = "",
    ) -> None:
        """The choice in the audit trail, and told to operators (in the business's words)."""
        subject = f"delivery {short_ref(link.delivery_id)}"
        await self.desk.store.audit.record(str(user), action, subject, outcome)
        if self._tell_operators is None:
            return
        text = quote_texts.for_operators(
            self.desk.texts.business_catalogue(), link.delivery_id, told or "not_cancelled", status
        )
        try:
            await self._tell_operators(text)
        except Exception:
            # The answer is taken already; a failed notice must not undo it.
            log.exception("operators not told the quote answer of %s", link.delivery_id)


def _reply(outcome: QuoteOutcome, text: str, link: DeliveryLink) -> QuoteReply:
    return QuoteReply(outcome=outcome, text=text, delivery_id=link.delivery_id)


def _told(catalogue: Catalogue, what: quote_texts.Told, link: DeliveryLink) -> QuoteReply:
    """The reply whose outcome and sentence are the same word (``quote_texts.Told``)."""
    return _reply(what, quote_texts.told(catalogue, link.delivery_id, what), link)
