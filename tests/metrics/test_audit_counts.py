"""The audit trail as counters (``bot.metrics.audit_counts``): each event ``store.audit`` writes
is counted as an operator action or a limit hit, by bounded labels, nothing while metrics are
off, and the exposition passes ``promtool check metrics``. The store counts nothing itself: the
core's wiring (``build_core``) makes the counter its trail's observer, so the tests' store is
one a core was built on."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.bot_core import build_core
from bot.chat_ref import UserRef
from bot.config import LimitsConfig
from bot.metrics.business_metrics import Metrics
from bot.safety.customer_blocking import CustomerBlocking
from bot.safety.customer_limits import CustomerLimits
from bot.settings import CoreSettings
from bot.store import Store
from conversations.texts.business_texts import BusinessTexts
from tests.deploy.conftest import promtool_check_metrics
from tests.metrics.samples import sample
from tests.support.words import SHIPPED_TEXTS

TEXTS = BusinessTexts(SHIPPED_TEXTS)

ADA = UserRef("telegram", 1001)
ACTIONS = "deliverybot_operator_actions_total"
HITS = "deliverybot_limit_hits_total"
KEY = "sk_live_" + "0" * 32


@dataclass(frozen=True)
class Business:
    """A store with a core built on it (the core wires the store's audit trail to its
    business's metrics), and those metrics."""

    store: Store
    metrics: Metrics


async def _business(store: Store, *, metrics: bool) -> Business:
    settings = CoreSettings(
        partner_base_url="http://127.0.0.1:9", partner_api_key=KEY, metrics=metrics
    )
    core = build_core(settings, store)
    await core.aclose()  # no request reaches the service; the wiring of the trail stays
    return Business(store, core.metrics)


@pytest.fixture
async def counted(store: Store) -> AsyncIterator[Business]:
    """The shared store fixture's store, its core's metrics recorded."""
    yield await _business(store, metrics=True)


def _actions(metrics: Metrics) -> dict[tuple[str, str], float]:
    pairs = [
        ("block", "done"),
        ("block", "unchanged"),
        ("unblock", "done"),
        ("unblock", "unchanged"),
        ("assign", "refused"),
        ("other", "other"),
    ]
    return {pair: sample(metrics, ACTIONS, action=pair[0], outcome=pair[1]) for pair in pairs}


async def test_operator_actions_are_counted_by_action_and_outcome(counted: Business) -> None:
    store = counted.store
    before = _actions(counted.metrics)
    blocking = CustomerBlocking(store)

    await blocking.block(ADA, by="telegram:1900", reason="spam")
    await blocking.block(ADA, by="telegram:1900")  # already blocked
    await blocking.unblock(ADA, by="shell")
    await blocking.unblock(ADA, by="shell")  # was not blocked
    await store.audit.record("telegram:1900", "assign", "d-1", "refused: rider_busy", "r-7")
    # Free text the bounded labels do not know becomes "other", never a new series per value.
    await store.audit.record("telegram:1900", "frobnicate d-1", "d-1", "d-1 went wrong")

    after = _actions(counted.metrics)
    assert {pair: after[pair] - before[pair] for pair in after} == dict.fromkeys(after, 1.0)


async def test_limit_hits_are_counted_by_kind_and_outcome(counted: Business) -> None:
    limits = CustomerLimits(counted.store, LimitsConfig(drafts_per_hour=1), texts=TEXTS)
    before = sample(counted.metrics, HITS, kind="drafts_per_hour", outcome="refused")

    assert await limits.before_draft(ADA) is None  # under the limit: no hit
    assert await limits.before_draft(ADA) is not None
    assert await limits.before_draft(ADA) is not None

    assert sample(counted.metrics, HITS, kind="drafts_per_hour", outcome="refused") - before == 2


async def test_nothing_is_counted_while_metrics_are_off(store: Store) -> None:
    off = await _business(store, metrics=False)
    await CustomerBlocking(store).block(ADA, by="shell")
    assert off.metrics.exposition() == b""  # the business's metrics hold nothing
    assert [entry.action for entry in await store.audit.since(0)] == ["block"]  # in the trail


async def test_the_families_pass_promtool(counted: Business) -> None:
    await CustomerBlocking(counted.store).block(ADA, by="telegram:1900")
    await CustomerLimits(counted.store, LimitsConfig(drafts_per_hour=1), texts=TEXTS).before_draft(
        ADA
    )
    exposition = counted.metrics.exposition().decode()
    assert f"{ACTIONS}{{" in exposition

    checked = await promtool_check_metrics(exposition)

    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_operators_guide_lists_both_counters_in_its_metrics_table() -> None:
    guide = (Path(__file__).parents[2] / "docs" / "operators.md").read_text(encoding="utf-8")
    rows = [line for line in guide.splitlines() if line.startswith("| `deliverybot_")]
    for name in (ACTIONS, HITS):
        assert any(row.startswith(f"| `{name}` |") for row in rows), name


async def test_a_store_no_core_was_built_on_counts_nothing(
    tmp_path: Path, counted: Business
) -> None:
    # The shell's store (``deliverybot customers block``): in the trail, in no counter.
    before = sample(counted.metrics, ACTIONS, action="block", outcome="done")
    async with Store.open(tmp_path / "shell.sqlite3", synchronous="NORMAL") as shell_store:
        await CustomerBlocking(shell_store).block(ADA, by="shell")
        assert [entry.action for entry in await shell_store.audit.since(0)] == ["block"]
    assert sample(counted.metrics, ACTIONS, action="block", outcome="done") == before
