"""ChatService: sessions in SQLite after every turn, one turn at a time per chat, created
deliveries linked to their chat with the order that made them, the key saved before the create,
operator alerts, the create re-sent after a rate limit, and ``repeat`` (the last order replayed
into the flow that made it)."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace

import httpx
import pytest

from bot.chat_ref import TELEGRAM, ChatRef, UserRef
from bot.config.limits_section import LimitsConfig
from bot.ordering import ChatService
from bot.partner.models import CreateDeliveryRequest
from bot.store import Store
from conversations import (
    ChoiceAnswer,
    CommandAnswer,
    ContactAnswer,
    CreateOutcome,
    LocationAnswer,
    PhotosAnswer,
    SavedOrder,
    Session,
    TextAnswer,
    Turn,
)
from conversations.dialog import Answer
from conversations.flows import PICKUP_DELIVERY
from conversations.texts import dialogue
from conversations.texts.business_texts import BusinessTexts
from tests.support.words import SHIPPED, SHIPPED_TEXTS, said_in

from .conftest import CONFIRM_ANSWER, PHOTO_URL, TO_SUMMARY, MakeOrg, Org
from .test_recorded_creates import swap_client

CHAT, USER = ChatRef(TELEGRAM, 42), UserRef(TELEGRAM, 7)
OTHER_CHAT, OTHER_USER = ChatRef(TELEGRAM, 43), UserRef(TELEGRAM, 8)

# A return to the business's warehouse on the default scenario, up to the summary (the
# warehouse answers itself: the first usable one).
RETURN_TO_SUMMARY: list[Answer] = [
    ChoiceAnswer(option="return_parcel"),
    LocationAnswer(lat=6.5095, lng=3.3711, address="12 Herbert Macaulay Way, Yaba"),
    ContactAnswer(phone="08031234567", first_name="Ada", last_name="Obi"),
    CommandAnswer(name="skip"),
    ChoiceAnswer(option="yes"),
    TextAnswer(text="Wrong size shoes, order 1182"),
    ChoiceAnswer(option="small"),
    PhotosAnswer(urls=[PHOTO_URL]),
    CommandAnswer(name="done"),
]


def service(org: Org, store: Store | None = None, **kwargs: object) -> ChatService:
    assert org.store is not None or store is not None
    return ChatService(org.engine(), store or org.store, clock=org.clock, **kwargs)


async def answer_all(chats: ChatService, answers: list[Answer], chat: ChatRef = CHAT) -> Turn:
    turn = await chats.start(chat, USER)
    for answer in answers:
        turn = await chats.handle(chat, USER, answer)
    return turn


async def stored(store: Store, chat: ChatRef = CHAT) -> Session | None:
    record = await store.sessions.get(chat)
    return Session.model_validate_json(record.data) if record else None


async def test_every_turn_is_saved_and_a_finished_order_is_forgotten(org: Org) -> None:
    chats = service(org)
    assert org.store is not None
    turn = await chats.start(CHAT, USER)
    assert turn.prompt is not None and turn.prompt.step == "service_kind"
    for answer in TO_SUMMARY:
        turn = await chats.handle(CHAT, USER, answer)
        session = await stored(org.store)
        assert session is not None and turn.prompt is not None
        assert session.step == turn.prompt.step
        assert session == await chats.session(CHAT)
    assert turn.prompt is not None and turn.prompt.step == "summary"
    done = await chats.handle(CHAT, USER, CONFIRM_ANSWER)
    assert done.status == "created" and done.delivery is not None
    assert await org.store.sessions.get(CHAT) is None
    link = await org.store.deliveries.get(done.delivery.id)
    assert link is not None
    assert (link.chat, link.user_id) == (CHAT, USER.id)
    assert link.status == "matched"
    assert link.receiver_phone == "+2348022223333"
    assert link.tracking_url == done.delivery.tracking_url
    assert link.created_at == done.delivery.created_at.timestamp()


async def test_a_restarted_service_resumes_the_open_question(org: Org) -> None:
    first = service(org)
    turn = await answer_all(first, TO_SUMMARY[:6])
    assert turn.prompt is not None
    asked = turn.prompt.step
    assert org.store is not None
    await org.store.close()
    reopened = await Store.connect(org.db_path, clock=org.clock)
    try:
        again = ChatService(org.engine(), reopened, clock=org.clock)
        resumed = await again.resume(CHAT, USER)
        assert resumed is not None and resumed.prompt is not None
        assert resumed.prompt.step == asked
        turn = await again.handle(CHAT, USER, TO_SUMMARY[6])
        assert turn.prompt is not None and turn.prompt.step == "receiver_name"
    finally:
        await reopened.close()
        org.store = None


async def test_without_an_open_order(org: Org) -> None:
    chats = service(org)
    assert await chats.resume(CHAT, USER) is None
    assert await chats.cancel(CHAT, USER) is None
    assert await chats.session(CHAT) is None
    turn = await chats.handle(CHAT, USER, TextAnswer(text="hello"))
    assert turn.finished and "ended" in turn.messages[0]
    assert org.calls("get_capabilities") == 0


async def test_cancel_asks_first_then_ends_the_order(org: Org) -> None:
    chats = service(org)
    await answer_all(chats, TO_SUMMARY[:3])
    asked = await chats.cancel(CHAT, USER)
    assert asked is not None and asked.status == "open" and asked.prompt is not None
    assert asked.prompt.text == "Cancel this order? The answers you gave so far will be lost."
    turn = await chats.cancel(CHAT, USER)
    assert turn is not None and turn.status == "cancelled"
    assert org.store is not None and await org.store.sessions.get(CHAT) is None


async def test_an_unreadable_session_is_dropped(org: Org) -> None:
    assert org.store is not None
    await org.store.sessions.save(CHAT, USER.id, json.dumps({"not": "a session"}))
    chats = service(org)
    assert await chats.session(CHAT) is None
    assert await org.store.sessions.get(CHAT) is None


class Watching:
    """A creator that looks at the stored session while the create is under way."""

    def __init__(self, inner: object, store: Store) -> None:
        self.inner = inner
        self.store = store
        self.keys_seen: list[tuple[str | None, str | None]] = []
        self.entered = asyncio.Event()
        self.release = asyncio.Event()
        self.release.set()

    async def create(
        self, request: CreateDeliveryRequest, turn: object = None, *, flow: str
    ) -> CreateOutcome:
        saved = await stored(self.store)
        self.keys_seen.append((request.idempotencyKey, saved.idempotency_key if saved else None))
        self.entered.set()
        await self.release.wait()
        return await self.inner.create(request, turn, flow=flow)


def watched(org: Org, **kwargs: object) -> tuple[ChatService, Watching]:
    assert org.store is not None
    engine = org.engine()
    watcher = Watching(engine.services.creator, org.store)
    engine.services = replace(engine.services, creator=watcher)
    return ChatService(engine, org.store, clock=org.clock, **kwargs), watcher


class KeysAtTheDoor(httpx.AsyncBaseTransport):
    """The sandbox's transport, noting as each create leaves its key and the stored session's."""

    def __init__(self, inner: httpx.AsyncBaseTransport, store: Store) -> None:
        self._inner = inner
        self._store = store
        self.keys_seen: list[tuple[str | None, str | None]] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.method == "POST" and request.url.path.endswith("/deliveries"):
            sent = json.loads(request.content)["idempotencyKey"]
            saved = await stored(self._store)
            self.keys_seen.append((sent, saved.idempotency_key if saved else None))
        return await self._inner.handle_async_request(request)


@pytest.mark.parametrize("recorded", [True, False], ids=["recorded", "unrecorded"])
async def test_the_key_is_saved_before_the_create_goes_out(org: Org, recorded: bool) -> None:
    """With the create's intent (one commit), or alone when the engine has no store."""
    assert org.store is not None
    door = KeysAtTheDoor(httpx.ASGITransport(app=org.sandbox.app), org.store)
    await swap_client(org, door)
    engine = org.engine(store=org.store) if recorded else org.engine()
    chats = ChatService(engine, org.store, clock=org.clock)
    await answer_all(chats, [*TO_SUMMARY, CONFIRM_ANSWER])
    [(sent, saved)] = door.keys_seen
    assert sent is not None and sent == saved


