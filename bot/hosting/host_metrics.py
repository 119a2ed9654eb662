"""``HostMetrics``: the metrics of a host of many businesses, with bounded labels.

Every business records into a ``PrometheusMetrics`` the host keeps for its whole life, not
the business's build: a business released when idle and built again goes on counting where it
was, and a scrape never sees its counters fall back to zero.

``[host] metrics_business_label`` off (the default): every business records into one shared
``PrometheusMetrics``, so each series is the sum over the businesses and a thousand businesses
cost no more series than one. On: the first ``metrics_business_label_cap`` businesses to record
get their own, exposed with ``business="{name}"``; every later one records into one more,
exposed as ``business="other"``. The series are bounded by the cap whatever the host holds.

The host's own series come first: ``deliverybot_host_businesses{state}`` (known, built),
``deliverybot_host_builds_total``, ``deliverybot_host_releases_total`` and
``deliverybot_host_build_seconds``. The gauges of waiting work a single business's
``/metrics`` reads from its store at each scrape are left out of the shared series (one
store's figures are not the sum of many); with labels on, each labelled business that is
built has them read from its own store.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Final

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.metrics_core import Metric

from bot.metrics.build_info import running_version
from bot.metrics.prometheus_metrics import PrometheusMetrics

BUSINESS_LABEL: Final = "business"
OTHER: Final = "other"
BUILD_BUCKETS: Final = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


@dataclass
class _HostFamilies:
    registry: CollectorRegistry = field(default_factory=CollectorRegistry)

    def __post_init__(self) -> None:
        self.businesses = Gauge(
            "deliverybot_host_businesses",
            "Businesses the host serves (known) and those built now (built).",
            ["state"],
            registry=self.registry,
        )
        self.builds = Counter(
            "deliverybot_host_builds",
            "Businesses built (on a first request, an add or a change).",
            registry=self.registry,
        )
        self.releases = Counter(
            "deliverybot_host_releases",
            "Businesses released after their idle time.",
            registry=self.registry,
        )
        self.build_seconds = Histogram(
            "deliverybot_host_build_seconds",
            "How long a business took to build and start.",
            buckets=BUILD_BUCKETS,
            registry=self.registry,
        )


class HostMetrics:
    """See the module docstring."""

    def __init__(self, *, business_label: bool, cap: int, version: str | None = None) -> None:
        self._label = business_label
        self._cap = cap
        self._version = version or running_version()
        self._shared = PrometheusMetrics(self._version)
        self._own: dict[str, PrometheusMetrics] = {}
        self._host = _HostFamilies()

    def for_business(self, name: str) -> PrometheusMetrics:
        """What business ``name`` records into (see the module docstring)."""
        if not self._label:
            return self._shared
        own = self._own.get(name)
        if own is None and len(self._own) < self._cap:
            own = self._own[name] = PrometheusMetrics(self._version)
        return own or self._shared

    def labelled(self) -> Mapping[str, PrometheusMetrics]:
        """The businesses with series of their own, by name."""
        return dict(self._own)

    def count_build(self, seconds: float) -> None:
        """A business was built and started in ``seconds``."""
        self._host.builds.inc()
        self._host.build_seconds.observe(seconds)

    def count_release(self) -> None:
        """A business was released when idle."""
        self._host.releases.inc()

    def set_businesses(self, known: int, built: int) -> None:
        """How many businesses the host serves, and how many are built."""
        self._host.businesses.labels("known").set(known)
        self._host.businesses.labels("built").set(built)

    def exposition(self) -> bytes:
        """The text exposition: the host's series, then the businesses'."""
        return generate_latest(self._host.registry) + generate_latest(_Merged(self))

    def sources(self) -> Iterator[tuple[str | None, PrometheusMetrics]]:
        """Each registry with the business label its samples get (None: no label)."""
        if not self._label:
            yield None, self._shared
            return
        yield from self._own.items()
        yield OTHER, self._shared


class _Merged:
    """The businesses' registries as one collector, each sample labelled with its business."""

    def __init__(self, host: HostMetrics) -> None:
        self._host = host

    def collect(self) -> Iterable[Metric]:
        merged: dict[str, Metric] = {}
        for business, metrics in self._host.sources():
            for family in metrics.registry.collect():
                into = merged.get(family.name)
                if into is None:
                    into = merged[family.name] = Metric(
                        family.name, family.documentation, family.type, family.unit
                    )
                for sample in family.samples:
                    labels = (
                        sample.labels
                        if business is None
                        else {**sample.labels, BUSINESS_LABEL: business}
                    )
                    into.add_sample(sample.name, labels, sample.value, sample.timestamp)
        return merged.values()
