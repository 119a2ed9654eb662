"""Telegram webhook mode: ``/telegram`` takes only Telegram's pushes, each update once."""

from __future__ import annotations

import httpx

from bot.chat_ref import ChatRef
from bot.telegram.webhook_route import SECRET_TOKEN_HEADER
from tests.e2e.conftest import ADA, PUBLIC_BASE_URL, SECRET_TOKEN, BotStack, MakeStack
from tests.fakes import post_update

TELEGRAM_URL = f"{PUBLIC_BASE_URL}/telegram"


async def test_the_bot_registers_its_webhook_and_answers_pushed_updates(
    make_stack: MakeStack,
) -> None:
    stack = await make_stack(mode="webhook")

    webhook = stack.tg.webhook
    assert webhook is not None
    assert (webhook.url, webhook.secret_token) == (TELEGRAM_URL, SECRET_TOKEN)
    assert webhook.allowed_updates == ["message", "callback_query"]

    reply = await stack.command(ADA, "new")  # the fake pushes it to /telegram
    assert [m.text for m in reply] == ["What would you like to order?"]
    await stack.tap(reply[0], "✓ Pickup & delivery")
    assert (stack.prompt(ADA.id).text or "").startswith(
        "Where should the rider pick the package up?"
    )


async def test_a_wrong_or_missing_secret_token_is_refused(make_stack: MakeStack) -> None:
    stack = await make_stack(mode="webhook")
    app = stack.bot.web_app

    forged = stack.tg.updates.command(ADA, "new")
    for secret in ("not-the-secret", None, SECRET_TOKEN + "x", ""):
        refused = await post_update(TELEGRAM_URL, forged, secret_token=secret, app=app)
        assert (refused.status_code, refused.text) == (403, "Forbidden")
    assert stack.tg.sent_messages(ADA.id) == []

    accepted = await post_update(TELEGRAM_URL, forged, secret_token=SECRET_TOKEN, app=app)
    assert accepted.status_code == 200
    assert stack.processor is not None
    await stack.processor.processed(forged["update_id"])
    assert [m.text for m in stack.tg.sent_messages(ADA.id)] == ["What would you like to order?"]


async def test_a_repeated_update_id_is_handled_once_even_across_a_restart(
    make_stack: MakeStack,
) -> None:
    stack = await make_stack(mode="webhook")
    update = stack.tg.updates.command(ADA, "new")

    async def deliver(stack: BotStack, times: int) -> None:
        response = await post_update(
            TELEGRAM_URL, update, secret_token=SECRET_TOKEN, app=stack.bot.web_app
        )
        assert response.status_code == 200  # acknowledged, so Telegram stops resending
        assert stack.processor is not None
        await stack.processor.processed(update["update_id"], times=times)

    await deliver(stack, times=1)
    await deliver(stack, times=2)
    await stack.restart()
    await deliver(stack, times=1)

    assert [m.text for m in stack.tg.sent_messages(ADA.id)] == ["What would you like to order?"]


async def test_what_is_not_an_update_is_refused_without_detail(make_stack: MakeStack) -> None:
    stack = await make_stack(mode="webhook")
    app = stack.bot.web_app

    for body in (b"[1, 2]", b"not json", b"\xff"):
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app)) as web:
            response = await web.post(
                TELEGRAM_URL, content=body, headers={SECRET_TOKEN_HEADER: SECRET_TOKEN}
            )
        assert (response.status_code, response.text) == (400, "Bad Request")
    # An update the bot cannot read is dropped but acknowledged: Telegram would repeat it.
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app)) as web:
        response = await web.post(
            TELEGRAM_URL,
            content=b'{"update_id": 1, "message": 5}',
            headers={SECRET_TOKEN_HEADER: SECRET_TOKEN},
        )
    assert (response.status_code, response.text) == (200, "OK")
    too_large = b"{" + b" " * 2_000_000 + b"}"
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app)) as web:
        response = await web.post(
            TELEGRAM_URL, content=too_large, headers={SECRET_TOKEN_HEADER: SECRET_TOKEN}
        )
    assert response.status_code == 413


async def test_a_repeated_update_that_changed_no_session_is_handled_once(
    make_stack: MakeStack,
) -> None:
    stack = await make_stack(mode="webhook")
    update = stack.tg.updates.command(ADA, "help")  # no order open: no session is written

    for times in (1, 2):
        response = await post_update(
            TELEGRAM_URL, update, secret_token=SECRET_TOKEN, app=stack.bot.web_app
        )
        assert response.status_code == 200
        assert stack.processor is not None
        await stack.processor.processed(update["update_id"], times=times)

    assert len(stack.tg.sent_messages(ADA.id)) == 1
    assert await stack.bot.store.sessions.get(ChatRef("telegram", ADA.id)) is None
