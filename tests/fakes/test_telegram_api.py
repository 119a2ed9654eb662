"""The fake Telegram Bot API, driven by python-telegram-bot's real Bot and Application."""

from __future__ import annotations

import asyncio
import datetime as dtm
import ssl
from collections.abc import AsyncIterator

import httpx
import pytest
import telegram
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from telegram import (
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    KeyboardButton,
    ReplyKeyboardMarkup,
    ReplyKeyboardRemove,
)
from telegram.error import (
    BadRequest,
    Conflict,
    EndPointNotFound,
    Forbidden,
    InvalidToken,
    RetryAfter,
)
from telegram.ext import ApplicationBuilder, CommandHandler, ContextTypes
from telegram.request import HTTPXRequest

from . import FakeTelegram, TgChat, TgUser, post_update

ALICE = TgUser(1001, "Alice", username="alice")
BOB = TgUser(1002, "Bob")
JPEG = b"\xff\xd8\xff\xe0" + bytes(range(256)) * 4


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram.running() as fake:
        fake.add_chat(ALICE)
        yield fake


# PTB builds two httpx clients per Bot and each loads the CA bundle (~40 ms) although the fake
# is plain http; one shared context keeps this suite fast.
_TLS = ssl.create_default_context()


def ptb_bot(tg: FakeTelegram, token: str | None = None) -> telegram.Bot:
    return telegram.Bot(
        token or tg.token,
        base_url=tg.api_base_url,
        base_file_url=tg.file_base_url,
        request=HTTPXRequest(httpx_kwargs={"verify": _TLS}),
        get_updates_request=HTTPXRequest(httpx_kwargs={"verify": _TLS}),
    )


@pytest.fixture
async def bot(tg: FakeTelegram) -> AsyncIterator[telegram.Bot]:
    async with ptb_bot(tg) as real_bot:
        yield real_bot


def yes_no() -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton("Yes", callback_data="confirm:1"),
                InlineKeyboardButton("No", callback_data="cancel:1"),
            ]
        ]
    )


async def test_get_me_describes_the_bot(tg: FakeTelegram, bot: telegram.Bot) -> None:
    me = await bot.get_me()

    assert (me.id, me.username, me.is_bot) == (tg.bot.id, "fake_delivery_bot", True)
    assert tg.calls("getMe")[-1].ok


async def test_only_the_configured_token_is_accepted(tg: FakeTelegram) -> None:
    stranger = ptb_bot(tg, "7000000002:AAOtherToken")
    with pytest.raises(InvalidToken, match="rejected by the server"):
        await stranger.initialize()  # PTB checks the token with getMe
    await stranger.shutdown()
    async with httpx.AsyncClient() as client:
        response = await client.post(f"{tg.api_base_url}WRONG/getMe")
    assert response.status_code == 401
    assert response.json() == {"ok": False, "error_code": 401, "description": "Unauthorized"}


async def test_unknown_method_is_not_found(tg: FakeTelegram, bot: telegram.Bot) -> None:
    with pytest.raises(EndPointNotFound):
        await bot.do_api_request("sendTelepathy")
    async with httpx.AsyncClient() as client:
        response = await client.post(f"{tg.api_base_url}{tg.token}/sendTelepathy")
    assert response.status_code == 404
    assert response.json()["description"] == "Not Found: method not found"


async def test_send_message_records_text_and_inline_keyboard(
    tg: FakeTelegram, bot: telegram.Bot
) -> None:
    first = await bot.send_message(
        ALICE.id, "Pick <b>one</b>", parse_mode="HTML", reply_markup=yes_no()
    )
    second = await bot.send_message(ALICE.id, "Another")

    sent = tg.sent_messages(ALICE.id)
    assert [m.text for m in sent] == ["Pick one", "Another"]
    assert (first.message_id, second.message_id) == (1, 2)
    assert sent[0].params["parse_mode"] == "HTML"
    assert sent[0].reply_markup == {
        "inline_keyboard": [
            [
                {"text": "Yes", "callback_data": "confirm:1"},
                {"text": "No", "callback_data": "cancel:1"},
            ]
        ]
    }
    assert sent[0].callback_data("No") == "cancel:1"
    assert first.reply_markup == yes_no()
    assert first.entities[0].type == "bold"
    assert first.from_user is not None and first.from_user.id == tg.bot.id
    assert first.chat.type == "private"


