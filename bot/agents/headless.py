"""``HeadlessConversations``: the bot's ordering flows for agent channels, as data.

Every channel (the JSON API, the MCP server) calls this, never the engine: a conversation is
``ChatService``'s chat under an agent id (``store.agents``), its customer a user id of the
channel's own, and each turn comes back as a ``ConversationView`` (the messages, the open
question as data, the delivery once created). An answer is checked against the open question
first (``prompt_data.check_answer``): an invented option id or a kind the question does not
take is refused with the question again, and never reaches the flow. Each turn is kept in the
conversation's transcript, whose last entry is also the open question. An answer holds the
conversation's chat (``store.chat_locks``, in every process on the store) from that check to
the transcript, so two answers at once are taken one after the other.

A customer the business does not take an order from now is refused in the doors' own terms
(``customer_refusals``): a blocked one's start raises ``CustomerBlocked`` before their
conversation is written; a start or a confirm over a ``[limits]`` limit raises
``CustomerOverLimit`` with the limit and when they may go on (the summary stays open).

Ownership: a conversation, a delivery or an event is found only by the channel that made it;
another channel's id is answered exactly like an unknown one (``AgentNotFound``).
"""

from __future__ import annotations

import json
from typing import Any, TypeGuard

from pydantic import BaseModel, ConfigDict

from bot.agents.agent_privacy import AgentPrivacy
from bot.agents.agents_errors import AgentsError
from bot.agents.customer_refusals import CustomerBlocked, CustomerOverLimit
from bot.agents.order_total import confirms_total, summary_total
from bot.agents.prompt_data import Refusal, check_answer, prompt_data
from bot.agents.transcript_bounds import bound_transcript, kept_answer
from bot.chat_ref import AGENTS, ChatRef, UserRef
from bot.ordering import CancelReply, ChatService, CustomerDesk, DeliveryPage, StatusReply
from bot.partner.models import CANCEL_REASON_LENGTH
from bot.safety.customer_limits import LimitHit
from bot.store import AgentConversation, Store
from conversations import EDIT_PREFIX, ChoiceAnswer, CommandAnswer, Prompt, Turn
from conversations.dialog import CONFIRM, Answer, SessionStatus
from conversations.flow import FlowRegistry
from conversations.texts import agent_texts
from conversations.texts.catalogue import Catalogue
from conversations.texts.deliveries_texts import short_ref
from conversations.texts.taps import Taps, for_channel

SHORT_REF_LIMIT = 16  # a short reference is an id's first block: 8 characters for the service's


class AgentNotFound(AgentsError):
    """No such conversation for this channel (it does not exist, or is another channel's)."""


class UnknownFlow(AgentsError):
    """The flow named is not one the bot offers."""


class ConversationView(BaseModel):
    """One conversation after a turn (or as it stands): what to say, and what is asked now.

    ``refused`` is set when the answer did not fit the open question (nothing changed; the
    same question is open); ``reask`` when the flow asked the same question again because of
    the answer (its reason is in ``messages``). ``prompt`` is None once ``finished``.
    """

    model_config = ConfigDict(frozen=True)

    id: str
    status: SessionStatus
    finished: bool
    messages: list[str]
    prompt: dict[str, Any] | None = None
    refused: str | None = None
    reask: bool = False
    delivery: dict[str, Any] | None = None

    def drawn(self, catalogue: Catalogue, taps: Taps) -> ConversationView:
        """The view as a channel shows it: the flows' marks ("tap Done", how to give photos)
        in ``taps``' words, said from ``catalogue``. Views are kept with their marks, so each
        channel draws its own."""
        update: dict[str, Any] = {
            "messages": [for_channel(catalogue, m, taps) for m in self.messages]
        }
        if self.prompt is not None:
            question = for_channel(catalogue, self.prompt["question"], taps)
            update["prompt"] = {**self.prompt, "question": question}
        return self.model_copy(update=update)