async def test_one_chat_waits_for_its_own_turn_and_no_other(org: Org) -> None:
    chats, watcher = watched(org)
    await answer_all(chats, TO_SUMMARY)
    watcher.release.clear()
    confirm = asyncio.create_task(chats.handle(CHAT, USER, CONFIRM_ANSWER))
    await watcher.entered.wait()
    cancel = asyncio.create_task(chats.cancel(CHAT, USER))
    other = await chats.start(OTHER_CHAT, USER)  # another chat is not held up
    assert other.prompt is not None
    await asyncio.sleep(0)
    assert not cancel.done()
    watcher.release.set()
    created = await confirm
    assert created.status == "created"
    # The cancel ran after the order was created: there was nothing left to cancel.
    assert await cancel is None


async def test_operators_are_told_when_photos_are_refused(make_org: MakeOrg, scenario_data) -> None:
    scenario_data["images"]["allowlist"] = ["localhost"]
    org = make_org(scenario_data)
    await org.open_store()
    alerts: list[str] = []

    async def alert(text: str) -> None:
        alerts.append(text)

    chats = service(org, alert_operators=alert)
    turn = await answer_all(chats, [*TO_SUMMARY, CONFIRM_ANSWER])
    assert turn.status == "open" and turn.operator_alert is not None
    assert alerts == [turn.operator_alert] and "allowlist" in alerts[0]


