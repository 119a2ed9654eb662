"""The ``quote`` action of the agent channels (JSON API route and MCP tool): the customer's
answer to a fee set after the order (``bot.relay.quote_question``), which reaches the agent
as a delivery event carrying ``question`` (``kind`` ``quote``).

The agent puts the question to its customer and sends their choice, ``keep`` or ``cancel``,
for the delivery's short reference: ``bot.ordering.quote_desk`` decides (once; a second
answer, or one after the delivery moved on, changes nothing) and words the reply. A choice
taken is also kept in the conversation the delivery was ordered in, as a ``quote_answered``
event (its transcript: whichever door or process answered, the agent reading the events later
sees what was decided).
"""

from __future__ import annotations

import json

from bot.agents.agent_channel import EventBell
from bot.agents.door_words import DoorWords
from bot.agents.headless import is_short_ref
from bot.chat_ref import AGENTS, UserRef
from bot.ordering.quote_desk import QuoteDesk, QuoteReply
from bot.relay.quote_question import QuoteChoice
from bot.store import Store

_NOBODY = UserRef(AGENTS, 0)  # a customer the channel never ordered for: owns nothing
# The outcomes where the customer's choice was taken (kept, cancelled, or a cancel the service
# refused because the rider has the package: the choice stands, the delivery goes on).
_TAKEN = frozenset({"kept", "cancelled", "not_allowed"})


class AgentQuotes:
    """``quote`` for the agent channels' customers, over the shared ``QuoteDesk``."""

    def __init__(self, store: Store, quotes: QuoteDesk, bell: EventBell | None = None) -> None:
        self._store = store
        self._quotes = quotes
        self._bell = bell

    async def answer(
        self, channel: str, customer: str, ref: str, choice: QuoteChoice, words: DoorWords
    ) -> QuoteReply:
        """``customer``'s ``choice`` for the delivery ``ref`` (the short reference the event
        named), its text in the door's ``words``."""
        business = self._quotes.desk.texts.business_catalogue()  # an agent's customer's default
        if not is_short_ref(ref):
            reply = QuoteReply(outcome="unknown", text=self._quotes.desk_unknown(business, ref))
        else:
            user = await self._store.agents.user(channel, customer)
            reply = await self._quotes.answer(business, user or _NOBODY, ref, choice)
            if reply.outcome in _TAKEN and reply.delivery_id is not None:
                await self._keep(reply.delivery_id, choice, reply)
        return reply.model_copy(update={"text": words.draw(reply.text, customer)})

    async def _keep(self, delivery_id: str, choice: QuoteChoice, reply: QuoteReply) -> None:
        """The choice taken, as an event of the conversation the delivery was ordered in."""
        link = await self._store.deliveries.get(delivery_id)
        if link is None or link.chat.channel != AGENTS:
            return
        key = f"quote_answered:{delivery_id}"  # one per delivery: a choice is taken once
        body = {
            "event_id": key,
            "type": "quote_answered",
            "delivery_id": delivery_id,
            "choice": choice,
            "outcome": reply.outcome,
            "text": reply.text,
        }
        added = await self._store.agent_events.add(
            link.chat, key, json.dumps(body, ensure_ascii=False)
        )
        if added and self._bell is not None:
            await self._bell.ring()
