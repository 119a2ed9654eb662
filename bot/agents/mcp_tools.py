"""The MCP server: the bot's ordering flows as tools for an LLM agent (the official ``mcp`` SDK).

One server speaks for one channel (``[[agents.channels]]``): every tool goes through
``HeadlessConversations`` with that channel's name, so the agent sees only that channel's
customers, conversations and deliveries. The open question comes back as structured content
(``prompt_data``: options with ids, the default, hints and ``answer_schema``, a JSON Schema of
the allowed answer with an enum of the option ids); an answer outside it is refused (an error
result) with the same question, and never reaches the flow. Delivery events are a resource the
agent reads (``deliverybot://conversations/{id}/events``) and the ``delivery_events`` tool; with
an ``EventPush`` (``mcp_push``) the client may subscribe to the resource and is notified when a
new event is kept. The drop-off code is never among them. The descriptions tell the model the
rules it must follow.

Hostile input gets an answer, never a traceback: every argument is typed and bounded (texts
valid Unicode and of a bounded length, numbers within range), a call whose arguments are over
``MAX_ARGUMENTS_BYTES`` is refused before any tool sees it (``ArgumentsCap``; over HTTP the
transport refuses such a body itself), an answer outside its ``answer_schema`` is an error
result carrying the open question, and an unknown (or another channel's) conversation's
resource is "not found".

``deliverybot mcp`` runs it over stdio or streamable HTTP (``mcp_command``).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceNotFoundError
from mcp.types import CallToolResult, TextContent
from pydantic import BaseModel, Field

from bot.agents.agent_handoffs import AgentHandoffs
from bot.agents.agent_privacy import CustomerData, ForgetAnswer
from bot.agents.agent_quotes import AgentQuotes
from bot.agents.agent_routes import MAX_BODY_BYTES, MAX_CUSTOMER_LENGTH
from bot.agents.customer_refusals import CustomerBlocked, CustomerOverLimit
from bot.agents.door_words import MCP_WORDS
from bot.agents.headless import AgentNotFound, ConversationView, HeadlessConversations, UnknownFlow
from bot.agents.mcp_push import EVENTS_URI, EventPush
from bot.agents.mcp_tool_hints import TOOL_HINTS
from bot.ordering import CancelReply, DeliveryPage, StatusReply
from bot.ordering.quote_desk import QuoteReply
from bot.relay.quote_question import QuoteChoice
from conversations.texts.agent_texts import MCP_TAPS

MAX_ARGUMENTS_BYTES = MAX_BODY_BYTES  # a tool call's arguments, as the JSON API's bodies
MAX_POSITION = 999_999_999  # a page or an event position, as the JSON API's query parameters


# Strings: pydantic refuses a lone surrogate in a str argument itself (``string_unicode``).
Customer = Annotated[str, Field(max_length=MAX_CUSTOMER_LENGTH)]
# A conversation id, a flow, a step, a delivery reference.
Name = Annotated[str, Field(max_length=200)]
# The desk says why past 500 characters, in the customer's words.
Reason = Annotated[str, Field(max_length=2000)]
Position = Annotated[int, Field(le=MAX_POSITION)]


class EventsPage(BaseModel):
    """``delivery_events``' structured content: the events after the position asked."""

    events: list[dict[str, Any]]


class HandoffAnswer(BaseModel):
    """``handoff``'s structured content: what to tell the customer, and the hand-off (None:
    nobody from the business can be reached)."""

    reply: str
    handoff: dict[str, Any] | None


# Each tool's result: its structured content is the model's JSON (the tool's output schema).
Turn = Annotated[CallToolResult, ConversationView]
Deliveries = Annotated[CallToolResult, DeliveryPage]
Status = Annotated[CallToolResult, StatusReply]
Cancelled = Annotated[CallToolResult, CancelReply]
Events = Annotated[CallToolResult, EventsPage]
Handed = Annotated[CallToolResult, HandoffAnswer]
Quoted = Annotated[CallToolResult, QuoteReply]
Kept = Annotated[CallToolResult, CustomerData]
Forgotten = Annotated[CallToolResult, ForgetAnswer]

