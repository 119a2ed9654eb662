"""The fake Bot API's live locations (sendLocation with live_period, editMessageLiveLocation,
stopMessageLiveLocation), driven by python-telegram-bot's real Bot, on a hand-moved clock."""

from __future__ import annotations

import datetime as dtm
import ssl
from collections.abc import AsyncIterator, Coroutine
from typing import Any

import pytest
import telegram
from telegram import InlineKeyboardButton, InlineKeyboardMarkup
from telegram.error import BadRequest, Forbidden
from telegram.request import HTTPXRequest

from tests.support.clock import FakeClock

from . import FakeTelegram, TgUser

ALICE = TgUser(1001, "Alice")
YABA = (6.509, 3.3792)
IKOYI = (6.45, 3.438)
_TLS = ssl.create_default_context()  # one CA bundle for every client: PTB loads it per client


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def tg(clock: FakeClock) -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram.running(clock=clock) as fake:
        fake.add_chat(ALICE)
        yield fake


@pytest.fixture
async def bot(tg: FakeTelegram) -> AsyncIterator[telegram.Bot]:
    real_bot = telegram.Bot(
        tg.token,
        base_url=tg.api_base_url,
        base_file_url=tg.file_base_url,
        request=HTTPXRequest(httpx_kwargs={"verify": _TLS}),
        get_updates_request=HTTPXRequest(httpx_kwargs={"verify": _TLS}),
    )
    async with real_bot:
        yield real_bot


def move(
    bot: telegram.Bot, message_id: int, point: tuple[float, float], **options: Any
) -> Coroutine[Any, Any, telegram.Message | bool]:
    """``editMessageLiveLocation`` of Alice's message ``message_id`` to ``point``."""
    return bot.edit_message_live_location(
        ALICE.id, message_id, latitude=point[0], longitude=point[1], **options
    )


def refusal(tg: FakeTelegram, method: str) -> tuple[int | None, str | None]:
    """The error code and Telegram's description of the last call of ``method``."""
    call = tg.calls(method)[-1]
    return call.error_code, call.description


async def test_a_live_location_is_sent_with_its_live_fields(
    tg: FakeTelegram, bot: telegram.Bot
) -> None:
    sent = await bot.send_location(
        ALICE.id, *YABA, live_period=900, horizontal_accuracy=12.4, heading=90,
        proximity_alert_radius=200,
    )  # fmt: skip
    assert tg.calls("sendLocation")[-1].result["location"] == {
        "latitude": YABA[0],
        "longitude": YABA[1],
        "horizontal_accuracy": 13.0,  # rounded up to whole metres, as TDLib sends it
        "live_period": 900,
        "heading": 90,
        "proximity_alert_radius": 200,
    }
    assert sent.location is not None and sent.location.live_period == dtm.timedelta(seconds=900)
    live = tg.live_location(ALICE.id, sent.message_id)
    assert live is not None
    assert (live.position, live.edits, live.live, live.stopped) == (YABA, 0, True, False)
    assert tg.sent_messages(ALICE.id)[-1].message_id == sent.message_id


async def test_a_location_without_a_live_period_is_a_pin(
    tg: FakeTelegram, bot: telegram.Bot
) -> None:
    pin = await bot.send_location(ALICE.id, *YABA, heading=90)
    assert tg.calls("sendLocation")[-1].result["location"] == {
        "latitude": YABA[0],
        "longitude": YABA[1],
    }
    assert tg.live_location(ALICE.id, pin.message_id) is None
    with pytest.raises(BadRequest):
        await move(bot, pin.message_id, IKOYI)
    assert refusal(tg, "editMessageLiveLocation") == (
        400,
        "Bad Request: there is no live location in the message to edit",
    )


@pytest.mark.parametrize(
    ("options", "description"),
    [
        ({"live_period": 59}, "wrong live location period specified"),
        ({"live_period": 86_401}, "wrong live location period specified"),
        ({"live_period": -60}, "wrong live location period specified"),
        ({"live_period": 600, "heading": 361}, "wrong live location heading specified"),
        (
            {"live_period": 600, "proximity_alert_radius": 100_001},
            "wrong live location proximity alert radius specified",
        ),
    ],
)
async def test_send_refuses_what_telegram_refuses(
    tg: FakeTelegram, bot: telegram.Bot, options: dict[str, int], description: str
) -> None:
    with pytest.raises(BadRequest):
        await bot.send_location(ALICE.id, *YABA, **options)  # type: ignore[arg-type]
    assert refusal(tg, "sendLocation") == (400, f"Bad Request: {description}")
    assert tg.live_locations(ALICE.id) == []


async def test_edits_move_it_and_are_kept_in_order(tg: FakeTelegram, bot: telegram.Bot) -> None:
    sent = await bot.send_location(ALICE.id, *YABA, live_period=3600)
    keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("Track", callback_data="t")]])
    midway = ((YABA[0] + IKOYI[0]) / 2, (YABA[1] + IKOYI[1]) / 2)
    edited = await move(bot, sent.message_id, midway, reply_markup=keyboard)
    assert isinstance(edited, telegram.Message) and edited.edit_date is not None
    await move(bot, sent.message_id, IKOYI, heading=120)
    live = tg.live_location(ALICE.id, sent.message_id)
    assert live is not None and live.positions == (YABA, midway, IKOYI) and live.edits == 2
    now = tg.message(ALICE.id, sent.message_id)
    assert now is not None and now["location"]["heading"] == 120
    assert "reply_markup" not in now  # an edit without a keyboard removes it, as in Telegram
    assert len(tg.calls("editMessageLiveLocation")) == 2