async def test_reply_keyboards_are_recorded_but_not_echoed(
    tg: FakeTelegram, bot: telegram.Bot
) -> None:
    keyboard = ReplyKeyboardMarkup(
        [
            [KeyboardButton("Send my location", request_location=True)],
            [KeyboardButton("Share my phone", request_contact=True)],
        ],
        one_time_keyboard=True,
    )
    echoed = await bot.send_message(ALICE.id, "Where?", reply_markup=keyboard)
    await bot.send_message(ALICE.id, "Thanks", reply_markup=ReplyKeyboardRemove())

    asked, thanked = tg.sent_messages(ALICE.id)
    assert asked.button("Send my location")["request_location"] is True
    assert asked.button("Share my phone")["request_contact"] is True
    assert thanked.reply_markup == {"remove_keyboard": True}
    assert echoed.reply_markup is None  # Telegram echoes inline keyboards only


async def test_edit_message_text_changes_the_message_in_place(
    tg: FakeTelegram, bot: telegram.Bot
) -> None:
    sent = await bot.send_message(ALICE.id, "Step 1", reply_markup=yes_no())

    edited = await bot.edit_message_text(
        "Step 2", chat_id=ALICE.id, message_id=sent.message_id, reply_markup=yes_no()
    )
    assert isinstance(edited, telegram.Message)
    assert edited.text == "Step 2" and edited.edit_date is not None

    with pytest.raises(BadRequest, match="not modified"):
        await bot.edit_message_text(
            "Step 2", chat_id=ALICE.id, message_id=sent.message_id, reply_markup=yes_no()
        )
    # Without reply_markup, Telegram drops the inline keyboard.
    await bot.edit_message_text("Done", chat_id=ALICE.id, message_id=sent.message_id)
    current = tg.message(ALICE.id, sent.message_id)
    assert current is not None and current["text"] == "Done" and "reply_markup" not in current
    assert tg.sent_messages(ALICE.id)[0].text == "Step 1"  # the record keeps what was sent


async def test_edit_reply_markup_and_delete_message(tg: FakeTelegram, bot: telegram.Bot) -> None:
    sent = await bot.send_message(ALICE.id, "Choose", reply_markup=yes_no())

    await bot.edit_message_reply_markup(ALICE.id, sent.message_id, reply_markup=None)
    current = tg.message(ALICE.id, sent.message_id)
    assert current is not None and "reply_markup" not in current

    assert await bot.delete_message(ALICE.id, sent.message_id) is True
    assert tg.message(ALICE.id, sent.message_id) is None
    with pytest.raises(BadRequest, match="Message to delete not found"):
        await bot.delete_message(ALICE.id, sent.message_id)
    with pytest.raises(BadRequest, match="Message to edit not found"):
        await bot.edit_message_text("x", chat_id=ALICE.id, message_id=sent.message_id)


async def test_a_tap_is_answered_once(tg: FakeTelegram, bot: telegram.Bot) -> None:
    sent = await bot.send_message(ALICE.id, "Confirm?", reply_markup=yes_no())
    tg.push_update(tg.updates.tap(tg.sent_messages(ALICE.id)[0], "Yes"))

    (update,) = await bot.get_updates(timeout=0)
    query = update.callback_query
    assert query is not None and query.data == "confirm:1"
    assert query.from_user.id == ALICE.id
    assert query.message is not None and query.message.message_id == sent.message_id

    assert await bot.answer_callback_query(query.id, text="Noted") is True
    assert tg.callback_answer(query.id) == {"callback_query_id": query.id, "text": "Noted"}
    with pytest.raises(BadRequest, match=r"(?i)query is too old"):
        await bot.answer_callback_query(query.id)


async def test_a_tap_sees_the_keyboard_as_edited(tg: FakeTelegram, bot: telegram.Bot) -> None:
    sent = await bot.send_message(ALICE.id, "Confirm?", reply_markup=yes_no())
    await bot.edit_message_text("Confirmed", chat_id=ALICE.id, message_id=sent.message_id)

    with pytest.raises(LookupError, match="no button 'Yes'"):
        tg.updates.tap(tg.sent_messages(ALICE.id)[0], "Yes")