INSTRUCTIONS = """\
You order deliveries for a customer through a business's delivery bot, one question at a time.
Rules:
- Start with start_order, then answer only the open question (answer), with one of its accepted
  kinds; for options use an option id exactly as given. Never invent ids, addresses, phone
  numbers, units, prices, payment methods or coordinates: ask the customer.
- Say each question and its options to the customer in your own words and wait for their reply.
- At the summary, read the summary and its total back to the customer and confirm only once
  they agreed, with that total (prompt.total).
- Never make up or repeat a drop-off code (OTP). It goes only to the verified receiver; you are
  told when it was sent.
- Deliveries, their status and cancelling one are by the customer's reference you chose.
- my_data and forget_me only when the customer asks for their data or to be forgotten; before
  forget_me, tell them what it erases and call it with confirm true only once they said yes.
- An error with error "customer_limit" (the customer is over one of the business's limits) or
  "customer_blocked": tell the customer its message; retry no sooner than its retry_at
  (null: not until one of their deliveries ends)."""

_CONVERSATION = "The conversation id start_order returned."
_CUSTOMER = "Your own stable reference for the customer (the same one start_order used)."

START = """Start a new delivery order for a customer. Returns the first question as structured
content: `prompt.question`, `prompt.options` (id and label), `prompt.default` (pre-selected),
`prompt.hints`, and `prompt.answer_schema`, the JSON Schema every answer must match.
`language` (e.g. "fr") is the customer's: questions, messages and delivery events are said in it."""
ANSWER = """Answer the open question of a conversation. `answer` must match the open prompt's
answer_schema, e.g. {"kind": "choice", "option": "<an option id as given>"},
{"kind": "text", "text": "..."}, {"kind": "location", "lat": 6.5, "lng": 3.37},
{"kind": "contact", "phone": "...", "first_name": "..."}, {"kind": "photos", "urls": ["https://..."]}
or {"kind": "command", "name": "skip"}. An answer outside the schema is refused with the same
question (isError); an answer the business cannot take is asked again with the reason in
`messages`: tell the customer. At the summary (input "confirm"), read the summary back to the
customer and send the confirm option only once they agreed, with the total the summary shows:
{"kind": "choice", "option": "confirm", "total": {"amount": 1500, "currency": "NGN"}}, or
{"kind": "choice", "option": "confirm", "total": {"quote_token": "<prompt.total.quote_token>"}}
when the fee is set later. A confirm without that total (or after the fee changed) is refused
with the summary as it is now: read it again. Never invent an option id."""
BACK = "Go back to the question before the open one (the customer wants to change it)."
EDIT = """From the summary, change one answer: `step` is one of the "edit:" ids the summary's
answer_schema lists (the summary shows a few "change:" groups; each opens a menu of those ids).
The flow asks that question again, then returns to the summary."""
CANCEL = """Cancel the order being made, when the customer asks to. If answers would be lost the
flow asks to confirm first: answer that question."""
DELIVERIES = "The customer's deliveries, newest first (page from 0)."
STATUS = """One of the customer's deliveries as it is now: `delivery` is its id or the short
reference (e.g. 3F2A9C1E). Without `delivery`, the latest."""
CANCEL_DELIVERY = """Cancel one of the customer's deliveries, only when the customer asked to and
gave a reason (3 to 500 characters, their words). `delivery` is the short reference the customer
was shown and agreed to cancel (e.g. 3F2A9C1E, from my_deliveries or delivery_status), never a
longer id. The business may refuse once a rider has the package: then tell the customer what
`text` says."""
HANDOFF = (
    "Hand the customer to a person from the business when you cannot help (they are stuck, "
    "or ask for a person): the order waits at its question meanwhile. message: what to tell "
    "the staff. Returns the hand-off's state (ref, state open/taken/closed, owner); the "
    "staff's replies arrive as delivery_events of type staff_message, staff_answered when "
    "they answered the open question for the customer (the next question is then open), and "
    "handoff_closed once they are done (then carry on with the open question)."
)
ANSWER_QUOTE = """Answer the fee question of a delivery ordered without a fee: a delivery
event with `question.kind` "quote" gives the fee and the question. Put it to the customer and
send their choice: "keep" (the order goes ahead at that fee) or "cancel" (it is cancelled).
`delivery` is the short reference of the event (e.g. 3F2A9C1E). Answered once: a second answer,
or one after the delivery was picked up or cancelled, changes nothing. Tell the customer what
`text` says. The choice taken also appears once among the conversation's events (type
quote_answered)."""
MY_DATA = """Everything the bot keeps about the customer, when they ask for their data: `data`
is one JSON document (details, phones, orders, deliveries, conversations, photos' names, the
records about them), null when nothing is kept; `message` is what to tell them. Hand them the
document as it is; do not summarise away parts of it."""
FORGET_ME = """Erase what the bot keeps about the customer, only when they asked to be forgotten
AND confirmed it after you told them: their remembered details, places, phones, unfinished
orders, conversations (this one too) and photos are erased; past deliveries stay in the
business's books without their name, phones or addresses; a delivery still on its way is
finished first and erased when it ends (`open_deliveries`, `pending`). `confirm` must be true:
never call it on a vague request. Tell the customer what `message` says. Cannot be undone."""
EVENTS = """News about the deliveries ordered in a conversation, oldest first, after stream
position `after` (each event's `seq`): status in words, the service's customer_message_hint,
summary and agent_notes (for you, not to read out verbatim). A drop-off code is never included:
`drop_off_code` says where it went. While the business shows riders on the map, events of
type rider_position give the rider's last position (null: not available right now), an
estimate of arrival in minutes and `message`, the sentence the customer may be told. Subscribe
to the resource deliverybot://conversations/{id}/events to be notified when one arrives, then
read it."""


