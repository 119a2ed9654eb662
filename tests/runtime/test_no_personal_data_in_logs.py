"""No customer's personal data in the log, in any mode and format, nor in ``/metrics``.

Every line is caught by the handler ``deliverybot run`` installs (``log_handler``), once per
mode: ``[logging]`` level DEBUG and INFO, each as text and as JSON lines, four handlers on one
run of the bot, so each mode sees exactly the lines it would write. The flows are driven for
real: a Telegram order, a hand-off, news to a chat that blocked the bot and an operator's
block (``make_stack``); a WhatsApp order over the simulated Cloud API, its customer's "my
data" and "forget me", a hand-off, a customer marked unreachable who writes again, news that
Meta fails to deliver (its operator alert logged, the bot having no operator chat) and a
blocked customer; an agent's order over the JSON API; the alerts about a lost create that
reach nobody; errors that echo what they refused (pydantic, PostgreSQL) in a traceback. Then
no line holds the customers' names, phones (in any spelling, and the WhatsApp number as a chat
id), addresses or parcel texts, chats are named by pseudonyms, and ``/metrics`` holds none of
those values either.
"""

from __future__ import annotations

import hashlib
import hmac
import io
import logging
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest
from pydantic import BaseModel, Field, ValidationError
from starlette.applications import Starlette

from bot.chat_ref import TELEGRAM, WHATSAPP, ChatRef, UserRef
from bot.config import Config, LoggingConfig, MetricsConfig
from bot.log_context import log_context
from bot.metrics.business_metrics import Metrics
from bot.metrics.endpoint import MetricsEndpoint
from bot.ordering.alerting import send_alert
from bot.runtime.logs import RedactSecrets, log_handler, log_to_stderr
from bot.store import Store
from bot.whatsapp_fake.graph_errors import MESSAGE_UNDELIVERABLE
from tests.agents.conftest import running_world
from tests.e2e.conftest import ADA, ADA_PHONE, RECEIVER_PHONE, MakeStack, make_stack
from tests.ordering.conftest import JPEG
from tests.whatsapp.channel import test_whatsapp_channel as whatsapp_world
from tests.whatsapp.channel.test_whatsapp_channel import CHAT, CUSTOMER, tap, world
from tests.whatsapp.channel.test_whatsapp_channel import config as whatsapp_config
from tests.whatsapp.talk.world import RecordingStaff

__all__ = ["make_stack"]  # the e2e stack's fixture, used here

MODES = [(level, form) for level in ("DEBUG", "INFO") for form in ("text", "json")]
PSEUDONYM_KEY = "log-pseudonym-key-0123456789abcdef0123"
METRICS_TOKEN = "metrics-token-0123456789"
PARCEL = "Grandma Ifeoma's blue parcel"
PERSONAL = (
    "Bola Ahmed", "Ada Obi", "Herbert Macaulay", "pair of shoes", PARCEL,
    CUSTOMER, "08031234567", "0803 123 4567", ADA_PHONE, RECEIVER_PHONE, "2348022223333",
    "08022223333", "0802 222 3333", f"telegram:{ADA.id}", f"chat {ADA.id}",
)  # fmt: skip


@pytest.fixture
def every_mode(restore_logging: None) -> Iterator[dict[tuple[str, str], io.StringIO]]:
    """The root logger writing each mode's lines into its own buffer."""
    log_to_stderr(LoggingConfig(level="DEBUG"), [])  # the libraries' floors, as ``run`` sets
    streams: dict[tuple[str, str], io.StringIO] = {}
    handlers: list[logging.Handler] = []
    for level, form in MODES:
        section = LoggingConfig.model_validate(
            {"level": level, "format": form, "pseudonym_key": PSEUDONYM_KEY}
        )
        streams[level, form] = io.StringIO()
        handler = log_handler(section, RedactSecrets([]), streams[level, form])
        handler.setLevel(section.level_number)
        handlers.append(handler)
    logging.getLogger().handlers[:] = handlers
    yield streams