async def test_get_file_downloads_the_largest_photo(tg: FakeTelegram, bot: telegram.Bot) -> None:
    small, large = b"\xff\xd8small", JPEG
    tg.push_update(tg.updates.photo(ALICE, [small, large], caption="my parcel"))

    (update,) = await bot.get_updates(timeout=0)
    assert update.message is not None
    photo = update.message.photo
    assert [size.width for size in photo] == [800, 1280]
    file = await bot.get_file(photo[-1].file_id)
    data = await file.download_as_bytearray()

    assert bytes(data) == large
    assert file.file_size == len(large)
    assert file.file_path is not None and file.file_path.startswith(tg.file_base_url)
    assert [f.data for f in tg.downloads] == [large]
    with pytest.raises(BadRequest, match="Invalid file_id"):
        await bot.get_file("no-such-file")


async def test_send_photo_upload_is_multipart(tg: FakeTelegram, bot: telegram.Bot) -> None:
    message = await bot.send_photo(ALICE.id, JPEG, caption="*Label*", parse_mode="MarkdownV2")

    (call,) = tg.calls("sendPhoto")
    assert call.files["photo"].data == JPEG
    assert message.caption == "Label" and message.caption_entities[0].type == "bold"
    file = await bot.get_file(message.photo[-1].file_id)
    assert bytes(await file.download_as_bytearray()) == JPEG


async def test_send_document_upload_keeps_its_name_and_refuses_an_empty_file(
    tg: FakeTelegram, bot: telegram.Bot
) -> None:
    sent = await bot.send_document(ALICE.id, b'{"a": 1}', filename="my-data.json", caption="Yours")

    (call,) = tg.calls("sendDocument")
    assert call.files["document"].data == b'{"a": 1}'
    assert sent.document is not None and sent.document.file_name == "my-data.json"
    assert sent.caption == "Yours" and tg.sent_messages(ALICE.id)[-1].text == "Yours"
    with pytest.raises(BadRequest, match=r"(?i)file must be non-empty"):
        await bot.send_document(ALICE.id, b"", filename="empty.json")


async def test_429_raises_retry_after(
    tg: FakeTelegram, bot: telegram.Bot, monkeypatch: pytest.MonkeyPatch
) -> None:
    # PTB 22 warns (an error under filterwarnings=error) on RetryAfter unless opted in.
    monkeypatch.setenv("PTB_TIMEDELTA", "true")
    tg.fail_next("sendMessage", retry_after=7)

    with pytest.raises(RetryAfter) as caught:
        await bot.send_message(ALICE.id, "hi")
    assert caught.value.retry_after == dtm.timedelta(seconds=7)
    await bot.send_message(ALICE.id, "hi again")

    failed, succeeded = tg.calls("sendMessage")
    assert failed.response == {
        "ok": False,
        "error_code": 429,
        "description": "Too Many Requests: retry after 7",
        "parameters": {"retry_after": 7},
    }
    assert succeeded.ok and [m.text for m in tg.sent_messages()] == ["hi again"]


async def test_injected_failures_can_target_one_chat(tg: FakeTelegram, bot: telegram.Bot) -> None:
    tg.add_chat(BOB)
    tg.fail_next("sendMessage", error_code=500, chat_id=BOB.id, count=2)

    await bot.send_message(ALICE.id, "fine")
    for _ in range(2):
        with pytest.raises(telegram.error.NetworkError, match="Internal Server Error"):
            await bot.send_message(BOB.id, "fails")
    await bot.send_message(BOB.id, "fine too")
    assert [m.text for m in tg.sent_messages()] == ["fine", "fine too"]


async def test_blocked_chat_is_forbidden(tg: FakeTelegram, bot: telegram.Bot) -> None:
    tg.block_chat(ALICE.id)
    with pytest.raises(Forbidden, match="bot was blocked by the user"):
        await bot.send_message(ALICE.id, "hello?")
    assert tg.calls("sendMessage")[-1].response == {
        "ok": False,
        "error_code": 403,
        "description": "Forbidden: bot was blocked by the user",
    }
    tg.unblock_chat(ALICE.id)
    await bot.send_message(ALICE.id, "welcome back")


async def test_unknown_chat_is_not_found(bot: telegram.Bot) -> None:
    with pytest.raises(BadRequest, match="Chat not found"):
        await bot.send_message(424242, "who?")


