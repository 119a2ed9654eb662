"""The cost of metrics: P1 (a Telegram turn) and P2 (partner webhook ingest), metrics on and
off, side by side in one run.

* P1: ``bench_telegram``'s full turn (the bot's own PTB Application, engine, SQLite session
  saves, the in-process sandbox as the Partner API; ``synchronous=normal``, so the disk's fsync
  does not drown the difference), 10 orders x 13 updates a run. With metrics on, every update
  is counted and timed, every Partner API attempt counted and timed, the create counted.
* P2: the bot's ``POST /hooks/partner`` from ``build_core`` (size limit, signature, parsing,
  ``store.inbox.add``, relay wake-up) over ``httpx.ASGITransport`` in this process, 400
  pre-signed events posted one after the other (SQLite, ``synchronous=normal``). With metrics
  on, each event is counted. In process rather than ``bench_ingest``'s wrk over sockets: the
  difference looked for is a few microseconds, below wrk's run-to-run spread here.
* The recording calls alone: what one ``measured_update`` around a turn, one counted create
  and one counted Partner API attempt cost, in nanoseconds (a turn makes about three of them).

Runs alternate on/off (the order flips every round); each prints min / median over the
rounds and the ratios on/off of the mins and of the medians (goal: at most 1.03x; on a busy
machine read the mins). Prints figures only.
Run: ``PYTHONPATH=. .venv/bin/python benchmarks/bench_metrics.py`` (about a minute).
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
import timeit
from collections.abc import Awaitable, Callable
from pathlib import Path

import httpx

from bot.bot_core import build_core
from bot.metrics.business_metrics import NO_METRICS, Metrics
from bot.metrics.prometheus_metrics import PrometheusMetrics
from bot.partner.signing import SIGNATURE_HEADER, sign
from bot.settings import CoreSettings
from bot.store import Store

sys.path.insert(0, str(Path(__file__).parent))  # the sibling benchmarks, when run as a script
from bench_ingest import SECRET, event_body
from bench_telegram import ORDER, ORDERS, run_full

ROUNDS = 6
P2_ROUNDS = 12
EVENTS = 400
GOAL = 1.03


async def p1_run(directory: Path, metrics: bool) -> float:
    """µs per update of one full-turn run."""
    run = await run_full(directory, "NORMAL", metrics=metrics)
    return run.us_per_update


async def p2_run(directory: Path, metrics: bool) -> float:
    """µs per event of one ingest run."""
    store = await Store.connect(directory / "ingest.sqlite3", synchronous="NORMAL")
    settings = CoreSettings(
        partner_base_url="http://127.0.0.1:9/api/v1",  # never called: this figure is ingest
        partner_api_key="sk_live_bench_never_sent",
        signing_secrets=(SECRET,),
        metrics=metrics,
    )
    core = build_core(settings, store)
    now = int(time.time())
    bodies = [event_body(f"evt_{directory.name}_{n}", f"dlv_{n % 50}", now) for n in range(EVENTS)]
    signed = [(body, sign(body, SECRET, timestamp=now)) for body in bodies]
    transport = httpx.ASGITransport(app=core.web_app)
    try:
        async with httpx.AsyncClient(transport=transport, base_url="http://bot") as client:
            started = time.perf_counter()
            for body, signature in signed:
                answer = await client.post(
                    "/hooks/partner", content=body, headers={SIGNATURE_HEADER: signature}
                )
                assert answer.status_code == 200, answer.text
            seconds = time.perf_counter() - started
        assert (await store.inbox.counts()).pending == EVENTS
    finally:
        await core.aclose()
        await store.close()
    return seconds / EVENTS * 1e6


async def alternate(
    name: str, run: Callable[[Path, bool], Awaitable[float]], scratch: Path, rounds: int
) -> dict[str, list[float]]:
    figures: dict[str, list[float]] = {"off": [], "on": []}
    (scratch / f"{name}-warm-up").mkdir()
    await run(scratch / f"{name}-warm-up", False)
    for round_number in range(rounds):
        order = ["off", "on"] if round_number % 2 == 0 else ["on", "off"]
        for variant in order:
            directory = scratch / f"{name}-{round_number}-{variant}"
            directory.mkdir()
            figures[variant].append(await run(directory, variant == "on"))
    return figures


def report(title: str, unit: str, figures: dict[str, list[float]]) -> None:
    print(title)
    for variant in ("off", "on"):
        values = figures[variant]
        print(
            f"  metrics {variant:<3} {min(values):9.1f} {statistics.median(values):9.1f} {unit}"
            " (min, median)"
        )
    by_min = min(figures["on"]) / min(figures["off"])
    ratio = statistics.median(figures["on"]) / statistics.median(figures["off"])
    verdict = "meets" if ratio <= GOAL else "misses"
    print(
        f"  on / off: {by_min:5.3f}x (min), {ratio:5.3f}x (median; {verdict} the goal <= {GOAL}x)"
    )


def recording_calls() -> None:
    rounds = 200_000

    def ns(call: Callable[[], object]) -> float:
        return min(timeit.repeat(call, number=rounds, repeat=5)) / rounds * 1e9

    def figures(metrics: Metrics) -> tuple[float, float, float]:
        def turn() -> None:
            with metrics.measured_update("telegram", "text"):
                pass

        create = ns(lambda: metrics.count_create("pickup_delivery", "created"))
        call = ns(lambda: metrics.observe_partner_call("POST", "/api/v1/deliveries", "201", 0.05))
        return ns(turn), create, call

    on, off = figures(PrometheusMetrics("bench")), figures(NO_METRICS)
    print("The recording calls alone (min of 5 x 200,000), metrics on and off:")
    print(f"  measured_update around a turn: {on[0]:6.0f} ns on, {off[0]:4.0f} ns off")
    print(f"  a counted create: {on[1]:6.0f} ns on, {off[1]:4.0f} ns off")
    print(f"  a counted and timed Partner API attempt: {on[2]:6.0f} ns on, {off[2]:4.0f} ns off")


async def main() -> None:
    with tempfile.TemporaryDirectory() as scratch:
        p1 = await alternate("p1", p1_run, Path(scratch), ROUNDS)
        p2 = await alternate("p2", p2_run, Path(scratch), P2_ROUNDS)
    report(
        f"P1 Telegram turn ({ROUNDS} alternating rounds of {ORDERS} orders x {len(ORDER)} "
        "updates):",
        "µs/update",
        p1,
    )
    report(
        f"P2 partner webhook ingest ({P2_ROUNDS} alternating rounds of {EVENTS} events):",
        "µs/event",
        p2,
    )
    recording_calls()


if __name__ == "__main__":
    asyncio.run(main())