async def test_a_failing_alert_does_not_undo_the_turn(make_org: MakeOrg, scenario_data) -> None:
    scenario_data["images"]["allowlist"] = ["localhost"]
    org = make_org(scenario_data)
    await org.open_store()

    async def broken(text: str) -> None:
        raise RuntimeError("operator chat unreachable")

    chats = service(org, alert_operators=broken)
    turn = await answer_all(chats, [*TO_SUMMARY, CONFIRM_ANSWER])
    assert turn.operator_alert is not None
    session = await chats.session(CHAT)
    assert session is not None and session.step == "summary"


async def test_a_french_customers_limit_is_told_them_in_french_and_operators_in_english(
    org: Org,
) -> None:
    """The customer reads why in their language; the ``[limits]`` alert is staff's, said in the
    business's whoever hit the limit (it was said in the customer's once)."""
    alerts: list[str] = []

    async def alert(text: str) -> None:
        alerts.append(text)

    chats = service(
        org,
        alert_operators=alert,
        limits=LimitsConfig(drafts_per_hour=1),
        texts=BusinessTexts(SHIPPED_TEXTS),
    )
    await chats.start(CHAT, USER, language="fr")
    refused = await chats.start(CHAT, USER, language="fr")

    wait = said_in("fr").say("safety.wait.minutes", count=60)
    limit = said_in("fr").say("safety.limit.drafts_per_hour", limit=1, wait=wait)
    assert refused.messages == (limit,)
    assert alerts == [
        SHIPPED.say("safety.limit_alert", customer=USER, kind="drafts_per_hour", limit=1)
    ]


async def test_a_rate_limited_create_goes_out_when_allowed(org: Org) -> None:
    later: list[tuple[ChatRef, Turn]] = []

    async def deliver_later(chat: ChatRef, turn: Turn) -> None:
        later.append((chat, turn))

    chats = service(org, deliver_later=deliver_later, sleep=org.clock.sleep)
    await answer_all(chats, TO_SUMMARY)
    org.sandbox.inject_fault("create_delivery", "status", count=4, status=429, code="rate_limited")
    turn = await chats.handle(CHAT, USER, CONFIRM_ANSWER)
    assert turn.retry_after is not None and "busy" in " ".join(turn.messages)
    waited_from = org.clock.now
    await chats.settle()
    [(chat_id, resent)] = later
    assert chat_id == CHAT and resent.status == "created"
    assert org.clock.now - waited_from >= turn.retry_after
    assert org.calls("create_delivery") == 5


async def test_a_create_resent_later_speaks_and_links_in_the_customers_language(
    org: Org,
) -> None:
    """The re-sent create's turn runs outside any update, yet in the language of the turn
    that was rate limited (its task copies that turn's context)."""
    later: list[Turn] = []

    async def deliver_later(chat: ChatRef, turn: Turn) -> None:
        later.append(turn)

    chats = service(org, deliver_later=deliver_later, sleep=org.clock.sleep)
    await chats.start(CHAT, USER, language="fr")
    for answer in TO_SUMMARY:
        await chats.handle(CHAT, USER, answer, language="fr")
    # More 429s than the client's own retries: the create is re-sent once the service allows.
    org.sandbox.inject_fault("create_delivery", "status", count=4, status=429, code="rate_limited")
    waiting = await chats.handle(CHAT, USER, CONFIRM_ANSWER, language="fr")
    assert waiting.retry_after is not None
    await chats.settle()

    [resent] = later
    assert resent.delivery is not None
    said_first = dialogue.created(said_in("fr"), resent.delivery)[0]
    assert resent.messages[0] == said_first != dialogue.created(SHIPPED, resent.delivery)[0]
    link = await org.store.deliveries.get(resent.delivery.id)
    assert link is not None and link.language == "fr"


