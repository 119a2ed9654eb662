"""A business's metrics, recorded, for a test (``metrics``)."""

from __future__ import annotations

import pytest

from bot.metrics.prometheus_metrics import PrometheusMetrics


@pytest.fixture
def metrics() -> PrometheusMetrics:
    """Metrics of their own for the test: a registry nothing else records into."""
    return PrometheusMetrics("test")
