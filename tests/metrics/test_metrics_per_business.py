"""Metrics are a business's, not the process's: two businesses in one process (two real cores
over two SQLite stores, each with its sandbox) each create a delivery, and each one's registry
counts its own order only; a business with ``[metrics]`` off records nothing anywhere, not
even into prometheus_client's process-wide default registry."""

from __future__ import annotations

from pathlib import Path

import prometheus_client

from bot.metrics.business_metrics import NO_METRICS
from bot.metrics.prometheus_metrics import PrometheusMetrics
from tests.metrics.business import business
from tests.metrics.samples import sample

CREATED = {"flow": "pickup_delivery", "outcome": "created"}
CREATE_CALL = {"operation": "POST /deliveries", "status": "201"}


def _deliverybot_families(registry: prometheus_client.CollectorRegistry) -> list[str]:
    return [family.name for family in registry.collect() if family.name.startswith("deliverybot")]


async def test_two_businesses_in_one_process_count_apart(tmp_path: Path) -> None:
    async with (
        business(tmp_path / "first.sqlite3", metrics=True) as first,
        business(tmp_path / "second.sqlite3", metrics=True) as second,
    ):
        one, two = first.core.metrics, second.core.metrics
        assert isinstance(one, PrometheusMetrics) and isinstance(two, PrometheusMetrics)
        assert one.registry is not two.registry

        await first.order("ada")
        await first.order("bola")
        await second.order("chidi")

        assert sample(one, "deliverybot_creates_total", **CREATED) == 2
        assert sample(two, "deliverybot_creates_total", **CREATED) == 1
        assert sample(one, "deliverybot_partner_requests_total", **CREATE_CALL) == 2
        assert sample(two, "deliverybot_partner_requests_total", **CREATE_CALL) == 1
        started = {"channel": "api", "kind": "start", "outcome": "ok"}
        assert sample(one, "deliverybot_updates_total", **started) == 2
        assert sample(two, "deliverybot_updates_total", **started) == 1
        created_step = {"flow": "pickup_delivery", "step": "summary", "kind": "created"}
        assert sample(one, "deliverybot_funnel_events_total", **created_step) == 2
        assert sample(two, "deliverybot_funnel_events_total", **created_step) == 1
        for metrics in (one, two):  # each business's /metrics says its build
            assert b"deliverybot_build_info{" in metrics.exposition()


async def test_a_business_with_metrics_off_records_nothing_anywhere(tmp_path: Path) -> None:
    async with (
        business(tmp_path / "off.sqlite3", metrics=False) as off,
        business(tmp_path / "on.sqlite3", metrics=True) as on,
    ):
        await off.order("ada")
        await off.core.chats.funnel.flush()

        assert off.core.metrics is NO_METRICS
        assert off.core.metrics.exposition() == b""
        assert isinstance(on.core.metrics, PrometheusMetrics)
        # The other business's registry never saw the order, and neither did the process's.
        assert sample(on.core.metrics, "deliverybot_creates_total", **CREATED) == 0
        assert sample(on.core.metrics, "deliverybot_partner_requests_total", **CREATE_CALL) == 0
        assert _deliverybot_families(prometheus_client.REGISTRY) == []
        # The order itself went through: the store has its delivery.
        assert len(await off.core.store.deliveries.list_open()) == 1
