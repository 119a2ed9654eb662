"""The ``quote`` action of the agent channels (JSON API route and MCP tool): the customer's
answer to a fee set after the order (``bot.relay.quote_question``), which reaches the agent
as a delivery event carrying ``question`` (``kind`` ``quote``).

The agent puts the question to its customer and sends their choice, ``keep`` or ``cancel``,
for the delivery's short reference: ``bot.ordering.quote_desk`` decides (once; a second
answer, or one after the delivery moved on, changes nothing) and words the reply.
"""

from __future__ import annotations

from bot.agents.door_words import DoorWords
from bot.agents.headless import is_short_ref
from bot.chat_ref import AGENTS, UserRef
from bot.ordering.quote_desk import QuoteDesk, QuoteReply
from bot.relay.quote_question import QuoteChoice
from bot.store import Store

_NOBODY = UserRef(AGENTS, 0)  # a customer the channel never ordered for: owns nothing


class AgentQuotes:
    """``quote`` for the agent channels' customers, over the shared ``QuoteDesk``."""

    def __init__(self, store: Store, quotes: QuoteDesk) -> None:
        self._store = store
        self._quotes = quotes

    async def answer(
        self, channel: str, customer: str, ref: str, choice: QuoteChoice, words: DoorWords
    ) -> QuoteReply:
        """``customer``'s ``choice`` for the delivery ``ref`` (the short reference the event
        named), its text in the door's ``words``."""
        if not is_short_ref(ref):
            reply = QuoteReply(outcome="unknown", text=self._quotes.desk_unknown(ref))
        else:
            user = await self._store.agents.user(channel, customer)
            reply = await self._quotes.answer(user or _NOBODY, ref, choice)
        return reply.model_copy(update={"text": words.draw(reply.text, customer)})