async def test_telegram_checks_are_applied(tg: FakeTelegram, bot: telegram.Bot) -> None:
    with pytest.raises(BadRequest, match=r"(?i)character '\.' is reserved"):
        await bot.send_message(ALICE.id, "Total: 5.00", parse_mode="MarkdownV2")
    with pytest.raises(BadRequest, match=r'(?i)unsupported start tag "script"'):
        await bot.send_message(ALICE.id, "<script>x</script>", parse_mode="HTML")
    with pytest.raises(BadRequest, match="Button_data_invalid"):
        await bot.send_message(
            ALICE.id,
            "x",
            reply_markup=InlineKeyboardMarkup(
                [[InlineKeyboardButton("Long", callback_data="x" * 65)]]
            ),
        )
    with pytest.raises(BadRequest, match="Message text is empty"):
        await bot.send_message(ALICE.id, "   ")
    with pytest.raises(BadRequest, match="Message is too long"):
        await bot.send_message(ALICE.id, "x" * 4097)
    assert tg.sent_messages() == []


async def test_commands_are_stored_per_scope(tg: FakeTelegram, bot: telegram.Bot) -> None:
    operators = telegram.BotCommandScopeChat(chat_id=-100)
    with pytest.raises(BadRequest, match="Chat not found"):
        await bot.set_my_commands([("riders", "Riders")], scope=operators)
    tg.add_chat(TgChat.group(-100, "Operators"))
    await bot.set_my_commands([("start", "Begin"), ("new", "New delivery")])
    await bot.set_my_commands([("riders", "Riders")], scope=operators)

    assert [c.command for c in await bot.get_my_commands()] == ["start", "new"]
    assert tg.commands({"type": "chat", "chat_id": -100}) == [
        {"command": "riders", "description": "Riders"}
    ]
    await bot.delete_my_commands()
    assert await bot.get_my_commands() == ()
    with pytest.raises(BadRequest, match="Bot_command_invalid"):
        await bot.set_my_commands([("Start!", "Bad name")])


async def test_long_poll_wakes_on_a_pushed_update(tg: FakeTelegram, bot: telegram.Bot) -> None:
    polling = asyncio.create_task(bot.get_updates(timeout=10))
    await tg.wait_for_long_poll()
    tg.push_update(tg.updates.command(ALICE, "start", "ref-42"))

    (update,) = await asyncio.wait_for(polling, timeout=2)
    assert update.message is not None and update.message.text == "/start ref-42"
    assert update.message.entities[0].type == "bot_command"

    # The next offset confirms it; an empty queue answers [] when the timeout ends.
    later = await bot.get_updates(
        offset=update.update_id + 1, timeout=dtm.timedelta(milliseconds=100)
    )
    assert later == ()
    assert tg.pending_updates == []


async def test_a_second_poller_ends_the_first_with_conflict(
    tg: FakeTelegram, bot: telegram.Bot
) -> None:
    first = asyncio.create_task(bot.get_updates(timeout=10))
    await tg.wait_for_long_poll()

    async with ptb_bot(tg) as second_instance:
        assert await second_instance.get_updates(timeout=0) == ()
    with pytest.raises(Conflict, match="terminated by other getUpdates request"):
        await first


async def test_webhook_urls_must_be_https_except_on_loopback(bot: telegram.Bot) -> None:
    with pytest.raises(BadRequest, match=r"(?i)an https url must be provided"):
        await bot.set_webhook("http://bot.example.com/telegram")
    with pytest.raises(BadRequest, match=r"(?i)secret token contains unallowed characters"):
        await bot.set_webhook("https://bot.example.com/telegram", secret_token="no spaces")

    assert await bot.set_webhook("http://127.0.0.1:8080/telegram") is True
    assert (await bot.get_webhook_info()).url == "http://127.0.0.1:8080/telegram"
    await bot.delete_webhook()
    assert (await bot.get_webhook_info()).url == ""


async def test_webhook_mode_pushes_updates_with_the_secret() -> None:
    received: list[tuple[str | None, dict[str, object]]] = []
    answers = [503, 200]

    async def telegram_route(request: Request) -> Response:
        received.append(
            (request.headers.get("x-telegram-bot-api-secret-token"), await request.json())
        )
        return Response(status_code=answers.pop(0))

    receiver = Starlette(routes=[Route("/telegram", telegram_route, methods=["POST"])])
    transport = httpx.ASGITransport(app=receiver)
    async with (
        FakeTelegram.running(webhook_transport=transport, webhook_retry_delay=0.01) as tg,
        ptb_bot(tg) as webhook_bot,
    ):
        await webhook_bot.set_webhook("https://bot.example.com/telegram", secret_token="s3cr-t")
        update = tg.updates.text(ALICE, "hello")
        tg.push_update(update)

        failed = await tg.wait_for_delivery(update["update_id"], delivered=False)
        delivered = await tg.wait_for_delivery(update["update_id"])
        assert (failed.status_code, delivered.status_code) == (503, 200)
        info = await webhook_bot.get_webhook_info()
        assert info.url == "https://bot.example.com/telegram"
        assert info.pending_update_count == 0
        assert info.last_error_message == "Wrong response from the webhook: 503 Service Unavailable"
        with pytest.raises(Conflict, match="webhook is active"):
            await webhook_bot.get_updates(timeout=0)
    assert [secret for secret, _ in received] == ["s3cr-t", "s3cr-t"]
    assert received[1][1] == update