async def test_no_resend_once_the_customer_moved_on(org: Org) -> None:
    later: list[Turn] = []

    async def deliver_later(chat: ChatRef, turn: Turn) -> None:
        later.append(turn)

    gate = asyncio.Event()

    async def sleep(seconds: float) -> None:
        await gate.wait()

    chats = service(org, deliver_later=deliver_later, sleep=sleep)
    await answer_all(chats, TO_SUMMARY)
    org.sandbox.inject_fault("create_delivery", "status", count=4, status=429, code="rate_limited")
    await chats.handle(CHAT, USER, CONFIRM_ANSWER)
    await chats.handle(CHAT, USER, CommandAnswer(name="back"))
    gate.set()
    await chats.settle()
    assert later == []
    assert org.calls("create_delivery") == 4


async def test_closing_drops_what_was_scheduled(org: Org) -> None:
    later: list[Turn] = []

    async def deliver_later(chat: ChatRef, turn: Turn) -> None:
        later.append(turn)

    async def never(seconds: float) -> None:
        await asyncio.Event().wait()

    chats = service(org, deliver_later=deliver_later, sleep=never)
    await answer_all(chats, TO_SUMMARY)
    org.sandbox.inject_fault("create_delivery", "status", count=4, status=429, code="rate_limited")
    await chats.handle(CHAT, USER, CONFIRM_ANSWER)
    await chats.aclose()
    await chats.settle()
    assert later == []


async def test_a_flow_can_be_started_directly(org: Org) -> None:
    chats = service(org)
    turn = await chats.start(CHAT, USER, flow="errand")
    assert turn.prompt is not None and turn.prompt.step == "errand_mode"
    session = await chats.session(CHAT)
    assert session is not None and session.entry_flow == "errand"


async def test_the_order_is_kept_with_its_delivery_for_the_same_user(org: Org) -> None:
    chats = service(org)
    assert org.store is not None
    first = await answer_all(chats, [*TO_SUMMARY, CONFIRM_ANSWER])
    assert first.delivery is not None and first.order is not None
    kept = await org.store.deliveries.last_order_for(USER)
    assert kept is not None
    order = SavedOrder.model_validate_json(kept)
    assert order == first.order == await chats.history.last_order(USER)
    # The flow that made it, not the entry flow that handed off to it.
    assert (order.flow, order.flow_version) == (PICKUP_DELIVERY.name, PICKUP_DELIVERY.version)
    assert "service_kind" not in order.answers
    assert order.answers["package_description"] == "A pair of shoes"
    assert await chats.history.last_order(OTHER_USER) is None


async def test_repeat_replays_the_last_order_into_the_same_flow(org: Org) -> None:
    chats = service(org)
    assert org.store is not None
    first = await answer_all(chats, [*TO_SUMMARY, CONFIRM_ANSWER])
    assert first.delivery is not None and first.request is not None

    turn = await chats.repeat(CHAT, USER)
    assert turn.messages[0] == dialogue.repeating(SHIPPED, "Pickup & delivery")
    # Re-hosted photos expire: the only question asked again.
    assert turn.prompt is not None and turn.prompt.step == "photos"
    session = await chats.session(CHAT)
    assert session is not None
    assert (session.flow, session.customer) == ("pickup_delivery", str(USER.id))
    await chats.handle(CHAT, USER, PhotosAnswer(urls=[PHOTO_URL]))
    summary = await chats.handle(CHAT, USER, CommandAnswer(name="done"))
    assert summary.prompt is not None and summary.prompt.step == "summary"
    again = await chats.handle(CHAT, USER, CONFIRM_ANSWER)
    assert again.status == "created" and again.delivery is not None
    assert again.delivery.id != first.delivery.id
    assert again.request is not None
    assert again.request.idempotencyKey != first.request.idempotencyKey  # a new order, a new key
    keyless = {"idempotencyKey": None}
    assert again.request.model_copy(update=keyless) == first.request.model_copy(update=keyless)
    links = await org.store.deliveries.for_user(USER, 10)
    assert {link.delivery_id for link in links} == {first.delivery.id, again.delivery.id}
    assert all((link.chat, link.user_id) == (CHAT, USER.id) for link in links)


