"""The quote loop over real parts: the sandbox prices an order that waited for its fee, its
signed webhooks reach the relay, which asks the customer once; ``QuoteDesk`` takes the answer
(keep, or cancel through the Partner API), once, across instances and restarts."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from bot.channel_texts import shipped_channel_texts
from bot.chat_ref import TELEGRAM, ChatRef, UserRef
from bot.ordering import CustomerDesk
from bot.ordering.quote_desk import QuoteDesk, QuoteReply
from bot.partner.models import Delivery, WebhookEvent
from bot.relay import quote_question
from bot.relay.asking import Asking, Choice
from bot.relay.quote_question import QuoteChoice
from bot.store import DeliveryLink, Store
from bot.telegram.delivery_commands import TELEGRAM_WORDS
from conversations import delivery_facts as facts
from conversations.texts.business_texts import BusinessTexts
from conversations.texts.catalogue import DEFAULT_TEXTS
from conversations.texts.deliveries_texts import short_ref

from .support import CUSTOMER_CHAT, CUSTOMER_USER, OpenStore, RecordingChannel
from .support import event as relay_event
from .test_news_in_french import english_in
from .world import MakeWorld, World

QUESTION = "Delivery fee: NGN 2,600. Keep the order, or cancel it?"
CUSTOMER = UserRef(TELEGRAM, CUSTOMER_USER)
# The business's texts with every channel's words, as a configured bot has them.
SHIPPED = BusinessTexts(DEFAULT_TEXTS.with_channels(*shipped_channel_texts()))
TURN = SHIPPED.catalogue_for(None)  # the customer's turn, in the business default


def staff_price_by_hand(data: dict[str, Any]) -> None:
    """Every create waits in ``awaiting_price``; riders are assigned by hand."""
    request = data["capabilities"]["publicRequest"]
    request["autoDispatch"] = False
    request["requireApproval"] = True


class ButtonChannel(RecordingChannel):
    """A channel that draws choices as buttons (Telegram's kind): records them too."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: list[tuple[str, tuple[Choice, ...]]] = []

    async def ask(self, chat: ChatRef, text: str, asking: Asking) -> int | None:
        self.asked.append((text, asking.choices))
        return await self.send(chat, text)


class Operators:
    """What operators were told."""

    def __init__(self) -> None:
        self.told: list[str] = []

    async def __call__(self, text: str) -> None:
        self.told.append(text)


def quotes_over(world: World, store: Store | None = None) -> tuple[QuoteDesk, Operators]:
    operators = Operators()
    desk = CustomerDesk(
        store or world.store, world.client, TELEGRAM_WORDS, phone_region="NG", texts=SHIPPED
    )
    return QuoteDesk(desk, operators), operators


async def priced_order(world: World, *, language: str | None = None) -> Delivery:
    """An order that waited for its fee, priced by staff at NGN 2,600, and relayed."""
    delivery = await world.order(language=language)
    assert delivery.status == "awaiting_price"
    await world.settle()
    world.sandbox.set_fee(delivery.id, 2600)
    await world.settle()
    return delivery


async def priced_and_asked(make_world: MakeWorld) -> tuple[World, Delivery, QuoteDesk, Operators]:
    """A world where staff price by hand, an order priced and asked about, and its desk."""
    world = await make_world(staff_price_by_hand)
    delivery = await priced_order(world)
    quotes, operators = quotes_over(world)
    return world, delivery, quotes, operators


def questions(texts: Sequence[str]) -> list[str]:
    return [text for text in texts if "Keep the order" in text]


async def test_a_fee_set_later_is_asked_once_and_not_again_by_later_events(
    make_world: MakeWorld, channel: RecordingChannel
) -> None:
    world = await make_world(staff_price_by_hand)
    delivery = await priced_order(world)
    news = channel.texts(CUSTOMER_CHAT)
    (asked,) = questions(news)
    ref = short_ref(delivery.id)
    # One message: the news, then the question, and (no buttons here) the words to type.
    assert asked.splitlines() == [
        f"Delivery {ref}",
        "Your delivery is booked and waiting for a rider.",
        QUESTION,
        f"Type “quote keep {ref}” to keep the order, or “quote cancel {ref}” to cancel it.",
    ]
    assert not any("The delivery fee is" in text for text in news)  # the question told it

    world.sandbox.set_fee(delivery.id, 2800)  # delivery.updated: repriced
    await world.settle()
    await world.client.assign_rider(delivery.id, "rdr_tunde")  # status_changed: matched
    await world.settle()
    later = channel.texts(CUSTOMER_CHAT)[len(news) :]
    assert later and questions(later) == []
    link = await world.store.deliveries.get(delivery.id)
    assert link is not None and "quote:2600" in link.told and "fee:2600" in link.told


async def test_a_fee_known_at_the_create_is_never_asked(
    make_world: MakeWorld, channel: RecordingChannel
) -> None:
    world = await make_world(priced_by_rule)
    delivery = await world.order()
    assert delivery.status == "pending"
    await world.settle()
    await world.client.assign_rider(delivery.id, "rdr_tunde")
    await world.settle()
    assert channel.texts(CUSTOMER_CHAT) and questions(channel.texts(CUSTOMER_CHAT)) == []
    quotes, operators = quotes_over(world)
    reply = await quotes.answer(TURN, CUSTOMER, short_ref(delivery.id), "cancel")
    assert reply.outcome == "not_asked"
    assert world.sandbox_delivery(delivery.id)["status"] == "matched"
    assert operators.told == []


def priced_by_rule(data: dict[str, Any]) -> None:
    """The create is priced by the scenario's rules (no approval); riders assigned by hand."""
    data["capabilities"]["publicRequest"]["autoDispatch"] = False


async def test_a_channel_with_buttons_gets_the_choices_and_no_typed_line(
    make_world: MakeWorld, make_relay: Any, open_store: OpenStore
) -> None:
    buttons = ButtonChannel()
    world = await make_world(staff_price_by_hand)
    world.relay = make_relay(world.store, channel=buttons)
    delivery = await priced_order(world)
    ((text, choices),) = buttons.asked
    ref = short_ref(delivery.id)
    assert text.endswith(QUESTION)
    assert [(c.label, c.data) for c in choices] == [
        ("Keep the order", f"quote keep {ref}"),
        ("Cancel it", f"quote cancel {ref}"),
    ]
    assert all(len(c.data.encode()) <= 64 for c in choices)  # Telegram's callback_data limit


async def test_keep_changes_nothing_at_the_service_and_operators_are_told(
    make_world: MakeWorld,
) -> None:
    world, delivery, quotes, operators = await priced_and_asked(make_world)
    ref = short_ref(delivery.id)
    calls = world.sandbox.call_counts()

    kept = await quotes.answer(TURN, CUSTOMER, ref, "keep")
    assert (kept.outcome, kept.text) == ("kept", f"Thank you: delivery {ref} goes ahead.")
    assert world.sandbox.call_counts() == calls  # no call to the service
    assert world.sandbox_delivery(delivery.id)["status"] == "pending"
    assert operators.told == [f"Delivery {ref}: the customer accepted the fee and keeps the order."]
    audit = await world.store.audit.since(0)
    assert [(e.actor, e.action, e.subject, e.outcome) for e in audit] == [
        (str(CUSTOMER), "quote_keep", f"delivery {ref}", "done")
    ]

    again = await quotes.answer(TURN, CUSTOMER, ref, "cancel")
    assert again.outcome == "already_answered"
    assert again.text == f"You already answered about the fee of delivery {ref}."
    assert world.sandbox.call_counts() == calls
    assert world.sandbox_delivery(delivery.id)["status"] == "pending"
    assert len(operators.told) == 1


async def test_cancel_cancels_through_the_api_with_a_reason(make_world: MakeWorld) -> None:
    world, delivery, quotes, operators = await priced_and_asked(make_world)
    ref = short_ref(delivery.id)

    cancelled = await quotes.answer(TURN, CUSTOMER, ref, "cancel")
    assert (cancelled.outcome, cancelled.text) == (
        "cancelled",
        f"Delivery {ref} is cancelled, as you asked.",
    )
    at_service = world.sandbox_delivery(delivery.id)
    assert at_service["status"] == "cancelled"
    assert at_service["cancellation_reason"] == "The customer declined the delivery fee."
    assert operators.told == [
        f"Delivery {ref}: the customer declined the fee; the order is cancelled."
    ]
    # The cancelled event is no news to the chat: it was told by the answer.
    before = len(world.channel.texts(CUSTOMER_CHAT))
    await world.settle()
    assert world.channel.texts(CUSTOMER_CHAT)[before:] == []
    assert (await quotes.answer(TURN, CUSTOMER, ref, "keep")).outcome == "already_answered"


async def test_cancel_refused_because_the_rider_has_the_package_is_said_plainly(
    make_world: MakeWorld,
) -> None:
    world = await make_world(staff_price_by_hand)
    delivery = await priced_order(world)
    await world.client.assign_rider(delivery.id, "rdr_tunde")
    world.sandbox.mark_paid(delivery.id)  # its fee is due before dispatch
    world.sandbox.advance_status(delivery.id)  # picked up; the chat has not heard yet
    quotes, operators = quotes_over(world)
    ref = short_ref(delivery.id)

    refused = await quotes.answer(TURN, CUSTOMER, ref, "cancel")
    assert refused.outcome == "not_allowed"
    assert refused.text == (
        f"Delivery {ref} can no longer be cancelled: the rider already has the package."
    )
    assert "cancel_not_allowed" not in refused.text
    assert world.sandbox_delivery(delivery.id)["status"] == "picked_up"
    assert operators.told == [
        f"Delivery {ref}: the customer declined the fee, but the order could not be cancelled "
        "any more (it is picked up)."
    ]
    assert (await quotes.answer(TURN, CUSTOMER, ref, "cancel")).outcome == "already_answered"


async def test_an_answer_after_the_delivery_moved_on_sends_nothing(make_world: MakeWorld) -> None:
    world = await make_world(staff_price_by_hand)
    delivery = await priced_order(world)
    await world.client.assign_rider(delivery.id, "rdr_tunde")
    world.sandbox.mark_paid(delivery.id)  # its fee is due before dispatch
    world.sandbox.advance_status(delivery.id)
    await world.settle()  # the chat was told: picked up
    quotes, operators = quotes_over(world)
    ref = short_ref(delivery.id)
    calls = world.sandbox.call_counts()

    for choice in ("cancel", "keep"):
        late = await quotes.answer(TURN, CUSTOMER, ref, choice)  # type: ignore[arg-type]
        assert late.outcome == "moved_on"
        assert late.text == (
            f"Delivery {ref} is already picked up, so its fee question is closed. "
            "Nothing was changed."
        )
    assert world.sandbox.call_counts() == calls
    assert operators.told == []


async def test_someone_elses_delivery_is_unknown(make_world: MakeWorld) -> None:
    world = await make_world(staff_price_by_hand)
    delivery = await priced_order(world)
    quotes, _ = quotes_over(world)
    stranger = UserRef(TELEGRAM, CUSTOMER_USER + 1)
    reply = await quotes.answer(TURN, stranger, short_ref(delivery.id), "cancel")
    assert reply.outcome == "unknown"
    assert world.sandbox_delivery(delivery.id)["status"] == "pending"


async def test_two_instances_answering_at_once_take_one_answer(
    make_world: MakeWorld, open_store: OpenStore
) -> None:
    world = await make_world(staff_price_by_hand)
    delivery = await priced_order(world)
    other_store = await open_store()  # a second process on the same database
    first, _ = quotes_over(world)
    second, _ = quotes_over(world, other_store)
    ref = short_ref(delivery.id)
    choices: list[QuoteChoice] = ["keep", "cancel"]
    replies: list[QuoteReply] = await asyncio.gather(
        first.answer(TURN, CUSTOMER, ref, choices[0]),
        second.answer(TURN, CUSTOMER, ref, choices[1]),
    )
    outcomes = sorted(reply.outcome for reply in replies)
    assert outcomes in (["already_answered", "kept"], ["already_answered", "cancelled"])
    expected = "cancelled" if "cancelled" in outcomes else "pending"
    assert world.sandbox_delivery(delivery.id)["status"] == expected


async def test_the_question_survives_a_restart(
    make_world: MakeWorld, open_store: OpenStore, make_relay: Any, channel: RecordingChannel
) -> None:
    world = await make_world(staff_price_by_hand)
    delivery = await priced_order(world)
    restarted = await open_store()
    world.relay = make_relay(restarted)  # a new process: nothing kept in memory
    world.sandbox.set_fee(delivery.id, 2700)
    await world.settle()
    assert len(questions(channel.texts(CUSTOMER_CHAT))) == 1
    quotes, _ = quotes_over(world, restarted)
    assert (await quotes.answer(TURN, CUSTOMER, short_ref(delivery.id), "keep")).outcome == "kept"


async def test_a_french_customer_is_asked_and_answered_in_french(
    make_world: MakeWorld, channel: RecordingChannel
) -> None:
    world = await make_world(staff_price_by_hand)
    delivery = await priced_order(world, language="fr")
    (asked,) = [text for text in channel.texts(CUSTOMER_CHAT) if "Garder la commande" in text]
    assert "Frais de livraison : 2\u202f600\u00a0NGN. Garder la commande, ou l'annuler ?" in asked
    assert not english_in(asked), asked
    quotes, operators = quotes_over(world)
    ref = short_ref(delivery.id)
    kept = await quotes.answer(TURN, CUSTOMER, ref, "keep")
    assert kept.text == f"Merci : la livraison {ref} suit son cours."
    again = await quotes.answer(TURN, CUSTOMER, ref, "cancel")
    assert again.text == f"Vous avez déjà répondu au sujet des frais de la livraison {ref}."
    # Operators read the business's language (English by default).
    assert operators.told == [f"Delivery {ref}: the customer accepted the fee and keeps the order."]


async def test_a_cancel_the_service_could_not_take_leaves_the_question_open(
    make_world: MakeWorld,
) -> None:
    world, delivery, quotes, operators = await priced_and_asked(make_world)
    ref = short_ref(delivery.id)
    world.sandbox.inject_fault(
        "cancel_delivery", "status", count=9, status=500, code="cancel_failed"
    )

    failed = await quotes.answer(TURN, CUSTOMER, ref, "cancel")
    assert failed.outcome == "unreachable"
    assert failed.text == (
        "I couldn't reach the delivery service just now. Please try again in a few minutes. "
        f"Your answer about delivery {ref} was not taken yet."
    )
    assert "cancel_failed" not in failed.text
    assert operators.told == []
    link = await world.store.deliveries.get(delivery.id)
    assert link is not None and not any(fact.startswith("quote_answer:") for fact in link.told)

    world.sandbox.clear_faults()  # the service is back
    again = await quotes.answer(TURN, CUSTOMER, ref, "cancel")
    assert again.outcome == "cancelled"
    assert world.sandbox_delivery(delivery.id)["status"] == "cancelled"


def _fee_event(status: str, previous: str | None, fee: float | None) -> WebhookEvent:
    body = relay_event("evt_fee", status, event_type="delivery.updated", previous_status=previous)
    body["data"]["object"]["payment"] = {"delivery_fee": fee, "currency_code": "NGN"}
    return WebhookEvent.model_validate(body)


def _link(status: str, told: frozenset[str]) -> DeliveryLink:
    chat = ChatRef(TELEGRAM, CUSTOMER_CHAT)
    return DeliveryLink(
        "d1", chat, CUSTOMER_USER, 1.0, None, None, status, None, None, 1.0, told=told
    )


def test_a_delivery_created_pending_without_a_fee_is_asked_when_an_update_brings_one() -> None:
    # The spec's create answers "pending"; the answer to the create kept that it had no fee.
    unpriced = _link("pending", frozenset({facts.UNPRICED}))
    assert quote_question.is_due(_fee_event("pending", "pending", 2600), unpriced)
    assert not quote_question.is_due(_fee_event("pending", "pending", None), unpriced)
    # Priced at its create (the fee not said: hidden pricing), so nothing to ask about.
    assert not quote_question.is_due(
        _fee_event("matched", "pending", 2600), _link("pending", frozenset())
    )
    # Asked before, told a fee before, or past pickup: not again.
    for told, status in (
        ({facts.UNPRICED, "quote:2600"}, "pending"),
        ({facts.UNPRICED, "fee:2600"}, "pending"),
        ({facts.UNPRICED}, "picked_up"),
    ):
        assert not quote_question.is_due(
            _fee_event(status, "pending", 2600), _link("pending", frozenset(told))
        )