async def test_an_edit_to_the_same_place_is_not_modified(
    tg: FakeTelegram, bot: telegram.Bot
) -> None:
    sent = await bot.send_location(ALICE.id, *YABA, live_period=600)
    with pytest.raises(BadRequest):
        await move(bot, sent.message_id, YABA)
    assert refusal(tg, "editMessageLiveLocation") == (
        400,
        "Bad Request: message is not modified: specified new message content and reply "
        "markup are exactly the same as a current content and reply markup of the message",
    )
    live = tg.live_location(ALICE.id, sent.message_id)
    assert live is not None and live.edits == 0


async def test_it_can_be_edited_only_until_its_live_period_is_over(
    tg: FakeTelegram, bot: telegram.Bot, clock: FakeClock
) -> None:
    sent = await bot.send_location(ALICE.id, *YABA, live_period=600)
    clock.advance(599)
    await move(bot, sent.message_id, IKOYI)
    clock.advance(1)
    with pytest.raises(BadRequest):
        await move(bot, sent.message_id, YABA)
    assert refusal(tg, "editMessageLiveLocation") == (400, "Bad Request: message can't be edited")
    with pytest.raises(BadRequest):
        await bot.stop_message_live_location(ALICE.id, sent.message_id)
    over = tg.live_location(ALICE.id, sent.message_id)
    assert over is not None and (over.live, over.stopped, over.position) == (False, False, IKOYI)
    shown = tg.message(ALICE.id, sent.message_id)
    assert shown is not None and "live_period" not in shown["location"]


async def test_an_edit_may_extend_the_live_period_by_a_day_at_most(
    tg: FakeTelegram, bot: telegram.Bot, clock: FakeClock
) -> None:
    sent = await bot.send_location(ALICE.id, *YABA, live_period=600)
    with pytest.raises(BadRequest):
        await move(bot, sent.message_id, IKOYI, live_period=600 + 86_401)
    assert refusal(tg, "editMessageLiveLocation")[1] == (
        "Bad Request: wrong live location period specified"
    )
    await move(bot, sent.message_id, IKOYI, live_period=1800)
    clock.advance(1200)
    await move(bot, sent.message_id, YABA)  # still live
    forever = await bot.send_location(ALICE.id, *YABA, live_period=0x7FFFFFFF)
    clock.advance(400 * 86_400)
    await move(bot, forever.message_id, IKOYI)
    live = tg.live_location(ALICE.id, forever.message_id)
    assert live is not None and live.live and live.live_period == 0x7FFFFFFF


async def test_stop_ends_it_once(tg: FakeTelegram, bot: telegram.Bot) -> None:
    sent = await bot.send_location(ALICE.id, *YABA, live_period=600, heading=45)
    stopped = await bot.stop_message_live_location(ALICE.id, sent.message_id)
    assert isinstance(stopped, telegram.Message) and stopped.location is not None
    assert tg.calls("stopMessageLiveLocation")[-1].result["location"] == {
        "latitude": YABA[0],
        "longitude": YABA[1],
    }
    live = tg.live_location(ALICE.id, sent.message_id)
    assert live is not None and (live.stopped, live.live) == (True, False)
    for call in (
        bot.stop_message_live_location(ALICE.id, sent.message_id),
        move(bot, sent.message_id, IKOYI),
    ):
        with pytest.raises(BadRequest):
            await call
        assert tg.calls()[-1].description == "Bad Request: message can't be edited"


async def test_what_cannot_be_edited_is_refused_in_telegrams_words(
    tg: FakeTelegram, bot: telegram.Bot
) -> None:
    text = await bot.send_message(ALICE.id, "Your rider is on the way")
    with pytest.raises(BadRequest):
        await bot.stop_message_live_location(ALICE.id, text.message_id)
    assert refusal(tg, "stopMessageLiveLocation") == (
        400,
        "Bad Request: there is no live location in the message to edit",
    )
    with pytest.raises(BadRequest):
        await move(bot, 99, IKOYI)
    assert refusal(tg, "editMessageLiveLocation") == (400, "Bad Request: message to edit not found")
    sent = await bot.send_location(ALICE.id, *YABA, live_period=600)
    tg.block_chat(ALICE.id)
    with pytest.raises(Forbidden):
        await move(bot, sent.message_id, IKOYI)
    assert refusal(tg, "editMessageLiveLocation") == (403, "Forbidden: bot was blocked by the user")
    with pytest.raises(Forbidden):
        await bot.stop_message_live_location(ALICE.id, sent.message_id)


async def test_live_locations_lists_a_chats_and_forgets_deleted_ones(
    tg: FakeTelegram, bot: telegram.Bot
) -> None:
    first = await bot.send_location(ALICE.id, *YABA, live_period=600)
    second = await bot.send_location(ALICE.id, *IKOYI, live_period=600)
    assert [live.message_id for live in tg.live_locations(ALICE.id)] == [
        first.message_id,
        second.message_id,
    ]
    await bot.delete_message(ALICE.id, first.message_id)
    assert [live.message_id for live in tg.live_locations(ALICE.id)] == [second.message_id]
    assert tg.live_location(ALICE.id, first.message_id) is None
