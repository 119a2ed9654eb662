"""Telegram's rider map against the fake Bot API: one live location and one text per delivery,
moved and edited only when the customer would see it, stopped at the end, and let go quietly
when the customer stopped it."""

from __future__ import annotations

import asyncio
import json
import logging

import pytest
import telegram

from bot.chat_ref import TELEGRAM, ChatRef
from bot.relay.channel_protocol import ChatUnreachable, SendFailed
from bot.store import Store
from bot.store.rider_positions import Fix, Point
from bot.telegram.limits import RateLimiter, SendLimits
from bot.telegram.message_sender import TelegramSender
from bot.telegram.rider_map import (
    LIVE_PERIOD_FOREVER,
    MOVE_METRES,
    LiveShown,
    TelegramRiderMap,
    metres_between,
)
from bot.tracking.rider_map import NOTHING_SHOWN, RiderMap
from bot.tracking.rider_view import RiderView
from conversations.texts.tracking_texts import rider_text
from tests.fakes import FakeTelegram
from tests.support.clock import WaitingClock
from tests.support.words import SHIPPED

from .conftest import ALICE

CHAT = ChatRef(TELEGRAM, ALICE.id)
YABA = Point(6.5095, 3.3711)
DELIVERY = "1a2b3c4d-0000-4000-8000-000000000001"
GONE = "Bad Request: message can't be edited"


def north_of(point: Point, metres: float) -> Point:
    """``point`` moved ``metres`` north (a degree of latitude is 111.2 km)."""
    return Point(point.latitude + metres / 111_195.0, point.longitude)


def view(at: Point | None, *, eta: int | None = 12, name: str | None = "Ada Obi") -> RiderView:
    text = rider_text(
        SHIPPED,
        delivery_id=DELIVERY,
        rider_name=name,
        to_pickup=False,
        eta_minutes=eta,
        shown=at is not None,
    )
    return RiderView(
        delivery_id=DELIVERY,
        ref="1A2B3C4D",
        milestone="in_transit",
        rider_id="rdr_1",
        rider_name=name,
        vehicle_type="motorbike",
        position=None if at is None else Fix(at, 1000.0),
        eta_minutes=eta if at is not None else None,
        text=text,
    )


@pytest.fixture
def sender(bot: telegram.Bot, store: Store, manual_time: WaitingClock) -> TelegramSender:
    limiter = RateLimiter(SendLimits(), clock=manual_time.clock, sleep=manual_time.sleep)
    return TelegramSender(bot, store, limiter=limiter)


@pytest.fixture
def rider_map(sender: TelegramSender) -> TelegramRiderMap:
    return TelegramRiderMap(sender)


def methods(tg: FakeTelegram) -> list[str]:
    return [call.method for call in tg.calls() if call.method != "getMe"]


async def test_the_first_view_sends_a_live_location_then_its_text(
    tg: FakeTelegram, rider_map: TelegramRiderMap
) -> None:
    shown = await rider_map.show(CHAT, view(YABA), NOTHING_SHOWN)

    live, text = tg.sent_messages(ALICE.id)
    assert (live.method, text.method) == ("sendLocation", "sendMessage")
    assert int(live.params["live_period"]) == LIVE_PERIOD_FOREVER == 0x7FFFFFFF
    assert (live.params["latitude"], live.params["longitude"]) == (6.5095, 3.3711)
    assert text.text == (
        "Ada is bringing 1A2B3C4D to you. "
        "Arrival in about 12 min: an estimate from the distance, not a promise."
    )
    assert LiveShown.from_json(shown) == LiveShown(
        live_id=live.message_id, at=YABA, text_id=text.message_id, said=text.text
    )


