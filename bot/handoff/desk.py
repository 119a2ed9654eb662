"""``HandoffDesk``: a customer asks for a person, staff take it, answer and close it, and the
order goes on from where it was.

Every channel calls it (the Telegram adapter, the console, the agents' routes); the channels'
sides (``sides``) only send. What is said through a hand-off is queued in the store first and
then sent by whoever holds it (``store.handoffs``: each message delivered once, in order,
whichever instance took it); ``redeliver`` sends what an instance left behind.

The order itself is never touched while a person talks with the customer: the draft waits at
its question. Staff may fill an answer for the customer (``fill``): it goes through the very
step the customer would have answered, with its checks; a refusal is told to staff only.

A block (``bot.safety.customer_blocking``) ends the customer's hand-offs at once
(``end_for_block``, told by ``CustomerBlocking.on_block``): the customer gets the sentence
every blocked customer gets, the card says the hand-off ended with the block, and from then on
their messages go to the order, which refuses them as it refuses every blocked customer's.
Staff replies to it are refused with that reason (``refused_for_block``). A block made where
this desk does not run (the shell, while the bot runs) is found at the next message either side
sends, or by the upkeep's pass (``end_blocked``), whichever comes first. Unblocking opens
nothing again: the customer asks for a person anew.

The desk speaks from the business's ``BusinessTexts``: to a customer in their hand-off's
language (``handoff.language``, their client's when they asked), to staff in the business's
(``business_catalogue``).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass

from bot.chat_ref import ChatRef, UserRef
from bot.handoff.bodies import Body, text_body, text_of
from bot.handoff.card import RECENT_MESSAGES, CardFacts, card_text, draft_summary, question_title
from bot.handoff.codes import carries_code, waiting_codes
from bot.handoff.handoff_settings import HandoffSettings
from bot.handoff.sides import CustomerSide, StaffSide
from bot.ordering.chats import ChatService
from bot.safety.customer_blocking import blocked_turn
from bot.store import Store
from bot.store.handoffs import TO_CUSTOMER, TO_STAFF, Handoff, Taken, Way
from conversations import Turn
from conversations.dialog import Answer
from conversations.texts.business_texts import BusinessTexts
from conversations.texts.catalogue import Catalogue

log = logging.getLogger(__name__)

DELIVERIES_ON_CARD = 3
WAITING_LISTED = 100  # the hand-offs not closed a staff page lists at most

Actor = UserRef | str
"""Who the audit trail names for a staff action: a messenger account (``telegram:1900``), or
the console's ``staff:<member id>``."""


@dataclass(frozen=True)
class Asked:
    """What asking for a person did: the hand-off (None: no staff can be reached), and what
    to tell the customer."""

    handoff: Handoff | None
    new: bool
    reply: str


@dataclass(frozen=True)
class Filled:
    """Staff's answer for the customer was taken; ``question`` is the one it answered."""

    question: str


@dataclass(frozen=True)
class FillRefused:
    """The step refused staff's answer: ``reason`` is its own words (told to staff)."""

    question: str
    reason: str


