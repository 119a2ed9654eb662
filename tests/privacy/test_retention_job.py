"""The ``Retention`` job: each kind pruned from its ``[privacy]`` limit, only in the process
that leads, counted in ``deliverybot_retention_removed_total``; one failing kind stops none of
the others."""

from __future__ import annotations

import pytest

from bot.chat_ref import ChatRef
from bot.config.privacy_section import PrivacyConfig
from bot.jobs import Scheduler
from bot.metrics.prometheus_metrics import PrometheusMetrics
from bot.privacy.retention import RETENTION_SECONDS, RETRY_SECONDS, Retention
from bot.store import Store
from tests.metrics.samples import sample
from tests.support.clock import FakeClock

DAY = 86_400.0
REMOVED = "deliverybot_retention_removed_total"


class Leading:
    """A leadership the test sets."""

    def __init__(self, leads: bool) -> None:
        self.leading = leads

    async def leads(self) -> bool:
        return self.leading


@pytest.fixture
def store_backend() -> str:
    return "sqlite"  # the job's own behaviour; each prune's SQL is tested on both backends


async def _old_rows(store: Store, fake_clock: FakeClock) -> None:
    """An audit entry and a draft, 3 days old; an audit entry 1 day old."""
    await store.audit.record("operator:1", "block", "telegram:1", "done")
    await store.sessions.save(ChatRef("telegram", 1), 1, "{}")
    fake_clock.advance(2 * DAY)
    await store.audit.record("operator:1", "unblock", "telegram:1", "done")
    fake_clock.advance(DAY)


async def test_each_kind_is_pruned_from_its_own_limit_and_counted(
    store: Store, fake_clock: FakeClock
) -> None:
    await _old_rows(store, fake_clock)
    metrics = PrometheusMetrics("test")
    privacy = PrivacyConfig(audit_days=2, drafts_days=3)  # the draft is 3 days old to the second
    job = Retention(store, privacy, metrics)

    assert await job.run_once() == RETENTION_SECONDS
    assert [entry.action for entry in await store.audit.since(0)] == ["unblock"]
    assert await store.sessions.get(ChatRef("telegram", 1)) is not None  # not past its time
    assert sample(metrics, REMOVED, kind="audit") == 1
    assert sample(metrics, REMOVED, kind="drafts") == 0

    fake_clock.advance(1)
    await job.run_once()
    assert await store.sessions.get(ChatRef("telegram", 1)) is None
    assert sample(metrics, REMOVED, kind="drafts") == 1


async def test_only_the_leading_process_prunes(store: Store, fake_clock: FakeClock) -> None:
    await _old_rows(store, fake_clock)
    job = Retention(store, PrivacyConfig(audit_days=1))
    leadership = Leading(False)
    scheduler = Scheduler(leadership=leadership)

    await scheduler.turn(job)
    assert len(await store.audit.since(0)) == 2
    leadership.leading = True
    await scheduler.turn(job)
    assert [entry.action for entry in await store.audit.since(0)] == ["unblock"]


async def test_a_failing_kind_stops_none_of_the_others_and_comes_back_sooner(
    store: Store, fake_clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    await _old_rows(store, fake_clock)

    async def broken(before: float) -> int:
        raise RuntimeError("the disk is full")

    store.retention.transcripts = broken  # type: ignore[method-assign]
    job = Retention(store, PrivacyConfig(audit_days=1, drafts_days=1))

    assert await job.run_once() == RETRY_SECONDS
    # Audit comes after transcripts, and is pruned all the same.
    assert [entry.action for entry in await store.audit.since(0)] == ["unblock"]
    assert "retention: pruning transcripts failed" in caplog.text


async def test_a_pass_completes_the_forget_requests_whose_deliveries_ended(store: Store) -> None:
    customer = ChatRef("telegram", 7)
    await store.deliveries.add("riding", customer, 7, store.clock(), "+2348011112222", None)
    await store.customers.put(customer.user(7), '{"name": "Ngozi Eze"}')
    outcome = await store.customer_data.forget(customer.user(7))
    assert outcome.pending
    job = Retention(store, PrivacyConfig())

    await job.run_once()
    assert await store.customer_data.pending_for(customer.user(7))  # still riding

    assert await store.deliveries.update_view("riding", "delivered", int(store.clock()) + 1)
    await job.run_once()
    assert not await store.customer_data.pending_for(customer.user(7))
    riding = await store.deliveries.get("riding")
    assert riding is not None and riding.receiver_phone is None