async def test_the_pin_moves_when_the_rider_did_and_nothing_is_sent_when_nothing_changed(
    tg: FakeTelegram, rider_map: TelegramRiderMap
) -> None:
    shown = await rider_map.show(CHAT, view(YABA), NOTHING_SHOWN)
    calls = len(methods(tg))

    # GPS noise of a rider standing still: under MOVE_METRES, the same estimate.
    jitter = north_of(YABA, MOVE_METRES - 5)
    assert await rider_map.show(CHAT, view(jitter), shown) == shown
    assert len(methods(tg)) == calls

    moved = north_of(YABA, 150)
    shown = await rider_map.show(CHAT, view(moved), shown)
    assert methods(tg)[calls:] == ["editMessageLiveLocation"]
    (edit,) = tg.calls("editMessageLiveLocation")
    live_id = LiveShown.from_json(shown).live_id
    assert edit.ok and edit.params["message_id"] == live_id
    assert edit.params["latitude"] == pytest.approx(moved.latitude)
    assert LiveShown.from_json(shown).at == moved

    # The distance is judged from where the pin is, not from the last fix: small steps add up.
    step = north_of(moved, MOVE_METRES * 0.6)
    shown = await rider_map.show(CHAT, view(step), shown)
    shown = await rider_map.show(CHAT, view(north_of(step, MOVE_METRES * 0.6)), shown)
    assert methods(tg)[calls:] == ["editMessageLiveLocation"] * 2


async def test_a_new_estimate_edits_only_the_text(
    tg: FakeTelegram, rider_map: TelegramRiderMap
) -> None:
    shown = await rider_map.show(CHAT, view(YABA, eta=12), NOTHING_SHOWN)
    calls = len(methods(tg))

    shown = await rider_map.show(CHAT, view(YABA, eta=11), shown)

    assert methods(tg)[calls:] == ["editMessageText"]
    text_id = LiveShown.from_json(shown).text_id
    assert text_id is not None
    edited = tg.message(ALICE.id, text_id)
    assert edited is not None and "about 11 min" in edited["text"]


async def test_a_stale_fix_leaves_the_pin_and_says_the_position_is_not_available(
    tg: FakeTelegram, rider_map: TelegramRiderMap
) -> None:
    shown = await rider_map.show(CHAT, view(YABA), NOTHING_SHOWN)
    calls = len(methods(tg))

    shown = await rider_map.show(CHAT, view(None), shown)
    assert methods(tg)[calls:] == ["editMessageText"]
    record = LiveShown.from_json(shown)
    assert record.at == YABA and record.said == "Ada's position is not available right now."
    # Still stale next pass: nothing at all.
    assert await rider_map.show(CHAT, view(None), shown) == shown
    assert methods(tg)[calls:] == ["editMessageText"]


async def test_before_any_position_only_the_text_goes_out_and_the_pin_starts_later(
    tg: FakeTelegram, rider_map: TelegramRiderMap
) -> None:
    shown = await rider_map.show(CHAT, view(None), NOTHING_SHOWN)
    assert methods(tg) == ["sendMessage"]
    assert await rider_map.show(CHAT, view(None), shown) == shown
    assert methods(tg) == ["sendMessage"]

    shown = await rider_map.show(CHAT, view(YABA), shown)
    assert methods(tg) == ["sendMessage", "sendLocation", "editMessageText"]
    record = LiveShown.from_json(shown)
    assert record.live_id is not None and record.at == YABA
    assert len(tg.sent_messages(ALICE.id)) == 2  # one text, one live location: never another


async def test_the_end_stops_the_live_location(
    tg: FakeTelegram, rider_map: TelegramRiderMap
) -> None:
    shown = await rider_map.show(CHAT, view(YABA), NOTHING_SHOWN)
    live_id = LiveShown.from_json(shown).live_id

    await rider_map.end(CHAT, view(YABA), shown)

    (stop,) = tg.calls("stopMessageLiveLocation")
    assert stop.ok and stop.params["message_id"] == live_id
    # A chat that was only ever told the text has nothing to stop.
    await rider_map.end(CHAT, None, await rider_map.show(CHAT, view(None), NOTHING_SHOWN))
    assert len(tg.calls("stopMessageLiveLocation")) == 1


async def test_a_live_location_the_customer_stopped_is_let_go_quietly(
    tg: FakeTelegram, rider_map: TelegramRiderMap, caplog: pytest.LogCaptureFixture
) -> None:
    shown = await rider_map.show(CHAT, view(YABA), NOTHING_SHOWN)
    tg.fail_next("editMessageLiveLocation", error_code=400, description=GONE)

    with caplog.at_level(logging.INFO):
        shown = await rider_map.show(CHAT, view(north_of(YABA, 300), eta=9), shown)
    assert LiveShown.from_json(shown).stopped
    calls = len(methods(tg))

    # Every later pass, and the end: no call at all, so no new live message and no retries.
    for metres in (600, 900):
        assert await rider_map.show(CHAT, view(north_of(YABA, metres), eta=5), shown) == shown
    await rider_map.end(CHAT, None, shown)
    assert len(methods(tg)) == calls
    assert len(tg.sent_messages(ALICE.id)) == 2
    assert not [r for r in caplog.records if r.exc_info is not None]