def assert_nothing_personal(streams: dict[tuple[str, str], io.StringIO], *named: str) -> None:
    """No mode's lines hold a ``PERSONAL`` value; each names the chats in ``named`` (channels)
    by pseudonyms, so the lines that would have named them are there."""
    for mode, stream in streams.items():
        text = stream.getvalue()
        assert text, mode
        for value in PERSONAL:
            assert value not in text, (mode, value)
        for channel in named:
            assert re.search(rf"{channel}:#[0-9a-f]{{8}}\b", text), (mode, channel)
        assert ":#?" not in text, mode  # every pseudonym was written with the key


async def scraped(store: Store, metrics: Metrics) -> str:
    """``/metrics`` as Prometheus reads it."""
    endpoint = MetricsEndpoint(store, metrics, token=METRICS_TOKEN, clock=time.time)
    app = Starlette(routes=[endpoint.route("/metrics")])
    headers = {"Authorization": f"Bearer {METRICS_TOKEN}"}
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app)) as client:
        response = await client.get("http://bot/metrics", headers=headers)
    assert response.status_code == 200
    return response.text


def assert_no_personal_metric(exposition: str) -> None:
    assert "deliverybot_" in exposition
    # What a series could leak is in its name and labels (and the help texts): a sample's
    # number is a count or a time, whose digits may spell a chat id by chance (0.0004674910014).
    written = "\n".join(
        line if line.startswith("#") else line.rsplit(" ", 1)[0] for line in exposition.splitlines()
    )
    for value in (*PERSONAL, str(ADA.id)):
        assert value not in written, value


async def test_telegram_an_order_a_handoff_a_blocked_chat_and_a_block(
    make_stack: MakeStack, every_mode: dict[tuple[str, str], io.StringIO]
) -> None:
    stack = await make_stack(workers=False, metrics={"enabled": True, "token": METRICS_TOKEN})
    await stack.order(ADA)
    await stack.command(ADA, "human")
    stack.tg.block_chat(ADA.id)
    await stack.deliver_events()  # the news finds the chat blocked: marked unreachable
    blocking = stack.bot.core.chats.blocking
    await blocking.block(UserRef(TELEGRAM, ADA.id), by="shell", reason="abuse")
    assert_nothing_personal(every_mode, TELEGRAM)
    assert_no_personal_metric(await scraped(stack.bot.store, stack.bot.core.metrics))