async def test_a_return_is_repeated_as_a_return(org: Org) -> None:
    chats = service(org)
    assert org.store is not None
    first = await answer_all(chats, [*RETURN_TO_SUMMARY, CONFIRM_ANSWER])
    assert first.status == "created" and first.order is not None
    assert first.order.flow == "return_parcel"
    assert first.request is not None and first.request.serviceKind == "pickup_delivery"

    turn = await chats.repeat(CHAT, USER)
    assert turn.messages[0] == dialogue.repeating(SHIPPED, "Return a parcel to us")
    assert turn.prompt is not None and turn.prompt.step == "photos"
    session = await chats.session(CHAT)
    assert session is not None and session.flow == "return_parcel"
    await chats.handle(CHAT, USER, PhotosAnswer(urls=[PHOTO_URL]))
    await chats.handle(CHAT, USER, CommandAnswer(name="done"))
    again = await chats.handle(CHAT, USER, CONFIRM_ANSWER)
    assert again.status == "created" and again.request is not None
    # Sent back to the same warehouse, received by the business, not a plain pickup & delivery.
    for field in ("deliveryAddress", "deliveryCoords", "receiverName", "receiverPhone"):
        assert getattr(again.request, field) == getattr(first.request, field), field
    assert again.order is not None and again.order.flow == "return_parcel"
    kept = await org.store.deliveries.last_order_for(USER)
    assert kept is not None and SavedOrder.model_validate_json(kept).flow == "return_parcel"


async def test_repeat_drops_the_order_open_in_the_chat(org: Org) -> None:
    chats = service(org)
    await answer_all(chats, [*TO_SUMMARY, CONFIRM_ANSWER])
    await answer_all(chats, TO_SUMMARY[:3])
    turn = await chats.repeat(CHAT, USER)
    assert turn.prompt is not None and turn.prompt.step == "photos"
    session = await chats.session(CHAT)
    assert session is not None and session.answers["package_description"] == "A pair of shoes"


async def test_with_nothing_to_repeat_a_new_order_starts(org: Org) -> None:
    chats = service(org)
    assert org.store is not None
    await answer_all(chats, [*TO_SUMMARY, CONFIRM_ANSWER])
    # Another user of the same bot has nothing to repeat.
    other = await chats.repeat(OTHER_CHAT, OTHER_USER)
    assert other.messages[0] == dialogue.NOTHING_TO_REPEAT.render(SHIPPED)
    assert other.prompt is not None and other.prompt.step == "service_kind"
    session = await chats.session(OTHER_CHAT)
    assert session is not None
    assert (session.flow, session.customer) == ("order", str(OTHER_USER.id))
    assert org.calls("create_delivery") == 1


async def test_an_unreadable_kept_order_is_not_repeated(org: Org) -> None:
    chats = service(org)
    assert org.store is not None
    await org.store.deliveries.add(
        "old", CHAT, USER.id, 1.0, None, None, saved_order='{"from": "v0"}'
    )
    turn = await chats.repeat(CHAT, USER)
    assert turn.messages[0] == dialogue.NOTHING_TO_REPEAT.render(SHIPPED)
    assert turn.prompt is not None and turn.prompt.step == "service_kind"


async def test_an_order_from_a_changed_flow_starts_a_new_order(org: Org) -> None:
    chats = service(org)
    assert org.store is not None
    older = SavedOrder(
        flow="pickup_delivery",
        flow_version=PICKUP_DELIVERY.version - 1,
        answers={"sender_name": "Ada"},
    )
    await org.store.deliveries.add(
        "old",
        CHAT,
        USER.id,
        1.0,
        None,
        None,
        saved_order=chats.history.kept(older),
    )
    turn = await chats.repeat(CHAT, USER)
    assert turn.messages[0] == dialogue.CANNOT_REPEAT.render(SHIPPED)
    assert turn.prompt is not None and turn.prompt.step == "service_kind"
    session = await chats.session(CHAT)
    assert session is not None and "sender_name" not in session.answers


async def test_a_refusal_that_makes_the_capabilities_stale_refreshes_them(org: Org) -> None:
    chats = service(org)
    await answer_all(chats, TO_SUMMARY)
    fetched = org.calls("get_capabilities")
    org.sandbox.inject_fault("create_delivery", "status", status=403, code="service_disabled")
    turn = await chats.handle(CHAT, USER, CONFIRM_ANSWER)
    assert turn.status == "open" and turn.delivery is None
    # The engine dropped the shared copy (through the catalog) and read it again.
    assert org.calls("get_capabilities") == fetched + 1
    assert turn.prompt is not None and turn.prompt.step == "service_kind"