class HeadlessConversations:
    """See the module docstring. ``registry`` names the flows a conversation may start."""

    def __init__(
        self,
        store: Store,
        chats: ChatService,
        desk: CustomerDesk,
        registry: FlowRegistry,
    ) -> None:
        self._store = store
        self._chats = chats
        self._desk = desk
        self._registry = registry
        self.privacy = AgentPrivacy(store, chats.catalogues)
        """The customers' "my data" and "forget me" (``agent_privacy``)."""

    @property
    def flows(self) -> list[str]:
        """The flow names a conversation may be started with."""
        return self._registry.names

    # --- conversations ---------------------------------------------------------------------

    async def start(
        self, channel: str, customer: str, flow: str | None = None, language: str | None = None
    ) -> ConversationView:
        """A new conversation of ``channel``'s ``customer`` in ``flow`` (the entry flow when
        None), said in ``language`` (``fr``; None or one not shipped: the business default):
        its turns, and its delivery's events (``status_text``, ``message``)."""
        if flow is not None and flow not in self._registry:
            raise UnknownFlow(flow)
        # Refused before anything is written: a blocked customer or one over a limit leaves
        # no conversation behind (a customer the channel never had can be neither).
        known = await self._store.agents.user(channel, customer)
        hits: list[LimitHit] = []
        if known is not None:
            refused = await self._chats.before_start(known, language=language, limit_hits=hits)
            if refused is not None:
                raise _refusal(refused, hits, self._chats.catalogues.pick(language))
        conversation = await self._store.agents.open(channel, customer, flow, language)
        turn = await self._chats.start(
            conversation.chat,
            conversation.user,
            flow=flow,
            language=language,
            counted=known is not None,
            limit_hits=hits,
        )
        if hits:
            raise _refusal(turn, hits, self._chats.catalogues.pick(language))
        return await self._record(conversation, None, turn, prompt_before=None)

    async def view(self, channel: str, conversation_id: str) -> ConversationView:
        """The conversation as it stands: the last turn's messages and the open question."""
        conversation = await self._find(channel, conversation_id)
        last = await self._last(conversation)
        return ConversationView.model_validate(last["view"])

    async def transcript(
        self, channel: str, conversation_id: str, taps: Taps
    ) -> list[dict[str, Any]]:
        """Every answer and every turn of the conversation, oldest first, each view drawn
        in ``taps``' words."""
        conversation = await self._find(channel, conversation_id)
        entries = [json.loads(text) for text in await self._store.agents.transcript(conversation)]
        views = [ConversationView.model_validate(entry["view"]) for entry in entries]
        return [
            {"answer": entry["answer"], "view": self.drawn(view, taps).model_dump(mode="json")}
            for entry, view in zip(entries, views, strict=True)
        ]

    def drawn(self, view: ConversationView, taps: Taps) -> ConversationView:
        """``view`` as a channel shows it, its marks in ``taps``' words from the business's
        default language (``ConversationView.drawn``)."""
        return view.drawn(self._business(), taps)

    async def answer(self, channel: str, conversation_id: str, raw: object) -> ConversationView:
        """Answer the open question with ``raw`` (a typed answer as parsed JSON)."""
        conversation = await self._find(channel, conversation_id)
        # The chat's turn (in every process on the store) from the check to the transcript:
        # two answers at once are each checked against the question the other left open.
        async with self._store.chat_locks.hold(conversation.chat):
            prompt = await self._open_prompt(conversation)
            if prompt is None:
                return await self._refuse(conversation, raw, None, agent_texts.NO_OPEN_QUESTION)
            total = await self._total(conversation, prompt)
            if total is not None and _confirming(raw) and not confirms_total(raw, total):
                return await self._summary_again(conversation, raw, prompt)
            checked = check_answer(prompt, raw, total)
            if isinstance(checked, Refusal):
                return await self._refuse(conversation, raw, prompt, checked.reason)
            return await self._handle(conversation, checked, prompt)

    async def back(self, channel: str, conversation_id: str) -> ConversationView:
        """Go back to the question before the open one."""
        return await self.answer(channel, conversation_id, {"kind": "command", "name": "back"})

    async def edit(self, channel: str, conversation_id: str, step: str) -> ConversationView:
        """From the summary, change the answer of ``step`` (one of its edit options)."""
        option = step if step.startswith(EDIT_PREFIX) else EDIT_PREFIX + step
        conversation = await self._find(channel, conversation_id)
        async with self._store.chat_locks.hold(conversation.chat):
            prompt = await self._open_prompt(conversation)
            raw = {"kind": "choice", "option": option}
            offered = (*prompt.options, *prompt.changes) if prompt else ()
            if prompt is None or option not in {o.id for o in offered}:
                reason = agent_texts.UNKNOWN_FIELD if prompt else agent_texts.NO_OPEN_QUESTION
                return await self._refuse(conversation, raw, prompt, reason)
            return await self._handle(conversation, ChoiceAnswer(option=option), prompt)

    async def cancel(self, channel: str, conversation_id: str) -> ConversationView:
        """Cancel the order being made (the flow asks first when answers would be lost)."""
        conversation = await self._find(channel, conversation_id)
        async with self._store.chat_locks.hold(conversation.chat):
            prompt = await self._open_prompt(conversation)
            if prompt is None:
                raw = {"kind": "command", "name": "cancel"}
                return await self._refuse(conversation, raw, None, agent_texts.NO_OPEN_QUESTION)
            return await self._handle(conversation, CommandAnswer(name="cancel"), prompt)

    async def deliver_later(self, chat: ChatRef, turn: Turn) -> None:
        """A turn that happened without an answer (a create re-sent after a rate limit)."""
        conversation = await self._store.agents.by_chat(chat)
        if conversation is not None:
            async with self._store.chat_locks.hold(chat):
                prompt = await self._open_prompt(conversation)
                await self._record(conversation, None, turn, prompt_before=prompt)

    # --- the customer's deliveries -----------------------------------------------------------

    def _business(self) -> Catalogue:
        """What the desk says to an agent's customer: the business's default language."""
        return self._desk.texts.business_catalogue()

    async def deliveries(self, channel: str, customer: str, page: int = 0) -> DeliveryPage:
        """A page of the customer's deliveries (none for a customer the channel never had)."""
        user = await self._store.agents.user(channel, customer)
        return await self._desk.deliveries(
            self._business(), _NOBODY if user is None else user, page
        )

    async def status(self, channel: str, customer: str, ref: str = "") -> StatusReply:
        """One of the customer's deliveries (full id or short reference) as it is now."""
        user = await self._store.agents.user(channel, customer)
        return await self._desk.status(self._business(), _NOBODY if user is None else user, ref)

    async def cancel_delivery(
        self, channel: str, customer: str, ref: str, reason: str
    ) -> CancelReply:
        """Cancel one of the customer's deliveries for ``reason`` (3 to 500 characters),
        named by the short reference the customer was shown (``3F2A9C1E``), never by an id
        they never saw: the reference is how they said which one."""
        if not is_short_ref(ref):
            return CancelReply(outcome="usage", text=agent_texts.CANCEL_BY_REFERENCE)
        low, high = CANCEL_REASON_LENGTH
        length = len(reason.strip())
        if not low <= length <= high:  # the desk's own words name a chat command
            text = agent_texts.cancel_reason_length(length, low, high)
            return CancelReply(outcome="bad_reason", text=text)
        user = await self._store.agents.user(channel, customer)
        return await self._desk.cancel(
            self._business(), _NOBODY if user is None else user, ref, reason
        )

    async def events(
        self, channel: str, conversation_id: str, after: int, limit: int
    ) -> list[dict[str, Any]]:
        """Events of the conversation's deliveries after stream position ``after``."""
        conversation = await self._find(channel, conversation_id)
        stored = await self._store.agent_events.after(conversation.chat, after, limit)
        return [{"seq": event.seq, **json.loads(event.body)} for event in stored]

    async def conversation(self, channel: str, conversation_id: str) -> AgentConversation:
        """The conversation itself; ``AgentNotFound`` unless it is ``channel``'s."""
        return await self._find(channel, conversation_id)

    # --- around each turn --------------------------------------------------------------------

    async def _find(self, channel: str, conversation_id: str) -> AgentConversation:
        found = await self._store.agents.get(conversation_id, channel)
        if found is None:
            raise AgentNotFound(conversation_id)
        return found

    async def _handle(
        self, conversation: AgentConversation, answer: Answer, prompt: Prompt
    ) -> ConversationView:
        if isinstance(answer, CommandAnswer) and answer.name == "cancel":
            turn = await self._chats.cancel(
                conversation.chat, conversation.user, language=conversation.language
            )
        else:
            hits: list[LimitHit] = []
            turn = await self._chats.handle(
                conversation.chat,
                conversation.user,
                answer,
                language=conversation.language,
                limit_hits=hits,
            )
            if hits:  # the summary stays open, as the chat customer's does
                said = self._chats.catalogues.pick(conversation.language)
                raise _refusal(turn, hits, said)
        if turn is None:
            turn = Turn(status="ended")
        raw = answer.model_dump(mode="json", exclude_none=True)
        return await self._record(conversation, raw, turn, prompt_before=prompt)

    async def _total(
        self, conversation: AgentConversation, prompt: Prompt | None
    ) -> dict[str, Any] | None:
        """At a summary, the total its confirm must carry, under the capabilities now."""
        if prompt is None or prompt.input != "confirm":
            return None
        caps, _, _ = await self._chats.engine.services.catalog.catalogue()
        return summary_total(caps, conversation.id, prompt)

    async def _summary_again(
        self, conversation: AgentConversation, raw: object, prompt: Prompt
    ) -> ConversationView:
        """A confirm without the total shown now: the summary again, as it stands now (the
        fee may have changed), and nothing sent, in the conversation's language."""
        turn = await self._chats.resume(
            conversation.chat, conversation.user, language=conversation.language
        )
        return await self._record(
            conversation,
            kept_answer(raw),
            turn or Turn(status="ended"),
            prompt_before=prompt,
            refused=agent_texts.TOTAL_NOT_SHOWN,
        )

    async def _record(
        self,
        conversation: AgentConversation,
        raw: object,
        turn: Turn,
        *,
        prompt_before: Prompt | None,
        refused: str | None = None,
    ) -> ConversationView:
        prompt = turn.prompt
        reask = bool(
            prompt is not None
            and prompt_before is not None
            and (prompt.step, prompt.version) == (prompt_before.step, prompt_before.version)
            and turn.messages
        )
        delivery = None
        if turn.delivery is not None:
            made = turn.delivery
            delivery = {
                "id": made.id,
                "ref": short_ref(made.id),
                "status": made.status,
                "tracking_url": made.tracking_url,
            }
        total = await self._total(conversation, prompt)
        view = ConversationView(
            id=conversation.id,
            status=turn.status,
            finished=turn.finished,
            messages=[refused, *turn.messages] if refused else list(turn.messages),
            prompt=None if prompt is None else prompt_data(prompt, total),
            refused=refused,
            reask=reask or refused is not None,
            delivery=delivery,
        )
        opened = None if prompt is None else prompt.model_dump(mode="json")
        await self._keep(conversation, raw, view, opened)
        return view

    async def _refuse(
        self, conversation: AgentConversation, raw: object, prompt: Prompt | None, reason: str
    ) -> ConversationView:
        last = await self._last(conversation)
        before = ConversationView.model_validate(last["view"])
        view = before.model_copy(update={"messages": [reason], "refused": reason, "reask": True})
        opened = None if prompt is None else prompt.model_dump(mode="json")
        await self._keep(conversation, kept_answer(raw), view, opened)
        await bound_transcript(self._store.agents, conversation)
        return view

    async def _keep(
        self,
        conversation: AgentConversation,
        raw: object,
        view: ConversationView,
        opened: dict[str, Any] | None,
    ) -> None:
        entry = {"answer": raw, "view": view.model_dump(mode="json"), "open": opened}
        await self._store.agents.add_entry(conversation, json.dumps(entry, ensure_ascii=False))

    async def _last(self, conversation: AgentConversation) -> dict[str, Any]:
        entry = await self._store.agents.last_entry(conversation)
        assert entry is not None  # every conversation has its first turn
        last: dict[str, Any] = json.loads(entry)
        return last

    async def _open_prompt(self, conversation: AgentConversation) -> Prompt | None:
        opened = (await self._last(conversation)).get("open")
        return None if opened is None else Prompt.model_validate(opened)


def _refusal(
    turn: Turn, hits: list[LimitHit], catalogue: Catalogue
) -> CustomerOverLimit | CustomerBlocked:
    """A start or a confirm refused for the customer (``turn``: what a chat would read; a
    limit's words said from ``catalogue``, the customer's)."""
    if not hits:
        return CustomerBlocked(" ".join(turn.messages))
    return CustomerOverLimit(hits[0], hits[0].said(catalogue))


_NOBODY = UserRef(AGENTS, 0)
"""A customer no delivery belongs to (one the channel never ordered for): agent customers are
numbered from 1."""


def is_short_ref(ref: str) -> bool:
    """Whether ``ref`` is a delivery's short reference as chats show it (``3F2A9C1E``)."""
    typed = ref.strip()
    return 0 < len(typed) <= SHORT_REF_LIMIT and typed.isascii() and typed.isalnum()


def _confirming(raw: object) -> TypeGuard[dict[str, Any]]:
    """Whether ``raw`` is (or tries to be) the summary's confirm."""
    return isinstance(raw, dict) and raw.get("kind") == "choice" and raw.get("option") == CONFIRM