def build_mcp_server(
    conversations: HeadlessConversations,
    channel: str,
    push: EventPush | None = None,
    handoffs: AgentHandoffs | None = None,
    quotes: AgentQuotes | None = None,
) -> MCPServer[Any]:
    """The MCP server for ``channel``'s agent, over ``conversations``; with ``push`` (whose
    ``run`` the caller runs), subscriptions to the events resource are served; with
    ``handoffs``, the ``handoff`` tool hands a customer to the business's staff; with
    ``quotes``, ``answer_quote`` answers a fee set after the order."""
    server: MCPServer[Any] = MCPServer(
        name="deliverybot",
        instructions=INSTRUCTIONS,
        version="1",
        subscriptions=None if push is None else push.bus,
        middleware=[ArgumentsCap()],
    )

    async def start_order(
        customer: Customer, flow: Name | None = None, language: Name | None = None
    ) -> Turn:
        try:
            view = await conversations.start(
                channel, customer.strip() or "customer", flow, language
            )
        except UnknownFlow:
            return _error(f"flow must be one of {conversations.flows}")
        except (CustomerOverLimit, CustomerBlocked) as refused:
            return _data(refused.message, refused.body(), error=True)
        return _turn(conversations, view)

    async def answer(conversation_id: Name, answer: dict[str, Any]) -> Turn:
        return await _guarded(conversations, conversations.answer(channel, conversation_id, answer))

    async def go_back(conversation_id: Name) -> Turn:
        return await _guarded(conversations, conversations.back(channel, conversation_id))

    async def edit_answer(conversation_id: Name, step: Name) -> Turn:
        return await _guarded(conversations, conversations.edit(channel, conversation_id, step))

    async def cancel_order(conversation_id: Name) -> Turn:
        return await _guarded(conversations, conversations.cancel(channel, conversation_id))

    async def my_deliveries(customer: Customer, page: Position = 0) -> Deliveries:
        reply = MCP_WORDS.drawn(await conversations.deliveries(channel, customer, max(page, 0)), "")
        return _data(reply.text, reply.model_dump(mode="json"))

    async def delivery_status(customer: Customer, delivery: Name = "") -> Status:
        reply = MCP_WORDS.drawn(await conversations.status(channel, customer, delivery), "")
        return _data(reply.text, reply.model_dump(mode="json"))

    async def cancel_delivery(customer: Customer, delivery: Name, reason: Reason) -> Cancelled:
        cancelled = await conversations.cancel_delivery(channel, customer, delivery, reason)
        reply = MCP_WORDS.drawn(cancelled, "")
        failed = reply.outcome not in ("cancelled",)
        return _data(reply.text, reply.model_dump(mode="json"), error=failed)

    async def handoff(conversation_id: Name, message: Reason = "") -> Handed:
        if handoffs is None:
            return _error("nobody from the business can be reached here")
        try:
            asked = await handoffs.ask(channel, conversation_id, message)
        except AgentNotFound:
            return _error("no such conversation")
        return _data(str(asked["reply"]), asked, error=asked["handoff"] is None)

    async def answer_quote(customer: Customer, delivery: Name, choice: QuoteChoice) -> Quoted:
        if quotes is None:
            return _error("fee questions are not answered here")
        reply = await quotes.answer(channel, customer, delivery, choice, MCP_WORDS)
        failed = reply.outcome not in ("kept", "cancelled")
        return _data(reply.text, reply.model_dump(mode="json"), error=failed)

    async def my_data(customer: Customer, language: Name | None = None) -> Kept:
        found = await conversations.privacy.data(channel, customer, language)
        return _data(found.message, found.model_dump(mode="json"))

    async def forget_me(
        customer: Customer, confirm: bool = False, language: Name | None = None
    ) -> Forgotten:
        if confirm is not True:
            return _error(
                "not erased: tell the customer what forget_me erases, and call it with "
                "confirm true only once they said yes"
            )
        answer = await conversations.privacy.forget(channel, customer, language)
        return _data(answer.message, answer.model_dump(mode="json"))

    async def delivery_events(conversation_id: Name, after: Position = 0) -> Events:
        try:
            found = await conversations.events(channel, conversation_id, max(after, 0), 200)
        except AgentNotFound:
            return _error("no such conversation")
        return _data(json.dumps(found, ensure_ascii=False), {"events": found})

    async def events_resource(conversation_id: str) -> str:
        try:
            found = await conversations.events(channel, conversation_id, 0, 1000)
        except AgentNotFound as missing:
            raise ResourceNotFoundError("no such conversation") from missing
        return json.dumps({"events": found}, ensure_ascii=False)

    tools: list[tuple[Callable[..., Awaitable[CallToolResult]], str]] = [
        (start_order, START),
        (answer, ANSWER),
        (go_back, BACK),
        (edit_answer, EDIT),
        (cancel_order, CANCEL),
        (my_deliveries, DELIVERIES),
        (delivery_status, STATUS),
        (cancel_delivery, CANCEL_DELIVERY),
        (delivery_events, EVENTS),
        (handoff, HANDOFF),
        (answer_quote, ANSWER_QUOTE),
        (my_data, MY_DATA),
        (forget_me, FORGET_ME),
    ]
    for tool, description in tools:
        hints = TOOL_HINTS[tool.__name__]
        server.add_tool(
            tool,
            title=hints.title,
            description=description,
            annotations=hints.annotations,
            structured_output=True,
        )
    server.resource(
        EVENTS_URI,
        name="delivery_events",
        description=EVENTS,
        mime_type="application/json",
    )(events_resource)
    if push is not None:
        push.install(server)
    return server


