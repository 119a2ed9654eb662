"""Metrics and logs of a running bot, as an operator's Prometheus and log collector see them.

* An order through Telegram, its events relayed: ``/metrics`` counts the updates, the create
  (by flow and outcome), the Partner API calls, the stored events and the relayed sends, reads
  the backlog gauges, answers 401 without the token, passes ``promtool check metrics``, and
  carries no chat id, phone number or delivery id in any label.
* The same order logged as JSON (DEBUG): every line is one object with the documented keys,
  and none holds a secret or the customer's personal data.
* ``deliverybot run`` with ``[metrics] listen_port``: /metrics on its own address, the start
  line naming version, instance, channels, store and both addresses.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import socket
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from starlette.applications import Starlette

from bot.config import Config
from bot.metrics.build_info import running_version
from bot.metrics.endpoint import MetricsEndpoint
from bot.runtime import configure_logging, serve
from bot.sandbox import default_scenario
from bot.sandbox.server import SandboxServer
from tests.deploy.conftest import promtool_check_metrics
from tests.e2e.conftest import ADA, ADA_PHONE, RECEIVER_PHONE, SECRET_TOKEN, BotStack, MakeStack
from tests.fakes import FakeTelegram
from tests.metrics.samples import sample as sample_of
from tests.support.sigterm import stop_with_sigterm

METRICS_TOKEN = "metrics-token-0123456789abcdef"


async def _scrape(stack: BotStack, token: str | None = METRICS_TOKEN) -> httpx.Response:
    core = stack.bot.core
    endpoint = MetricsEndpoint(stack.bot.store, core.metrics, token=METRICS_TOKEN, clock=time.time)
    app = Starlette(routes=[endpoint.route("/metrics")])
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://bot"
    ) as client:
        return await client.get("/metrics", headers=headers)


def _label_values(exposition: str) -> set[str]:
    return {
        value
        for family in text_string_to_metric_families(exposition)
        for one in family.samples
        for value in one.labels.values()
    }


async def test_an_order_shows_in_the_metrics_with_bounded_labels_only(
    make_stack: MakeStack,
) -> None:
    metrics_on = {"enabled": True, "token": METRICS_TOKEN}
    # The relay's sends happen when the test says.
    stack = await make_stack(workers=False, metrics=metrics_on)
    metrics = stack.bot.core.metrics

    def sample(name: str, **labels: str) -> float:
        return sample_of(metrics, name, **labels)

    created = {"flow": "pickup_delivery", "outcome": "created"}
    before_creates = sample("deliverybot_creates_total", **created)
    before_updates = sample(
        "deliverybot_updates_total", channel="telegram", kind="command", outcome="handled"
    )
    before_calls = sample(
        "deliverybot_partner_requests_total", operation="POST /deliveries", status="201"
    )
    before_events = sample(
        "deliverybot_webhook_events_total", type="delivery.created", outcome="stored"
    )
    before_sends = sample("deliverybot_relay_send_seconds_count", channel="telegram")

    delivery_id = await stack.order(ADA)
    await stack.fill_order(ADA)  # a second order left open at its summary
    await stack.deliver_events()

    assert sample("deliverybot_creates_total", **created) == before_creates + 1
    assert (
        sample("deliverybot_updates_total", channel="telegram", kind="command", outcome="handled")
        == before_updates + 2
    )
    assert (
        sample("deliverybot_partner_requests_total", operation="POST /deliveries", status="201")
        == before_calls + 1
    )
    assert (
        sample("deliverybot_webhook_events_total", type="delivery.created", outcome="stored")
        == before_events + 1
    )
    assert sample("deliverybot_relay_send_seconds_count", channel="telegram") > before_sends

    refused = await _scrape(stack, token=None)
    assert refused.status_code == 401
    assert (await _scrape(stack, token="wrong-token-0123456789")).status_code == 401
    scraped = await _scrape(stack)
    assert scraped.status_code == 200
    assert scraped.headers["content-type"].startswith("text/plain; version=0.0.4")
    exposition = scraped.text
    assert sample("deliverybot_inbox_pending", inbox="partner_events") == 0
    assert sample("deliverybot_inbox_pending", inbox="telegram_updates") == 0  # all handled
    assert sample("deliverybot_followups_pending") == 0
    assert sample("deliverybot_sessions_open", flow="pickup_delivery") == 1
    assert f'deliverybot_build_info{{version="{running_version()}"}} 1.0' in exposition

    values = _label_values(exposition)
    for personal in (str(ADA.id), delivery_id, ADA_PHONE, RECEIVER_PHONE, "Bola Ahmed"):
        assert not any(personal in value for value in values), personal

    checked = await promtool_check_metrics(exposition)
    assert checked.returncode == 0, checked.stdout + checked.stderr


async def test_a_json_log_of_an_order_holds_no_secret_and_no_personal_data(
    make_stack: MakeStack,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    restore_logging: None,
) -> None:
    stack = await make_stack(mode="webhook")
    data = json.loads(stack.config.model_dump_json())
    secrets = {
        "api key": stack.sandbox.api_key,
        "signing secret": stack.sandbox.signing_secret,
        "bot token": stack.tg.token,
        "secret token": SECRET_TOKEN,
    }
    data["partner"]["api_key"] = secrets["api key"]
    data["webhooks"]["signing_secret"] = secrets["signing secret"]
    data["telegram"]["token"] = secrets["bot token"]
    data["telegram"]["secret_token"] = SECRET_TOKEN
    data["logging"] = {"level": "DEBUG", "format": "json"}
    config = Config.model_validate(data, context={"environ": {}, "base_dir": tmp_path})
    configure_logging(config)

    await stack.restart()  # its stop and start logged too
    await stack.order(ADA)
    await stack.deliver_events()
    logging.getLogger("bot.test").warning("the API key %s leaked", secrets["api key"])

    lines = capsys.readouterr().err.splitlines()
    assert len(lines) >= 8
    records = [json.loads(line) for line in lines]  # every line is one JSON object
    for record in records:
        assert {"time", "level", "logger", "message"} <= record.keys()
        assert set(record) <= {"time", "level", "logger", "message", "exception", "delivery",
                               "event", "flow", "step", "sending"}  # fmt: skip
    assert any(record["message"] == "the API key [redacted] leaked" for record in records)
    assert any("event" in record and "delivery" in record for record in records)
    text = "\n".join(lines)
    for name, secret in secrets.items():
        assert secret not in text, name
    for personal in (ADA_PHONE, RECEIVER_PHONE, "Bola Ahmed", "Herbert Macaulay", "pair of shoes"):
        assert personal not in text, personal


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_run_serves_metrics_on_their_own_address_and_logs_a_start_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], restore_logging: None
) -> None:
    web_port, metrics_port = _free_port(), _free_port()
    async with (
        SandboxServer(default_scenario(), port=0) as partner,
        FakeTelegram.running() as tg,
    ):
        data: dict[str, Any] = {
            "partner": {"base_url": partner.sandbox.base_url, "api_key": partner.sandbox.api_key},
            "telegram": {
                "token": tg.token,
                "api_base_url": tg.api_base_url,
                "public_base_url": f"http://127.0.0.1:{web_port}",
                "listen_port": web_port,
                "drain_seconds": 0,  # stopped with SIGTERM: no proxy to drain for
            },
            "storage": {"path": "bot.sqlite3"},
            "metrics": {"enabled": True, "listen_port": metrics_port},
            "logging": {"format": "json"},
        }
        config = Config.model_validate(data, context={"environ": {}, "base_dir": tmp_path})
        configure_logging(config)
        running = asyncio.create_task(serve(config))
        try:
            await tg.wait_for_long_poll()
            async with httpx.AsyncClient() as web:
                own = await web.get(f"http://127.0.0.1:{metrics_port}/metrics")
                on_web = await web.get(f"http://127.0.0.1:{web_port}/metrics")
        finally:
            await stop_with_sigterm(running)

    assert own.status_code == 200
    assert "deliverybot_build_info{" in own.text
    assert on_web.status_code == 404  # served on its own address only
    records = [json.loads(line) for line in capsys.readouterr().err.splitlines()]
    started = [r["message"] for r in records if r["message"].startswith("deliverybot ")]
    assert len(started) == 1
    line = started[0]
    assert f"instance {socket.gethostname()}:{os.getpid()}" in line
    assert "telegram polling, channels telegram, store sqlite" in line
    assert f"web app http://127.0.0.1:{web_port}" in line
    assert f"metrics http://127.0.0.1:{metrics_port}/metrics" in line
    assert tg.token not in line and partner.sandbox.api_key not in line