async def test_post_update_sends_what_telegram_sends() -> None:
    seen: list[tuple[str | None, bytes]] = []

    async def telegram_route(request: Request) -> Response:
        seen.append((request.headers.get("x-telegram-bot-api-secret-token"), await request.body()))
        return Response(status_code=200)

    app = Starlette(routes=[Route("/telegram", telegram_route, methods=["POST"])])
    response = await post_update(
        "http://bot.test/telegram", {"update_id": 1, "message": {}}, secret_token="forged", app=app
    )

    assert response.status_code == 200
    assert seen == [("forged", b'{"update_id": 1, "message": {}}')]


async def test_application_polling_answers_start(tg: FakeTelegram) -> None:
    async def start(update: telegram.Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_message is not None
        await update.effective_message.reply_text(f"Welcome! payload={context.args}")

    application = (
        ApplicationBuilder()
        .token(tg.token)
        .base_url(tg.api_base_url)
        .base_file_url(tg.file_base_url)
        .build()
    )
    application.add_handler(CommandHandler("start", start))
    async with application:
        await application.start()
        assert application.updater is not None
        await application.updater.start_polling(poll_interval=0, timeout=10)
        try:
            tg.push_update(tg.updates.command(ALICE, "start", "order-7"))
            reply = await tg.wait_for_message(ALICE.id)
        finally:
            await application.updater.stop()
            await application.stop()

    assert reply.text == "Welcome! payload=['order-7']"
    assert tg.pending_updates == []  # confirmed by the final getUpdates at shutdown


async def test_group_chats_have_their_own_message_ids(tg: FakeTelegram, bot: telegram.Bot) -> None:
    operators = TgChat.group(-1001, "Operators")
    tg.push_update(tg.updates.command(BOB, "riders", "D-1", chat=operators, mention_bot=True))

    (update,) = await bot.get_updates(timeout=0)
    assert update.message is not None and update.message.text == "/riders@fake_delivery_bot D-1"
    reply = await bot.send_message(operators.id, "No riders nearby")
    assert (reply.message_id, reply.chat.type) == (2, "group")


async def test_json_bodies_and_query_strings_are_accepted_too(tg: FakeTelegram) -> None:
    async with httpx.AsyncClient(base_url=f"{tg.api_base_url}{tg.token}/") as client:
        sent = await client.post(
            "SENDMESSAGE",  # method names are case-insensitive
            json={
                "chat_id": str(ALICE.id),
                "text": "hi",
                "reply_markup": {"remove_keyboard": True},
            },
        )
        me = await client.get("getMe", params={"unused": "1"})

    assert sent.json()["result"]["text"] == "hi"
    assert me.json()["result"]["id"] == tg.bot.id
    (call,) = tg.calls("sendMessage")
    assert call.params == {
        "chat_id": ALICE.id,
        "text": "hi",
        "reply_markup": {"remove_keyboard": True},
    }


async def test_allowed_updates_filter_is_remembered(tg: FakeTelegram, bot: telegram.Bot) -> None:
    await bot.get_updates(timeout=0, allowed_updates=["message"])
    sent = await bot.send_message(ALICE.id, "Confirm?", reply_markup=yes_no())

    assert tg.push_update(tg.updates.tap(sent.to_dict(), "Yes")) is False
    assert tg.push_update(tg.updates.text(ALICE, "hello")) is True
    (update,) = await bot.get_updates(timeout=0)
    assert update.message is not None and update.message.text == "hello"


async def test_waiting_for_a_message_that_never_comes_says_what_was_sent(
    tg: FakeTelegram, bot: telegram.Bot
) -> None:
    await bot.send_message(ALICE.id, "only this")

    with pytest.raises(
        TimeoutError, match=r"no message to chat 1001 \(sent so far: \['only this'\]\) within 0.05s"
    ):
        await tg.wait_for_message(ALICE.id, lambda m: m.text == "other", timeout=0.05)