async def test_whatsapp_an_order_a_handoff_failed_news_and_a_block(
    tmp_path: Path,
    every_mode: dict[tuple[str, str], io.StringIO],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def with_metrics(*args: Any, **kwargs: Any) -> Config:
        made = whatsapp_config(*args, **kwargs)
        on = MetricsConfig.model_validate({"enabled": True, "token": METRICS_TOKEN})
        return made.model_copy(update={"metrics": on})

    monkeypatch.setattr(whatsapp_world, "config", with_metrics)  # the world's, metrics on
    async with world(tmp_path) as w:
        customer = w.customer
        await customer.says("new")
        await w.answered()
        await customer.taps("✓ Pickup & delivery")
        await w.answered()
        await customer.shares_location(6.5095, 3.3711, "12 Herbert Macaulay Way", "Yaba, Lagos")
        dropoff, _pin = await w.answered()
        await tap(customer, dropoff, "UNILAG Main Gate")
        await w.answered()
        await customer.taps(f"Use +{CUSTOMER}")
        await w.answered()
        await customer.shares_contact("Bola Ahmed", [RECEIVER_PHONE])
        await w.answered()
        await customer.says(PARCEL)
        await w.answered()
        await customer.taps("Small")
        await w.answered()
        await customer.sends_photo(JPEG)
        await w.answered()
        await customer.taps("Confirm and send")
        assert "Your order reference is" in " ".join(m.text for m in await w.answered())
        await customer.says("my data")  # her data as a file: uploaded, never logged
        await w.answered()
        await customer.says("forget me")
        (question,) = await w.answered()
        await tap(customer, question, "Erase my data")
        await w.answered()

        w.runtime.core.handoffs.use_staff(RecordingStaff())
        await customer.says("human")
        await w.answered()
        # Meta fails the news: the bot tells its operators, and has none but the log.
        w.fake.fail_deliveries_to(CUSTOMER, MESSAGE_UNDELIVERABLE, "The number is not on WhatsApp.")
        await w.channel.news.send(CHAT, "Your rider is on the way.")
        await w.fake.flush_statuses()
        await w.answered()
        await w.runtime.store.blocked.mark(CHAT)  # as after 131026
        await customer.says("hi")  # writes again: no longer marked
        await w.answered()
        await w.runtime.core.chats.blocking.block(CHAT.user(CHAT.id), by="shell")
        await customer.says("new")
        await w.answered()
        assert_nothing_personal(every_mode, WHATSAPP)
        for stream in every_mode.values():  # Meta's failure reached the log, not the number
            assert "failed (Cloud API error 131026): operators told" in stream.getvalue()
        assert_no_personal_metric(await scraped(w.runtime.store, w.runtime.core.metrics))


async def test_an_agents_order(
    tmp_path: Path, every_mode: dict[tuple[str, str], io.StringIO]
) -> None:
    async with running_world(tmp_path) as agents:
        await agents.order("cust-1")
        await agents.settle()
        assert agents.core is not None
        await agents.core.chats.blocking.block(UserRef("agents", 1), by="shell")
    assert_nothing_personal(every_mode, "agents")


class _Receiver(BaseModel):
    phone: str = Field(max_length=4)


async def test_alerts_that_reach_nobody_and_errors_that_echo_values(
    every_mode: dict[tuple[str, str], io.StringIO],
) -> None:
    alert = (
        f"Create c0ffee for chat {CUSTOMER} still unconfirmed: 12 Herbert Macaulay Way to "
        f"UNILAG, {PARCEL}, receiver Bola Ahmed {RECEIVER_PHONE}"
    )

    async def failing(text: str) -> None:
        raise RuntimeError(f"could not send {text!r}")  # a send error quoting what it sent

    with log_context(delivery="3f2a9c1e-0000-4000-8000-000000000000"):
        await send_alert(None, alert, kind="create_unconfirmed")
        await send_alert(failing, alert, kind="create_unconfirmed")
    log = logging.getLogger("bot.test")
    try:
        _Receiver(phone=RECEIVER_PHONE)
    except ValidationError:
        log.exception("a stored request could not be read")
    try:
        raise asyncpg.UniqueViolationError("duplicate key value violates unique constraint")
    except asyncpg.UniqueViolationError as error:
        error.detail = f"Key (chat_id)=({CUSTOMER}) already exists."
        log.exception("a row could not be written: %s", error)
    log.warning("chat %s: %s", ChatRef(WHATSAPP, int(CUSTOMER)), "a ref without for_log")
    for mode, stream in every_mode.items():
        text = stream.getvalue()
        assert "a create_unconfirmed alert about delivery 3F2A9C1E" in text, mode
        assert "input_value=[hidden]" in text, mode
    assert_nothing_personal(every_mode, WHATSAPP)


def test_a_pseudonym_is_the_documented_keyed_sum_and_names_one_chat_alike() -> None:
    key = PSEUDONYM_KEY.encode()
    chat = ChatRef(WHATSAPP, int(CUSTOMER))
    digest = hmac.new(key, f"whatsapp:{CUSTOMER}".encode(), hashlib.sha256).hexdigest()
    assert chat.for_log.written(key) == f"whatsapp:#{digest[:8]}"  # docs/operators.md §11
    assert chat.user(chat.id).for_log.written(key) == chat.for_log.written(key)
    assert chat.for_log.written(b"another-key") != chat.for_log.written(key)
    assert str(chat.for_log) == "whatsapp:#?"  # written without the log's key: no id
