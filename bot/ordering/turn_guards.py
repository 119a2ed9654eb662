"""``TurnGuards``: what may stop a customer's turn before the engine runs it.

* a customer an operator blocked (``bot.safety.customer_blocking``) gets one polite sentence
  instead of any turn: no flow runs and nothing is created. The turn-taker reads the block
  under the chat's lock, so a block made while a turn waits for its chat is seen by that turn;
* a customer over a ``[limits]`` limit (``bot.safety.customer_limits``) starts no new order
  (``drafts_per_hour``), and at the summary's Confirm gets the summary again after why:
  nothing is created, they confirm once the limit frees up;
* with ``[limits] verify_sender_phone``, the sender's phone of a customer whose channel can
  prove a number (its registration's ``ChannelCapabilities.proves_phone``) is the one they
  shared themselves (``phone_owner``).

Without ``[limits]`` no limit applies: a tool's own service takes all.
"""

from __future__ import annotations

from bot.channel_kind import CapabilitiesOf, no_capabilities
from bot.chat_ref import UserRef
from bot.config.limits_section import LimitsConfig
from bot.ordering.alerting import AlertOperators
from bot.safety.customer_blocking import CustomerBlocking
from bot.safety.customer_limits import CustomerLimits, LimitHit
from bot.store import Store
from conversations import CONFIRM, ChoiceAnswer, Engine, Session, Turn
from conversations.dialog import Answer
from conversations.texts.business_texts import BusinessTexts
from conversations.texts.catalogue import Catalogue

#: Where a caller that answers in its own terms (an agent channel's 429) collects the limits its
#: call hit: made by that caller, handed down through ``ChatService``'s ``limit_hits``, added to
#: by the guards; None: nobody reads them but the turn.
LimitHits = list[LimitHit] | None


class TurnGuards:
    """The block and the ``[limits]`` of one business's customers; ``tell_operators`` hears
    a limit's hits (already limited by their sender), in the business's language (``texts``:
    its ``BusinessTexts``); ``capabilities`` says what each customer's channel can do."""

    def __init__(
        self,
        store: Store,
        engine: Engine,
        limits: LimitsConfig | None,
        tell_operators: AlertOperators,
        capabilities: CapabilitiesOf = no_capabilities,
        *,
        texts: BusinessTexts,
    ) -> None:
        self.blocking = CustomerBlocking(store)
        self.limits = (
            None if limits is None else CustomerLimits(store, limits, tell_operators, texts=texts)
        )
        self._verify_phones = limits is not None and limits.verify_sender_phone
        self._engine = engine
        self._capabilities = capabilities

    async def refusal(self, user: UserRef, catalogue: Catalogue) -> Turn | None:
        """The one sentence a blocked ``user`` gets instead of any turn (said from the turn's
        ``catalogue``), or None."""
        return await self.blocking.refusal(user, catalogue)

    async def draft_limited(
        self, user: UserRef, catalogue: Catalogue, hits: LimitHits = None
    ) -> Turn | None:
        """Over ``[limits] drafts_per_hour``: why no order starts (said from ``catalogue``);
        else the start is counted. The hit is added to ``hits``, when given (its caller's own
        reading of it)."""
        if self.limits is None:
            return None
        hit = await self.limits.before_draft(user)
        if hit is None:
            return None
        _note(hits, hit)
        return Turn(messages=(hit.said(catalogue),), status="ended")

    async def over_limit(
        self,
        catalogue: Catalogue,
        user: UserRef,
        session: Session,
        answer: Answer,
        hits: LimitHits = None,
    ) -> Turn | None:
        """At the summary's Confirm of a customer over a ``[limits]`` limit: the summary again
        after why (nothing is created; they confirm once the limit frees up); the hit is
        added to ``hits``, when given."""
        confirms = isinstance(answer, ChoiceAnswer) and answer.option == CONFIRM
        if self.limits is None or not confirms or answer.step != session.step:
            return None
        hit = await self.limits.before_create(user)
        if hit is None:
            return None
        _note(hits, hit)
        again = await self._engine.resume(catalogue, session)
        return again.model_copy(update={"messages": (hit.said(catalogue), *again.messages)})

    def phone_owner(self, user: UserRef) -> int | None:
        """The account whose own shared contact alone gives ``user``'s phone: theirs, when
        ``[limits] verify_sender_phone`` asks it and their channel can prove a number."""
        if not self._verify_phones or not self._capabilities(user.channel).proves_phone:
            return None
        return user.id


def _note(hits: LimitHits, hit: LimitHit) -> None:
    if hits is not None:
        hits.append(hit)