async def test_a_deleted_text_is_left_deleted_while_the_pin_keeps_moving(
    tg: FakeTelegram, bot: telegram.Bot, rider_map: TelegramRiderMap
) -> None:
    shown = await rider_map.show(CHAT, view(YABA, eta=12), NOTHING_SHOWN)
    text_id = LiveShown.from_json(shown).text_id
    assert text_id is not None
    await bot.delete_message(ALICE.id, text_id)

    shown = await rider_map.show(CHAT, view(YABA, eta=10), shown)
    assert LiveShown.from_json(shown).text_kept
    shown = await rider_map.show(CHAT, view(north_of(YABA, 200), eta=8), shown)

    assert methods(tg)[-2:] == ["editMessageText", "editMessageLiveLocation"]
    assert len(tg.sent_messages(ALICE.id)) == 2


async def test_a_chat_that_blocked_the_bot_is_unreachable(
    tg: FakeTelegram, rider_map: TelegramRiderMap, store: Store
) -> None:
    shown = await rider_map.show(CHAT, view(YABA), NOTHING_SHOWN)
    tg.block_chat(ALICE.id)

    with pytest.raises(ChatUnreachable):
        await rider_map.show(CHAT, view(north_of(YABA, 100)), shown)
    with pytest.raises(ChatUnreachable):
        await rider_map.end(CHAT, None, shown)
    assert await store.blocked.is_blocked(CHAT)


async def test_a_failure_that_may_pass_keeps_what_was_shown_for_the_next_pass(
    tg: FakeTelegram, rider_map: TelegramRiderMap
) -> None:
    tg.fail_next("sendLocation", error_code=500)
    with pytest.raises(SendFailed) as failed:
        await rider_map.show(CHAT, view(YABA), NOTHING_SHOWN)
    assert tg.token not in str(failed.value)
    assert tg.sent_messages(ALICE.id) == []

    # The pin went out, its text did not: the record says so, and the next pass sends only it.
    tg.fail_next("sendMessage", error_code=500)
    shown = await rider_map.show(CHAT, view(YABA), NOTHING_SHOWN)
    assert LiveShown.from_json(shown).text_id is None
    shown = await rider_map.show(CHAT, view(YABA), shown)
    assert [m.method for m in tg.sent_messages(ALICE.id)] == ["sendLocation", "sendMessage"]

    # A failed move is tried again next pass, from where the pin still is.
    tg.fail_next("editMessageLiveLocation", error_code=502)
    with pytest.raises(SendFailed):
        await rider_map.show(CHAT, view(north_of(YABA, 100)), shown)
    moved = await rider_map.show(CHAT, view(north_of(YABA, 100)), shown)
    assert LiveShown.from_json(moved).at == north_of(YABA, 100)


async def test_its_calls_wait_for_the_chats_turn_with_every_other_message(
    tg: FakeTelegram, sender: TelegramSender, manual_time: WaitingClock
) -> None:
    rider_map: RiderMap = TelegramRiderMap(sender)
    for news in ("Picked up.", "On the way.", "Nearly there."):
        await sender.send(ALICE.id, news)  # the relay's news fill Alice's 3 in 3 s

    showing = asyncio.create_task(rider_map.show(CHAT, view(YABA), NOTHING_SHOWN))
    await manual_time.sleepers(1)
    assert not tg.calls("sendLocation")  # held by the same per-chat window as the news
    manual_time.advance(3.0)
    await manual_time.sleepers(1)  # the pin went; its text waits for the next slot in turn
    manual_time.advance(1.0)
    async with asyncio.timeout(5):
        shown = await showing
    assert [m.method for m in tg.sent_messages(ALICE.id)][-2:] == ["sendLocation", "sendMessage"]
    assert json.loads(shown)["live_id"] is not None


def test_distances_are_measured_on_the_earth() -> None:
    assert metres_between(YABA, YABA) == 0.0
    assert metres_between(YABA, north_of(YABA, 1000)) == pytest.approx(1000, rel=1e-3)
    # A degree of longitude at Lagos' latitude is about 110.6 km.
    assert metres_between(YABA, Point(6.5095, 4.3711)) == pytest.approx(110_600, rel=2e-3)
