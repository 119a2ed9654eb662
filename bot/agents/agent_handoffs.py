"""The ``handoff`` action of the agent channels (JSON API route and MCP tool): an agent that
cannot help hands its customer to the business's staff (``bot.handoff``).

``ask`` opens the conversation's hand-off (or finds the waiting one) and passes the agent's
``message`` to staff; its answer carries the hand-off's state, which ``state`` reads again for
an agent that polls. What staff write comes back as events of the conversation (``type``
``staff_message``; ``staff_answered`` when staff answered the order's open question for the
customer, whose view then shows the next question; ``handoff_closed`` once staff are done), on
the same stream, webhooks and MCP resource as delivery events.
"""

from __future__ import annotations

import json
import secrets
from typing import Any

from bot.agents.agent_channel import EventBell
from bot.agents.headless import HeadlessConversations
from bot.chat_ref import ChatRef
from bot.handoff.bodies import Body, kind_of, one_line, text_body
from bot.handoff.desk import HandoffDesk
from bot.store import Store
from bot.store.handoffs import Handoff
from conversations import Turn


def handoff_state(handoff: Handoff | None) -> dict[str, Any] | None:
    """The hand-off as an agent reads it (None: no hand-off waits)."""
    if handoff is None:
        return None
    return {
        "ref": handoff.ref,
        "state": handoff.state,
        "owner": handoff.owner_name,  # who on the staff took it (staff see the agent's side)
        "opened_at": handoff.opened_at,
        "taken_at": handoff.taken_at,
        "closed_at": handoff.closed_at,
    }


class AgentHandoffs:
    """``handoff`` for ``channel``'s conversations, over the shared desk."""

    def __init__(self, desk: HandoffDesk, conversations: HeadlessConversations) -> None:
        self._desk = desk
        self._conversations = conversations

    async def ask(
        self, channel: str, conversation_id: str, message: str = "", language: str | None = None
    ) -> dict[str, Any]:
        """Hand the conversation's customer to staff (``AgentNotFound`` for another channel's);
        ``message`` is passed on to them."""
        conversation = await self._conversations.conversation(channel, conversation_id)
        asked = await self._desk.ask(
            conversation.chat, conversation.user, name=conversation.customer, language=language
        )
        told = None
        if asked.handoff is not None and message.strip():
            told = await self._desk.from_customer(asked.handoff, text_body(message.strip()))
        handoff = await self._desk.waiting_for(conversation.chat)
        return {"reply": told or asked.reply, "handoff": handoff_state(handoff)}

    async def state(self, channel: str, conversation_id: str) -> dict[str, Any]:
        """The conversation's waiting hand-off, for an agent that polls."""
        conversation = await self._conversations.conversation(channel, conversation_id)
        return {"handoff": handoff_state(await self._desk.waiting_for(conversation.chat))}


class AgentCustomers:
    """The desk's ``CustomerSide`` for agent conversations: staff's words as events, and
    an answer staff filled in recorded in the conversation (``conversations``)."""

    def __init__(self, store: Store, bell: EventBell, conversations: HeadlessConversations) -> None:
        self._store = store
        self._bell = bell
        self._conversations = conversations

    async def send(self, chat: ChatRef, body: Body) -> bool:
        await self._keep(
            chat, {"type": "staff_message", "kind": kind_of(body), "text": one_line(body)}
        )
        return True

    async def show(self, chat: ChatRef, turn: Turn, *, language: str | None) -> None:
        """The hand-off is over: the conversation goes on at ``turn``'s question."""
        question = turn.prompt.text if turn.prompt is not None else None
        await self._keep(chat, {"type": "handoff_closed", "question": question})

    async def answered(self, chat: ChatRef, turn: Turn) -> None:
        """Staff answered the open question: the conversation's state (its view, read by
        ``GET`` and checked against by the next answer) moves to the next question, and an
        event (``staff_answered``) tells the agent which one."""
        await self._conversations.deliver_later(chat, turn)
        question = turn.prompt.text if turn.prompt is not None else None
        await self._keep(chat, {"type": "staff_answered", "question": question})

    async def _keep(self, chat: ChatRef, event: dict[str, Any]) -> None:
        key = "handoff:" + secrets.token_hex(8)
        body = json.dumps({"event_id": key, **event}, ensure_ascii=False)
        if await self._store.agent_events.add(chat, key, body):
            await self._bell.ring()
