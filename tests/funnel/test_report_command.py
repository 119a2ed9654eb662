"""``deliverybot report`` over a store's funnel events, and how long they are kept."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from bot.cli import main
from bot.funnel.recorder import day_of
from bot.runtime.housekeeping import housekeep
from bot.store import Store
from bot.store.funnel_events import FunnelEvent

CONFIG = """
[partner]
base_url = "https://app.example.com/api/v1"
api_key = "sk_live_TESTapiKEY0123456789abcdef"

[telegram]
token = "123456789:AAHsecretTOKENvalue0123456789abcdefg"

[storage]
path = "bot.sqlite3"
funnel_days = 30
"""


def _event(step: str, kind: str, session: str, at: float, reason: str | None = None) -> FunnelEvent:
    return FunnelEvent(day_of(at), "errand", step, kind, reason, session, at)


async def _fill(path: Path, now: float) -> None:
    async with Store.open(path) as store:
        old = now - 40 * 86_400  # before [storage] funnel_days
        await store.funnel.add(
            [
                _event("what", "reached", "s1", now - 60),
                _event("what", "answered", "s1", now - 30),
                _event("what", "reached", "s2", now - 50),
                _event("what", "reasked", "s2", now - 45, "invalid_answer"),
                _event("what", "reasked", "s2", now - 44, "invalid_answer"),
                _event("what", "handoff", "s2", now - 40),
                _event("what", "abandoned", "s2", now - 10, "cancelled"),
                _event("what", "reached", "s3", old),
                _event("what", "abandoned", "s3", old, "idle"),
            ]
        )


def test_report_prints_the_steps_of_the_period(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "bot.toml"
    config.write_text(CONFIG, encoding="utf-8")
    asyncio.run(_fill(tmp_path / "bot.sqlite3", time.time()))

    assert main(["report", "--config", str(config), "--since", "7d", "--flow", "errand"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "errand, last 7d:"
    assert out.splitlines()[2].split() == [
        "what", "2", "1", "50.0%", "30", "s", "2", "0", "0", "1", "invalid_answer", "2"
    ]  # fmt: skip

    assert main(["report", "--config", str(config), "--since", "90d"]) == 0
    assert capsys.readouterr().out.splitlines()[2].split()[:4] == ["what", "3", "1", "66.7%"]

    assert main(["report", "--config", str(config), "--flow", "pickup_delivery"]) == 0
    assert capsys.readouterr().out == "No funnel events in the last 7d.\n"


def test_a_bad_period_is_bad_usage(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "bot.toml"
    config.write_text(CONFIG, encoding="utf-8")
    assert main(["report", "--config", str(config), "--since", "last week"]) == 2
    assert "report: --since: not a period such as 7d or 24h" in capsys.readouterr().err


async def test_housekeeping_keeps_funnel_days_of_events(tmp_path: Path) -> None:
    now = time.time()
    await _fill(tmp_path / "bot.sqlite3", now)
    async with Store.open(tmp_path / "bot.sqlite3") as store:
        await housekeep(store, funnel_days=30)
        assert await store.funnel.first_day() == day_of(now - 60)
        assert len(await store.funnel.tally(0)) == 5  # the old days' two rows are gone


async def _fill_pickup_delivery(path: Path, now: float) -> None:
    """Two orders through pickup_delivery: both reach the pickup and the drop-off (equal
    counts, which name order would swap); one reaches the summary, where the API answers two
    creates with ``reask: true`` on ``packageSize``."""

    def event(step: str, kind: str, session: str, reason: str | None = None) -> FunnelEvent:
        return FunnelEvent(day_of(now), "pickup_delivery", step, kind, reason, session, now)

    events = [
        event("summary", "reached", "s1"),
        *(event("package_size", "reasked", "s1", "refused_validation") for _ in range(2)),
        event("package_size", "reached", "s1"),
        *(event(step, "reached", s) for step in ("pickup_place", "dropoff_place") for s in "ab"),
    ]
    async with Store.open(path) as store:
        await store.funnel.add(events)


def test_report_lists_steps_in_flow_order_with_every_reask(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "bot.toml"
    config.write_text(CONFIG, encoding="utf-8")
    asyncio.run(_fill_pickup_delivery(tmp_path / "bot.sqlite3", time.time()))

    assert main(["report", "--config", str(config), "--flow", "pickup_delivery"]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines()[2:] if line.strip()]
    assert [line.split()[0] for line in lines] == [
        "pickup_place", "dropoff_place", "package_size", "summary"
    ]  # fmt: skip
    package_size = lines[2].split()
    assert package_size[5] == "2" and package_size[-2:] == ["refused_validation", "2"]
