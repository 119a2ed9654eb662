"""ChatService: sessions in SQLite after every turn, one turn at a time per chat, created
deliveries linked to their chat, the key saved before the create, operator alerts, and the
create re-sent after a rate limit."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace

from bot.ordering import ChatService
from bot.partner.models import CreateDeliveryRequest
from bot.store import Store
from conversations import (
    CommandAnswer,
    CreateOutcome,
    Session,
    TextAnswer,
    Turn,
)
from conversations.dialog import Answer
from conversations.flows import REPEAT_FLOW

from .conftest import CONFIRM_ANSWER, TO_SUMMARY, MakeOrg, Org

CHAT, USER = 42, 7


def service(org: Org, store: Store | None = None, **kwargs: object) -> ChatService:
    assert org.store is not None or store is not None
    return ChatService(org.engine(), store or org.store, clock=org.clock, **kwargs)


async def answer_all(chats: ChatService, answers: list[Answer], chat: int = CHAT) -> Turn:
    turn = await chats.start(chat, USER)
    for answer in answers:
        turn = await chats.handle(chat, USER, answer)
    return turn


async def stored(store: Store, chat: int = CHAT) -> Session | None:
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
    assert (link.chat_id, link.user_id) == (CHAT, USER)
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


async def test_cancel_ends_the_order(org: Org) -> None:
    chats = service(org)
    await answer_all(chats, TO_SUMMARY[:3])
    turn = await chats.cancel(CHAT, USER)
    assert turn is not None and turn.status == "cancelled"
    assert org.store is not None and await org.store.sessions.get(CHAT) is None


async def test_an_unreadable_session_is_dropped(org: Org) -> None:
    assert org.store is not None
    await org.store.sessions.save(CHAT, USER, json.dumps({"not": "a session"}))
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

    async def create(self, request: CreateDeliveryRequest) -> CreateOutcome:
        saved = await stored(self.store)
        self.keys_seen.append((request.idempotencyKey, saved.idempotency_key if saved else None))
        self.entered.set()
        await self.release.wait()
        return await self.inner.create(request)


def watched(org: Org, **kwargs: object) -> tuple[ChatService, Watching]:
    assert org.store is not None
    engine = org.engine()
    watcher = Watching(engine.services.creator, org.store)
    engine.services = replace(engine.services, creator=watcher)
    return ChatService(engine, org.store, clock=org.clock, **kwargs), watcher


async def test_the_key_is_saved_before_the_create_goes_out(org: Org) -> None:
    chats, watcher = watched(org)
    await answer_all(chats, [*TO_SUMMARY, CONFIRM_ANSWER])
    [(sent, saved)] = watcher.keys_seen
    assert sent is not None and sent == saved


async def test_the_engines_own_checkpoint_still_runs(org: Org) -> None:
    seen: list[str | None] = []

    async def checkpoint(session: Session) -> None:
        seen.append(session.idempotency_key)

    engine = org.engine()
    engine.services = replace(engine.services, checkpoint=checkpoint)
    assert org.store is not None
    chats = ChatService(engine, org.store, clock=org.clock)
    await answer_all(chats, [*TO_SUMMARY, CONFIRM_ANSWER])
    assert len(seen) == 1 and seen[0] is not None


async def test_one_chat_waits_for_its_own_turn_and_no_other(org: Org) -> None:
    chats, watcher = watched(org)
    await answer_all(chats, TO_SUMMARY)
    watcher.release.clear()
    confirm = asyncio.create_task(chats.handle(CHAT, USER, CONFIRM_ANSWER))
    await watcher.entered.wait()
    cancel = asyncio.create_task(chats.cancel(CHAT, USER))
    other = await chats.start(CHAT + 1, USER)  # another chat is not held up
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


async def test_a_rate_limited_create_goes_out_when_allowed(org: Org) -> None:
    later: list[tuple[int, Turn]] = []

    async def deliver_later(chat_id: int, turn: Turn) -> None:
        later.append((chat_id, turn))

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


async def test_no_resend_once_the_customer_moved_on(org: Org) -> None:
    later: list[Turn] = []

    async def deliver_later(chat_id: int, turn: Turn) -> None:
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

    async def deliver_later(chat_id: int, turn: Turn) -> None:
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


async def test_the_created_request_is_kept_and_repeated_for_the_same_user(org: Org) -> None:
    chats = service(org)
    assert org.store is not None
    await answer_all(chats, TO_SUMMARY)
    first = await chats.handle(CHAT, USER, CONFIRM_ANSWER)
    assert first.delivery is not None and first.request is not None
    kept = await org.store.deliveries.last_request_for(USER)
    assert kept is not None and "idempotencyKey" not in json.loads(kept)
    assert CreateDeliveryRequest.model_validate_json(kept) == first.request.model_copy(
        update={"idempotencyKey": None}
    )

    turn = await chats.start(CHAT, USER, flow=REPEAT_FLOW)
    assert "Your last order" in turn.messages[0]
    assert turn.prompt is not None and turn.prompt.step == "photos"
    session = await chats.session(CHAT)
    assert session is not None and session.customer == str(USER)
    # Another user of the same bot has nothing to repeat.
    other = await chats.start(CHAT + 1, USER + 1, flow=REPEAT_FLOW)
    assert other.prompt is not None and other.prompt.step == "no_last_order"


async def test_an_unreadable_kept_request_is_not_repeated(org: Org) -> None:
    chats = service(org)
    assert org.store is not None
    await org.store.deliveries.add("old", CHAT, USER, 1.0, None, None, request='{"from": "v0"}')
    turn = await chats.start(CHAT, USER, flow=REPEAT_FLOW)
    assert turn.prompt is not None and turn.prompt.step == "no_last_order"
