"""A create whose answer was lost: "checking", never "not sent"; not repeated by the client but
kept in SQLite, read back and retried with the same key by ``CreateFollowUp`` (first seconds
after the failure) until the service answers for certain, then linked to the chat and told; an
identical order held meanwhile; a restart resumes it. With or without key deduplication by the
service, no duplicate.

Everything is real but the chat: the sandbox (faults after the handler: the delivery is made,
the answer lost), the Partner client, SQLite; the customer's notices go to a recording channel.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.chat_ref import TELEGRAM, ChatRef, UserRef
from bot.jobs import Scheduler
from bot.ordering import ChatService
from bot.ordering.duplicate_hold import content_fingerprint
from bot.ordering.photo_origin import RehostedPhotos
from bot.ordering.unconfirmed_worker import (
    FIRST_FOLLOW_UP_SECONDS,
    CreateFollowUp,
    FollowUpTuning,
)
from bot.partner.models import CreateDeliveryRequest
from bot.store import Store
from conversations import SavedOrder, Turn
from conversations.texts import dialogue
from tests.relay.support import RecordingChannel
from tests.support.words import SHIPPED, said_in

from .conftest import BOT_HOST, CONFIRM_ANSWER, PHOTO_TOKEN, TO_SUMMARY, MakeOrg, Org

CHAT, USER = ChatRef(TELEGRAM, 42), UserRef(TELEGRAM, 7)


class Bot:
    """One bot process over ``store``: the chat service and its follow-up job, on ``jobs``
    (the store's leadership asked before each pass; not started)."""

    def __init__(
        self,
        org: Org,
        store: Store,
        channel: RecordingChannel,
        own_host: str = BOT_HOST,
        look_seconds: float | None = None,
        **tuning: Any,
    ) -> None:
        self.alerts: list[str] = []
        self.follow_up = CreateFollowUp(
            store,
            org.client,
            channel,
            alert_operators=self._alert,
            clock=org.clock,
            sleep=org.clock.sleep,
            tuning=FollowUpTuning(**tuning),
            rehosted=RehostedPhotos(own_host),
            look_seconds=look_seconds,
        )
        self.jobs = Scheduler(leadership=store.leadership, sleep=org.clock.sleep)
        self.jobs.add(self.follow_up)
        self.chats = ChatService(
            org.engine(store=store), store, clock=org.clock, on_unconfirmed=self.follow_up.wake
        )

    async def _alert(self, text: str) -> None:
        self.alerts.append(text)

    async def order(
        self, chat: ChatRef = CHAT, description: str | None = None, language: str | None = None
    ) -> Turn:
        turn = await self.chats.start(chat, USER, language=language)
        for answer in TO_SUMMARY:
            if description and answer.kind == "text" and answer.text == "A pair of shoes":
                answer = answer.model_copy(update={"text": description})
            turn = await self.chats.handle(chat, USER, answer, language=language)
        assert turn.prompt is not None and turn.prompt.step == "summary"
        return await self.chats.handle(chat, USER, CONFIRM_ANSWER, language=language)


def lose_create_answers(org: Org, count: int = 1, kind: str = "status") -> None:
    """The next ``count`` creates are applied, then their answers lost."""
    org.sandbox.inject_fault("create_delivery", kind, count, when="after")


def sandbox_deliveries(org: Org) -> list[dict[str, Any]]:
    return org.sandbox.deliveries()


def without_key_deduplication(make_org: MakeOrg, scenario_data: dict[str, Any]) -> Org:
    """A service that does not deduplicate idempotency keys: the sandbox forgets each key after
    3.6 microseconds, so every create sent with a reused key makes a new delivery."""
    scenario_data["sandbox"]["idempotency_ttl_hours"] = 1e-9
    return make_org(scenario_data)


async def test_a_lost_answer_is_checking_then_found_linked_and_told(org: Org) -> None:
    assert org.store is not None
    channel = RecordingChannel()
    bot = Bot(org, org.store, channel)
    lose_create_answers(org)

    turn = await bot.order()

    assert turn.status == "unconfirmed" and turn.messages == (dialogue.CHECKING.render(SHIPPED),)
    assert "not sent" not in " ".join(turn.messages)
    assert await org.store.sessions.get(CHAT) is None  # the conversation is over
    (row,) = await org.store.unconfirmed.due(org.clock() + FIRST_FOLLOW_UP_SECONDS)
    assert turn.unconfirmed is not None
    sent = turn.unconfirmed.request
    assert row.idempotency_key == sent.idempotencyKey
    assert CreateDeliveryRequest.model_validate_json(row.request) == sent
    assert row.fingerprint == content_fingerprint(sent)
    assert (row.chat, row.user_id, row.attempts) == (CHAT, USER.id, 0)
    assert row.next_attempt_at == org.clock() + FIRST_FOLLOW_UP_SECONDS  # seconds, not minutes
    assert len(sandbox_deliveries(org)) == 1  # it does exist, linked to no chat yet
    assert org.calls("create_delivery") == 1  # the client did not repeat it

    assert await bot.follow_up.process_due() == 0  # not due yet
    org.clock.advance(FIRST_FOLLOW_UP_SECONDS)
    assert await bot.follow_up.process_due() == 1

    (made,) = sandbox_deliveries(org)
    link = await org.store.deliveries.get(made["id"])
    assert link is not None and (link.chat, link.user_id) == (CHAT, USER.id)
    assert link.tracking_sent  # the notice below gives the link: the relay must not repeat it
    last = await bot.chats.history.last_order(USER)
    assert last == SavedOrder.model_validate_json(row.saved_order)  # "repeat" works
    (told,) = channel.texts(CHAT.id)
    assert told.startswith("Good news: the order I was checking went through.")
    assert made["id"] in told
    assert org.calls("create_delivery") == 1  # found by the read-back: no create sent again
    assert await org.store.unconfirmed.count_open() == 0
    assert await org.store.unconfirmed.next_due() is None


async def test_without_key_deduplication_the_read_back_prevents_a_duplicate(
    make_org: MakeOrg, scenario_data: dict[str, Any]
) -> None:
    org = without_key_deduplication(make_org, scenario_data)
    store = await org.open_store()
    channel = RecordingChannel()
    bot = Bot(org, store, channel)
    lose_create_answers(org)
    turn = await bot.order()
    assert turn.status == "unconfirmed"
    # Default client settings: the create is not repeated, so the lost answer made one delivery.
    assert org.client.options.max_attempts > 1
    assert len(sandbox_deliveries(org)) == 1
    assert org.calls("create_delivery") == 1

    org.clock.advance(3600)
    await bot.follow_up.settle()

    assert len(sandbox_deliveries(org)) == 1  # nothing new was created
    assert org.calls("create_delivery") == 1
    assert len(await store.deliveries.for_user(USER, 10)) == 1
    (told,) = channel.texts(CHAT.id)
    assert told.startswith("Good news")
    # The service really does not deduplicate here: the same key again is a second delivery.
    assert turn.unconfirmed is not None
    await org.client.create_delivery(turn.unconfirmed.request)
    assert len(sandbox_deliveries(org)) == 2


async def test_without_key_deduplication_each_retry_is_read_back_before_the_next(
    make_org: MakeOrg, scenario_data: dict[str, Any]
) -> None:
    org = without_key_deduplication(make_org, scenario_data)
    store = await org.open_store()
    channel = RecordingChannel()
    bot = Bot(org, store, channel)
    org.sandbox.inject_fault("create_delivery", "status", 1)  # refused before the handler
    turn = await bot.order()
    assert turn.status == "unconfirmed" and sandbox_deliveries(org) == []
    lose_create_answers(org, kind="drop")  # the follow-up's retry lands, its answer is lost

    await bot.follow_up.settle()

    (made,) = sandbox_deliveries(org)
    assert org.calls("create_delivery") == 2  # the order's try and one retry
    assert org.calls("list_deliveries") == 2  # a read-back before the retry and after it
    assert (await store.deliveries.get(made["id"])) is not None
    (told,) = channel.texts(CHAT.id)
    assert made["id"] in told


async def test_a_brief_outage_costs_the_customer_seconds(org: Org) -> None:
    assert org.store is not None
    channel = RecordingChannel()
    bot = Bot(org, org.store, channel)
    org.sandbox.inject_fault("create_delivery", "status", 1)  # a 503, nothing created
    turn = await bot.order()
    assert turn.messages == (dialogue.CHECKING.render(SHIPPED),)
    failed_at = org.clock()

    await bot.follow_up.settle()

    (made,) = sandbox_deliveries(org)
    (told,) = channel.texts(CHAT.id)
    assert told.startswith("Good news") and made["id"] in told
    assert org.clock() - failed_at == FIRST_FOLLOW_UP_SECONDS
    assert org.calls("create_delivery") == 2


async def test_a_definite_refusal_on_the_retry_says_plainly_it_was_not_placed(org: Org) -> None:
    assert org.store is not None
    channel = RecordingChannel()
    bot = Bot(org, org.store, channel)
    # 503 before the handler: the order's try and the first follow-up's retry.
    org.sandbox.inject_fault("create_delivery", "status", 2)
    org.sandbox.inject_fault("create_delivery", "status", 1, status=400, code="validation_error")

    turn = await bot.order()
    assert turn.status == "unconfirmed"
    await bot.follow_up.settle()

    assert channel.texts(CHAT.id) == [dialogue.NOT_PLACED.render(SHIPPED)]
    assert sandbox_deliveries(org) == []
    assert await org.store.unconfirmed.count_open() == 0


@pytest.mark.parametrize(
    ("own_host", "alerted"), [(BOT_HOST, True), ("https://another-bot.example", False)]
)
async def test_a_refused_photo_host_on_the_retry_alerts_only_for_the_bots_own_photos(
    org: Org, own_host: str, alerted: bool
) -> None:
    assert org.store is not None
    channel = RecordingChannel()
    bot = Bot(org, org.store, channel, own_host=own_host)
    org.sandbox.inject_fault("create_delivery", "status", 2)
    org.sandbox.inject_fault("create_delivery", "status", 1, status=400, code="image_host_rejected")

    await bot.order()
    await bot.follow_up.settle()

    assert channel.texts(CHAT.id) == [dialogue.NOT_PLACED.render(SHIPPED)]
    # The bot's own media host refused is the operators' setting; a photo from anywhere else
    # was the customer's, told to them already.
    assert bot.alerts == ([dialogue.IMAGE_HOST_ALERT.render(SHIPPED)] if alerted else [])


async def test_photos_that_expired_before_the_retry_alert_nobody(org: Org) -> None:
    assert org.store is not None
    channel = RecordingChannel()
    bot = Bot(org, org.store, channel)
    org.sandbox.inject_fault("create_delivery", "status", 2)
    org.sandbox.inject_fault("create_delivery", "status", 1, status=400, code="image_host_rejected")

    await bot.order()
    assert await org.store.media.delete(PHOTO_TOKEN)  # expired and purged meanwhile
    await bot.follow_up.settle()

    # Not placed (the order had ended as "being checked"), and nothing for the operators to fix.
    assert channel.texts(CHAT.id) == [dialogue.NOT_PLACED.render(SHIPPED)]
    assert bot.alerts == []


async def test_the_bound_tells_the_customer_and_alerts_the_operators(org: Org) -> None:
    assert org.store is not None
    channel = RecordingChannel()
    bot = Bot(org, org.store, channel, max_attempts=3)
    org.sandbox.inject_fault("create_delivery", "status", 1 + 3)  # every try, 503

    await bot.order()
    await bot.follow_up.settle()

    assert channel.texts(CHAT.id) == [dialogue.STILL_UNKNOWN.render(SHIPPED)]
    (alert,) = bot.alerts
    assert "could not be confirmed after 3 attempts" in alert
    assert org.calls("create_delivery") == 1 + 3  # the order's try, then one per follow-up
    assert org.calls("list_deliveries") == 3  # a read-back before every retry
    assert org.clock.slept == [FIRST_FOLLOW_UP_SECONDS, 15.0, 30.0]  # the follow-up's back-off
    assert await org.store.unconfirmed.count_open() == 0


async def test_a_french_customer_hears_the_outcome_in_french_and_the_delivery_keeps_it(
    org: Org,
) -> None:
    """The follow-up runs outside any turn: the language is the one the order was said in."""
    assert org.store is not None
    channel = RecordingChannel()
    bot = Bot(org, org.store, channel)
    lose_create_answers(org)

    turn = await bot.order(language="fr")
    assert turn.messages == (dialogue.CHECKING.render(said_in("fr")),)
    (row,) = await org.store.unconfirmed.due(org.clock() + FIRST_FOLLOW_UP_SECONDS)
    assert row.language == "fr"
    org.clock.advance(FIRST_FOLLOW_UP_SECONDS)
    assert await bot.follow_up.process_due() == 1

    (told,) = channel.texts(CHAT.id)
    assert told.startswith("Bonne nouvelle\u00a0: la commande que je vérifiais est bien passée.")
    (made,) = sandbox_deliveries(org)
    link = await org.store.deliveries.get(made["id"])
    assert link is not None and link.language == "fr"  # the relay's news will be French too


async def test_the_bound_tells_a_french_customer_in_french_and_operators_in_english(
    org: Org,
) -> None:
    assert org.store is not None
    channel = RecordingChannel()
    bot = Bot(org, org.store, channel, max_attempts=2)
    org.sandbox.inject_fault("create_delivery", "status", 1 + 2)  # every try, 503

    await bot.order(language="fr")
    await bot.follow_up.settle()

    assert channel.texts(CHAT.id) == [dialogue.STILL_UNKNOWN.render(said_in("fr"))]
    (alert,) = bot.alerts
    assert "could not be confirmed after 2 attempts" in alert


async def test_a_restart_in_the_middle_resumes_the_follow_up(make_org: MakeOrg) -> None:
    org = make_org()
    store = await org.open_store()
    bot = Bot(org, store, RecordingChannel())
    lose_create_answers(org)
    org.sandbox.inject_fault("list_deliveries", "status", 4)  # the first read-back fails

    await bot.order()
    org.clock.advance(FIRST_FOLLOW_UP_SECONDS)
    await bot.follow_up.process_due()
    (row,) = await store.unconfirmed.due(org.clock() + 3600)
    assert row.attempts == 1 and row.next_attempt_at == org.clock() + 15.0
    await store.close()  # the process dies; the row is in the file

    store = await org.open_store()
    channel = RecordingChannel()
    after = Bot(org, store, channel)
    await after.follow_up.settle()

    (made,) = sandbox_deliveries(org)
    assert (await store.deliveries.get(made["id"])) is not None
    assert org.calls("create_delivery") == 1  # found by the new process's read-back
    (told,) = channel.texts(CHAT.id)
    assert made["id"] in told


async def test_an_identical_order_is_held_once_then_sent_on_purpose(org: Org) -> None:
    assert org.store is not None
    channel = RecordingChannel()
    bot = Bot(org, org.store, channel)
    lose_create_answers(org)
    first = await bot.order()
    assert first.status == "unconfirmed"

    held = await bot.order()

    assert held.messages[0] == dialogue.DUPLICATE_HELD.render(SHIPPED), held.messages
    assert held.prompt is not None and held.prompt.step == "summary"
    assert org.calls("create_delivery") == 1  # nothing sent
    other = await bot.order(chat=ChatRef(TELEGRAM, 43), description="Another parcel")
    assert other.status == "created"  # a different order is not held

    second = await bot.chats.handle(CHAT, USER, CONFIRM_ANSWER)  # "send it again": on purpose

    assert second.status == "created"
    await bot.follow_up.settle()
    assert len(sandbox_deliveries(org)) == 3  # the lost one, the other, the chosen second
    assert len(await org.store.deliveries.for_user(USER, 10)) == 3


async def test_the_hold_is_asked_once_even_across_a_restart(make_org: MakeOrg) -> None:
    org = make_org()
    store = await org.open_store()
    bot = Bot(org, store, RecordingChannel())
    lose_create_answers(org)
    await bot.order()
    held = await bot.order()
    assert held.messages[0] == dialogue.DUPLICATE_HELD.render(SHIPPED)
    await store.close()  # the process dies with the second order held at its summary

    store = await org.open_store()
    after = Bot(org, store, RecordingChannel())
    second = await after.chats.handle(CHAT, USER, CONFIRM_ANSWER)  # "send it again"

    assert second.status == "created"  # not asked a second time
    assert org.calls("create_delivery") == 2
    await after.follow_up.settle()
    assert len(sandbox_deliveries(org)) == 2
    assert len(await store.deliveries.for_user(USER, 10)) == 2


async def test_a_failing_store_is_backed_off_not_looked_at_every_few_seconds(
    org: Org, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert org.store is not None
    store = org.store

    bot = Bot(org, store, RecordingChannel(), look_seconds=FIRST_FOLLOW_UP_SECONDS)

    passes: list[float] = []
    fourth = asyncio.Event()

    async def broken() -> float | None:
        passes.append(org.clock())
        if len(passes) == 4:  # three failed passes, each followed by its pause
            fourth.set()
        raise OSError("the disk is gone")

    monkeypatch.setattr(store.unconfirmed, "next_due", broken)  # each pass's first read
    async with bot.jobs, asyncio.timeout(5):
        await fourth.wait()
    assert org.clock.slept[:3] == [15.0, 30.0, 60.0]  # the tuning's back-off, not 2 s looks