class HandoffDesk:
    """Hand-offs over ``store`` and ``chats``, said from ``texts`` (the business's); ``staff``
    is where staff see them (None: no operators' chat, and customers are told nobody can be
    reached)."""

    def __init__(
        self,
        store: Store,
        chats: ChatService,
        settings: HandoffSettings,
        *,
        texts: BusinessTexts,
        staff: StaffSide | None = None,
        customers: Mapping[str, CustomerSide] | None = None,
    ) -> None:
        self.store = store
        self.chats = chats
        self.settings = settings
        self.texts = texts
        self.staff = staff
        self._customers: dict[str, CustomerSide] = dict(customers or {})
        chats.blocking.on_block(self.end_for_block)

    def serve(self, channel: str, side: CustomerSide) -> None:
        """Reach the customers of ``channel`` through ``side``."""
        self._customers[channel] = side

    def use_staff(self, staff: StaffSide) -> None:
        """Show hand-offs to staff through ``staff``."""
        self.staff = staff

    # --- the customer's side ----------------------------------------------------------------

    async def ask(self, chat: ChatRef, user: UserRef, *, name: str, language: str | None) -> Asked:
        """The customer asks for a person: a hand-off opened (or the waiting one found), and
        what to tell them, in their language (``language``: their client's code)."""
        said = self.texts.catalogue_for(language)
        if self.staff is None:
            return Asked(None, False, said.say("human.unavailable"))
        if await self.store.customer_blocks.get(user) is not None:
            # An operator stopped this customer (``/block``): no way round it to staff.
            return Asked(None, False, blocked_turn(said).messages[0])
        session = await self.chats.session(chat)
        opened = await self.store.handoffs.open(
            chat,
            user,
            name=name,
            flow=session.flow if session is not None else None,
            step=session.step if session is not None else None,
            language=language,
        )
        handoff = opened.handoff
        if not opened.new:
            return Asked(handoff, False, said.say("human.waiting"))
        post = await self.staff.post(handoff, await self.card(handoff))
        if post is None:
            await self.store.handoffs.close(handoff.ref)
            return Asked(None, False, said.say("human.unavailable"))
        await self.store.handoffs.posted(handoff.ref, post)
        if session is not None:
            self.chats.funnel.handoff(session)  # where customers ask for a person
        return Asked(handoff, True, self._opened_text(said))

    def _opened_text(self, said: Catalogue) -> str:
        minutes = self.settings.reply_minutes
        if self.settings.hours:
            return said.say("human.opened", minutes=minutes, hours=self.settings.hours)
        return said.say("human.opened_no_hours", minutes=minutes)

    def _customers_catalogue(self, handoff: Handoff) -> Catalogue:
        """What the hand-off's customer reads: the business's texts in their language."""
        return self.texts.catalogue_for(handoff.language)

    def _staff_catalogue(self) -> Catalogue:
        """What staff read: the business's texts in its default language."""
        return self.texts.business_catalogue()

    async def waiting_for(self, chat: ChatRef) -> Handoff | None:
        """The chat's hand-off not closed yet: its messages go to staff, not to the order.
        None for a blocked customer, whose hand-off this ends (a block from the shell): the
        message goes to the order, which answers it as any blocked customer's."""
        handoff = await self.store.handoffs.waiting_for(chat)
        if handoff is None or not await self._blocked(handoff):
            return handoff
        await self._end_blocked(handoff, by=None, tell_customer=False)
        return None

    async def from_customer(self, handoff: Handoff, body: Body) -> str | None:
        """The customer wrote while the hand-off waits: to staff. What to tell the customer
        (they are sending too fast), or None."""
        since = self.store.clock() - 60
        sent = await self.store.handoffs.count_since(handoff.ref, TO_STAFF, since)
        if sent >= self.settings.messages_per_minute:
            return self._customers_catalogue(handoff).say("human.slow_down")
        await self.store.handoffs.add(handoff.ref, TO_STAFF, body)
        await self.flush(handoff, TO_STAFF)
        return None

    # --- the staff's side -------------------------------------------------------------------

    async def get(self, ref: str) -> Handoff | None:
        """The hand-off ``ref``."""
        return await self.store.handoffs.get(ref)

    async def in_topic(self, chat: ChatRef, thread_id: int) -> Handoff | None:
        """The hand-off whose staff topic is ``thread_id`` of ``chat`` (a forum group)."""
        return await self.store.handoffs.by_topic(chat, thread_id)

    async def waiting(self, limit: int = WAITING_LISTED) -> list[Handoff]:
        """The hand-offs not closed (waiting for someone, or taken), the latest active first."""
        return await self.store.handoffs.not_closed(limit)

    async def take(
        self, ref: str, operator: UserRef, name: str, *, by: Actor | None = None
    ) -> Taken | None:
        """``operator`` takes the hand-off (the first to take it wins, whichever door they
        used); None if there is none. The card shows who has it. ``by`` is who the audit
        trail names (``operator`` unless said)."""
        taken = await self.store.handoffs.take(ref, operator, name)
        if taken is not None and taken.owner and taken.handoff.waiting:
            await self._staff_action("take", taken.handoff.ref, by or operator)
            await self.redraw(taken.handoff)
        return taken

    async def redraw(self, handoff: Handoff) -> None:
        """Draw the staff card again as things stand (its owner, its last messages)."""
        if self.staff is not None:
            await self.staff.redraw(handoff, await self.card(handoff))

    async def reply(
        self, handoff: Handoff, body: Body, *, signer: str | None = None, by: Actor | None = None
    ) -> bool:
        """Staff wrote to the customer: sent as the business (signed with ``signer``'s name
        only when ``[operators] sign_replies``). False when it was not sent: it carries one of
        the customer's deliveries' drop-off codes (``codes``), or the customer is blocked, and
        staff are told why."""
        if await self.refused_for_block(handoff, by=by):
            return False
        if await self._carries_code(handoff, body):
            await self._staff_action("reply", handoff.ref, by, outcome="refused_code")
            if self.staff is not None:
                refused = self._staff_catalogue().say("staff.code_refused", ref=handoff.ref)
                await self.staff.tell(handoff, refused)
            return False
        await self._staff_action("reply", handoff.ref, by)
        if signer and self.settings.sign_replies and body.get("kind") == "text":
            body = text_body(f"{body.get('text', '')}\n— {signer}")
        await self.store.handoffs.add(handoff.ref, TO_CUSTOMER, body)
        await self.flush(handoff, TO_CUSTOMER)
        return True

    async def refused_for_block(self, handoff: Handoff, *, by: Actor | None = None) -> bool:
        """Whether staff's message to ``handoff`` is refused because its customer is blocked
        (staff are told; a hand-off still waiting is ended first)."""
        if not await self._blocked(handoff):
            return False
        if handoff.waiting:
            await self._end_blocked(handoff, by=None, tell_customer=True)
        await self._staff_action("reply", handoff.ref, by, outcome="refused: customer blocked")
        if self.staff is not None:
            refused = self._staff_catalogue().say("staff.reply_blocked", ref=handoff.ref)
            await self.staff.tell(handoff, refused)
        return True

    async def _carries_code(self, handoff: Handoff, body: Body) -> bool:
        text = text_of(body)
        return bool(text.strip()) and carries_code(
            text, await waiting_codes(self.store, handoff.user)
        )

    async def takes_place(self, handoff: Handoff) -> bool:
        """Whether the customer's order is at a question a place answers (a location shared
        by staff then fills it, ``fill``)."""
        session = await self.chats.session(handoff.chat)
        if session is None or session.step is None:
            return False
        flow = self.chats.engine.registry.get(session.flow)
        return (
            flow is not None and session.step in flow and flow.step(session.step).input == "place"
        )

    async def fill(
        self, handoff: Handoff, answer: Answer, *, by: Actor | None = None
    ) -> Filled | FillRefused:
        """Answer the customer's open question for them, through its own step."""
        await self._staff_action("fill", handoff.ref, by)
        chat, user = handoff.chat, handoff.user
        # The question is named to the customer in their language and to staff in the
        # business's, like the card; the step's own refusal is the sentence the customer would
        # have read, so staff see it as the customer would.
        said, staff = self._customers_catalogue(handoff), self._staff_catalogue()
        session = await self.chats.session(chat)
        step = session.step if session is not None else None
        flow = session.flow if session is not None else None
        question = question_title(staff, self.chats.engine, flow, step)
        if session is None or step is None:
            return FillRefused(question, staff.say("staff.card_no_order"))
        turn = await self.chats.handle(chat, user, answer, language=handoff.language)
        after = await self.chats.session(chat)
        if after is not None and after.step == step and after.failures > session.failures:
            return FillRefused(question, " ".join(turn.messages))
        asked = question_title(said, self.chats.engine, flow, step)
        await self.reply(handoff, text_body(said.say("human.filled", question=asked)))
        side = self._customers.get(chat.channel)
        if side is not None:
            await side.answered(chat, turn)
        return Filled(question)

    async def close(self, ref: str, *, by: Actor | None = None) -> Handoff | None:
        """Close the hand-off: the customer is told and sees their order's question again,
        staff see it closed. None when it was closed already (or never was)."""
        closed = await self.store.handoffs.close(ref.strip().upper())
        if closed is None:
            return None
        await self._staff_action("close", closed.ref, by)
        await self._after_close(closed, "human.closed")
        return closed

    async def close_idle(self) -> int:
        """Close every hand-off silent for ``[operators] handoff_idle_hours``, telling both
        sides; how many were closed."""
        before = self.store.clock() - self.settings.idle_hours * 3600
        count = 0
        for handoff in await self.store.handoffs.idle(before):
            closed = await self.store.handoffs.close(handoff.ref)
            if closed is None:
                continue
            count += 1
            await self._after_close(closed, "human.idle_closed", resume=False)
            if self.staff is not None:
                hours = f"{self.settings.idle_hours:g}"
                idle = self._staff_catalogue().say("staff.idle_closed", ref=closed.ref, hours=hours)
                await self.staff.tell(closed, idle)
        return count

    # --- blocks ------------------------------------------------------------------------------

    async def end_for_block(self, user: UserRef, by: str) -> int:
        """``user`` was just blocked (by ``by``): end their hand-offs; how many were open."""
        ended = 0
        for handoff in await self.store.handoffs.waiting_of(user):
            ended += await self._end_blocked(handoff, by=by, tell_customer=True)
        return ended

    async def end_blocked(self) -> int:
        """End the hand-offs of customers blocked where this desk did not hear it (the
        shell); how many (the upkeep's pass)."""
        ended = 0
        for handoff in await self.store.handoffs.waiting_of_blocked():
            ended += await self._end_blocked(handoff, by=None, tell_customer=True)
        return ended

    async def _blocked(self, handoff: Handoff) -> bool:
        return await self.store.customer_blocks.get(handoff.user) is not None

    async def _end_blocked(self, handoff: Handoff, *, by: str | None, tell_customer: bool) -> bool:
        """Close ``handoff`` for its customer's block: the card says so, staff are told in its
        thread and, with ``tell_customer``, the customer gets the blocked sentence (without it,
        the order is about to say it). False when someone else closed it first."""
        # Under the chat's turn, as the block drops drafts: a message of the customer being
        # passed on now reaches staff before the end, none after it.
        async with self.store.chat_locks.hold(handoff.chat):
            closed = await self.store.handoffs.close(handoff.ref)
        if closed is None:
            return False
        actor = by or "bot"
        log.info("hand-off %s: ended by the block of its customer (%s)", closed.ref, actor)
        await self.store.audit.record(
            actor, "handoff_close", f"hand-off {closed.ref}", "done; customer blocked"
        )
        if self.staff is not None:
            await self.staff.redraw(closed, await self.card(closed, blocked=True))
            ended = self._staff_catalogue().say("staff.blocked_ended", ref=closed.ref)
            await self.staff.tell(closed, ended)
        if tell_customer:
            sentence = blocked_turn(self._customers_catalogue(closed)).messages[0]
            await self.store.handoffs.add(closed.ref, TO_CUSTOMER, text_body(sentence))
            await self.flush(closed, TO_CUSTOMER)
        return True

    async def _after_close(self, closed: Handoff, message: str, *, resume: bool = True) -> None:
        if self.staff is not None:
            await self.staff.redraw(closed, await self.card(closed))
        chat, user = closed.chat, closed.user
        turn: Turn | None = None
        if resume:
            turn = await self.chats.resume(chat, user, language=closed.language)
        if resume and turn is None:
            message = "human.closed_no_order"
        said = self._customers_catalogue(closed).say(message)
        await self.store.handoffs.add(closed.ref, TO_CUSTOMER, text_body(said))
        await self.flush(closed, TO_CUSTOMER)
        side = self._customers.get(closed.chat.channel)
        if turn is not None and side is not None:
            await side.show(closed.chat, turn, language=closed.language)

    async def _staff_action(
        self, action: str, ref: str, by: Actor | None, *, outcome: str = "done"
    ) -> None:
        """What a staff member did to a hand-off, logged and kept in the audit trail
        (``deliverybot audit``) by reference and operator; never what was said."""
        actor = str(by) if by is not None else "bot"
        log.info("hand-off %s: %s by %s (%s)", ref, action, actor, outcome)
        await self.store.audit.record(actor, f"handoff_{action}", f"hand-off {ref}", outcome)

    # --- delivery, once each ----------------------------------------------------------------

    async def flush(self, handoff: Handoff, way: Way) -> None:
        """Send the way's pending messages this instance can claim, oldest first."""
        handoffs = self.store.handoffs
        while (message := await handoffs.claim(handoff.ref, way)) is not None:
            try:
                sent = await self._send(handoff, way, message.body)
            except Exception:
                await handoffs.release(message)
                raise
            await handoffs.delivered(message)
            if not sent and way == TO_CUSTOMER and self.staff is not None:
                missed = self._staff_catalogue().say("staff.not_delivered", ref=handoff.ref)
                await self.staff.tell(handoff, missed)

    async def redeliver(self) -> int:
        """Send what is pending with nobody live holding it (an instance died mid-send);
        how many hand-offs had some."""
        pending = await self.store.handoffs.pending()
        for ref, way in pending:
            handoff = await self.store.handoffs.get(ref)
            if handoff is not None:
                await self.flush(handoff, way)
        return len(pending)

    async def _send(self, handoff: Handoff, way: Way, body: Body) -> bool:
        if way == TO_STAFF:
            return self.staff is not None and await self.staff.send(handoff, body)
        side = self._customers.get(handoff.chat.channel)
        if side is None:
            log.warning("hand-off %s: no channel %s to reach", handoff.ref, handoff.chat.channel)
            return False
        return await side.send(handoff.chat, body)

    async def card(self, handoff: Handoff, *, blocked: bool = False) -> str:
        """The staff card of ``handoff`` as things stand (``blocked``: ended by a block)."""
        facts = await self.facts(handoff, blocked=blocked)
        return card_text(self._staff_catalogue(), self.chats.engine, handoff, facts)

    async def facts(
        self, handoff: Handoff, *, messages: int = RECENT_MESSAGES, blocked: bool = False
    ) -> CardFacts:
        """What staff are shown of ``handoff`` besides itself: the customer's draft and its
        answers so far (in the business's words), its last ``messages`` both ways, and the
        customer's latest deliveries; the card and the console read the same."""
        session = await self.chats.session(handoff.chat)
        staff = self._staff_catalogue()
        engine = self.chats.engine
        answers = await draft_summary(staff, engine, session) if session is not None else []
        recent = await self.store.handoffs.recent(handoff.ref, messages)
        deliveries = await self.store.deliveries.for_user(handoff.user, DELIVERIES_ON_CARD)
        return CardFacts(session, answers, recent, deliveries, blocked=blocked)
