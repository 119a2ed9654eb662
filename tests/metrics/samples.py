"""Reading a business's metrics back in tests."""

from __future__ import annotations

from bot.metrics.business_metrics import Metrics
from bot.metrics.prometheus_metrics import PrometheusMetrics


def sample(metrics: Metrics, name: str, **labels: str) -> float:
    """A sample's current value in ``metrics``' registry (0 when the series does not exist
    yet, and for metrics that record nothing)."""
    if not isinstance(metrics, PrometheusMetrics):
        return 0.0
    return metrics.registry.get_sample_value(name, labels) or 0.0