class ArgumentsCap:
    """Server middleware: a tool call whose arguments are over ``MAX_ARGUMENTS_BYTES`` (as
    UTF-8 JSON) is an error result, and no tool sees it (stdio has no body limit of its own)."""

    async def __call__(
        self, ctx: ServerRequestContext[Any, Any], call_next: CallNext
    ) -> HandlerResult:
        if ctx.method == "tools/call" and isinstance(ctx.params, dict):
            arguments = ctx.params.get("arguments") or {}
            size = len(json.dumps(arguments, ensure_ascii=False).encode("utf-8", "replace"))
            if size > MAX_ARGUMENTS_BYTES:
                return _error(f"the arguments are over {MAX_ARGUMENTS_BYTES} bytes")
        return await call_next(ctx)


async def _guarded(conversations: HeadlessConversations, call: Any) -> CallToolResult:
    try:
        view: ConversationView = await call
    except AgentNotFound:
        return _error("no such conversation")
    except CustomerOverLimit as over:  # the summary stays open: confirm again after retry_at
        return _data(over.message, over.body(), error=True)
    return _turn(conversations, view)


def _turn(conversations: HeadlessConversations, view: ConversationView) -> CallToolResult:
    view = conversations.drawn(
        view, MCP_TAPS
    )  # MCP takes photos as links only: no upload call to name
    said = list(view.messages)
    if view.prompt is not None:
        said.append(view.prompt["question"])
    return _data("\n".join(said), view.model_dump(mode="json"), error=view.refused is not None)


def _data(text: str, data: dict[str, Any], *, error: bool = False) -> CallToolResult:
    return CallToolResult(
        content=[TextContent(type="text", text=text)], structured_content=data, is_error=error
    )


def _error(text: str) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=text)], is_error=True)
