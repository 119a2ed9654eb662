"""The health page over real HTTP, its store on both backends: the figures equal what a
``/metrics`` scrape of the same business over the same store says (the work waiting, the
whole deployment's; the 429s and failures, this instance's), and each says whose it is; a
business that records no metrics is told how to count them."""

from __future__ import annotations

import html
import json
import re
from collections.abc import AsyncIterator

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from starlette.applications import Starlette

from bot.chat_ref import ChatRef
from bot.metrics.endpoint import MetricsEndpoint
from bot.store import Store
from tests.staff_console.console_site import ConsoleSite, console_site
from tests.support.clock import FakeClock
from tests.support.words import SHIPPED

_FIGURE = re.compile(
    r'<tr data-figure="([^"]+)">\s*<th scope="row">[^<]*</th>\s*'
    r'<td class="number"><data value="([^"]+)">[^<]*</data></td>\s*<td>([^<]*)</td>'
)
_OPEN = re.compile(r'<tr data-flow="([^"]+)"><th scope="row">[^<]*</th><td class="number">(\d+)')
# Each figure of the page, and the series of the exposition that says it.
SERIES = {
    "partner_events.pending": ("deliverybot_inbox_pending", {"inbox": "partner_events"}),
    "partner_events.oldest_seconds": (
        "deliverybot_inbox_oldest_seconds",
        {"inbox": "partner_events"},
    ),
    "telegram_updates.pending": ("deliverybot_inbox_pending", {"inbox": "telegram_updates"}),
    "telegram_updates.oldest_seconds": (
        "deliverybot_inbox_oldest_seconds",
        {"inbox": "telegram_updates"},
    ),
    "followups": ("deliverybot_followups_pending", {}),
    "partner_429": ("deliverybot_partner_rate_limited_total", {"cause": "service_429"}),
    "own_limit_waits": ("deliverybot_partner_rate_limited_total", {"cause": "own_limit"}),
    "telegram_429": ("deliverybot_telegram_rate_limited_total", {}),
    "partner_no_answer": ("deliverybot_partner_requests_total", {"status": "error"}),
    "relay_failures": ("deliverybot_relay_failures_total", {}),
    "unconfirmed_creates": ("deliverybot_creates_total", {"outcome": "unconfirmed"}),
}
DEPLOYMENT = {"partner_events", "telegram_updates", "followups"}


@pytest.fixture
async def site(store: Store, fake_clock: FakeClock) -> AsyncIterator[ConsoleSite]:
    async with console_site(store, fake_clock, metrics=True) as opened:
        yield opened


async def _work(site: ConsoleSite, store: Store, clock: FakeClock) -> None:
    """Work waiting in the database, and what this instance counted."""
    await store.inbox.add("evt_1", "dl_1", "delivery.created", int(clock()), b"{}")
    clock.advance(30)
    await store.inbox.add("evt_2", "dl_1", "delivery.assigned", int(clock()), b"{}")
    await store.telegram_inbox.add(7001, ChatRef("telegram", 42), "{}")
    clock.advance(12.5)
    for user, flow in ((42, "errand"), (43, "errand"), (44, "pickup_delivery")):
        await store.sessions.save(ChatRef("telegram", user), user, json.dumps({"flow": flow}))
    metrics = site.core.metrics
    for _ in range(3):
        metrics.count_partner_rate_limited("service_429")
    metrics.count_partner_rate_limited("own_limit")
    metrics.count_telegram_rate_limited()
    metrics.count_partner_failure("POST", "/api/v1/deliveries")
    metrics.count_partner_failure("GET", "/api/v1/deliveries/dl_1")
    metrics.observe_partner_call("GET", "/api/v1/deliveries/dl_1", "500", 0.1)
    metrics.count_relay_failure("telegram", "unreachable")
    metrics.count_create("errand", "unconfirmed")
    metrics.count_create("errand", "created")


async def _scrape(
    site: ConsoleSite, store: Store, clock: FakeClock
) -> dict[tuple[str, str], float]:
    """``/metrics`` of the same business over the same store, as Prometheus reads it: each
    sample by its name and labels (as JSON)."""
    endpoint = MetricsEndpoint(store, site.core.metrics, token=None, clock=clock)
    app = Starlette(routes=[endpoint.route("/metrics")])
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://metrics.local"
    ) as client:
        answer = await client.get("/metrics")
    assert answer.status_code == 200
    return {
        (sample.name, json.dumps(sample.labels, sort_keys=True)): sample.value
        for family in text_string_to_metric_families(answer.text)
        for sample in family.samples
    }


def _scraped(samples: dict[tuple[str, str], float], name: str, labels: dict[str, str]) -> float:
    """The sum of the samples ``name`` whose labels include ``labels``."""
    return sum(
        value
        for (sample, labelled), value in samples.items()
        if sample == name and labels.items() <= json.loads(labelled).items()
    )


async def test_the_figures_are_the_scrapes(
    site: ConsoleSite, store: Store, fake_clock: FakeClock
) -> None:
    await _work(site, store, fake_clock)
    client = await site.signed_in()
    answer = await client.get("/console/health")
    assert answer.status_code == 200
    shown = {key: (float(value), whose) for key, value, whose in _FIGURE.findall(answer.text)}
    assert set(shown) == set(SERIES)
    samples = await _scrape(site, store, fake_clock)
    for key, (name, labels) in SERIES.items():
        value, whose = shown[key]
        assert value == _scraped(samples, name, labels), key
        deployment = key.split(".")[0] in DEPLOYMENT
        expected = "console_web.health.deployment" if deployment else "console_web.health.instance"
        assert html.unescape(whose) == SHIPPED.say(expected), key
    assert shown["partner_events.pending"][0] == 2
    assert shown["partner_events.oldest_seconds"][0] == 42.5
    assert shown["telegram_updates.oldest_seconds"][0] == 12.5
    assert shown["partner_429"][0] == 3 and shown["partner_no_answer"][0] == 2
    opened = dict(_OPEN.findall(answer.text))
    assert opened == {"errand": "2", "pickup_delivery": "1"}
    for flow, count in opened.items():
        assert _scraped(samples, "deliverybot_sessions_open", {"flow": flow}) == int(count)


async def test_the_console_counts_its_instance_without_metrics_served(
    store: Store, fake_clock: FakeClock
) -> None:
    """``[metrics]`` off (``/metrics`` serves nothing): the console being on is enough for its
    page to show this instance's counts beside the deployment's."""
    async with console_site(store, fake_clock) as site:
        assert not site.core.settings.metrics
        client = await site.signed_in()
        answer = await client.get("/console/health")
    assert answer.status_code == 200
    keys = {key for key, _, _ in _FIGURE.findall(answer.text)}
    assert keys == set(SERIES)
