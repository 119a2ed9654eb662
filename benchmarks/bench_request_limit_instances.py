"""P4 across instances: 100 customers confirm on three instances sharing one PostgreSQL database.

``bench_request_limit.py`` measures one process on virtual time. Here the same customers confirm
across three instances, each what ``build_core`` makes of its own ``Store.connect_postgres``
(its own store pool, chat locks, ``SharedRequestLimiter`` over the shared request budget,
``CreateWaitNotice``, engine and ``ChatService``), all on one database of the project's
throwaway server (``bot.store.pg_local_server``) and one in-process sandbox whose key allows 60
requests a minute. Each confirm runs as the Telegram update processor runs it: under the
store's chat lock, then ``ChatService.handle`` (which holds the chat again). The customers'
orders are filled once by the engine and that session is saved for every chat, so only the
confirms are timed. Time is real (the database's and the sandbox's clocks cannot jump), so a
run takes the two minutes the key's budget needs.

Two arrival patterns, customer *i* on instance *i* mod 3: ``spread``, customer *i* confirming at
``0.6 * i`` s (as ``bench_request_limit.py``); ``at once``, all 100 together (as the multi-process
e2e test ``tests/e2e/test_confirms_on_real_instances.py``).

Printed per tree and pattern, as in ``bench_request_limit.py``: the 429s the sandbox answered
(goal 0), deliveries created, customers told of a wait, customers silent more than 3 s between
their confirm and the first thing they hear (the wait notice or the turn's answer; goal 0), the
longest and median silence, and the longest confirm-to-answer time. Before/after in one run:
``--before REV`` (default: the commit before the shared-connection chat locks) is exported with
``git archive`` and run in a subprocess, then the working tree, alternating ``--rounds`` times.
Run: ``PYTHONPATH=. .venv/bin/python benchmarks/bench_request_limit_instances.py`` (about eight
minutes with the default one round).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import shutil
import statistics
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
from bench_flows import ANSWERS, _photo, _public
from revision_trees import export, run_json

from bot.bot_core import BotCore, build_core
from bot.channels import ChannelRegistration
from bot.runtime.channel_starters import SHIPPED_CHANNEL_KINDS
from bot.sandbox import Sandbox, default_scenario_data, parse_scenario
from bot.seams import Seams
from bot.settings import CoreSettings
from bot.store import Store
from bot.store.pg_local_server import LocalPostgres
from bot.telegram.telegram_kind import TELEGRAM_KIND
from conversations.texts import dialogue

try:  # a tree whose store, relay and chat service name each chat by its channel
    from bot.chat_ref import TELEGRAM, ChatRef, UserRef
except ImportError:  # an earlier tree (``--before``): bare Telegram ids
    TELEGRAM, ChatRef, UserRef = "telegram", None, None  # type: ignore[assignment,misc]


def chat_of(chat_id: int) -> Any:
    """A Telegram chat as the measured tree names it."""
    return chat_id if ChatRef is None else ChatRef(TELEGRAM, chat_id)


def user_of(user_id: int) -> Any:
    """A Telegram customer as the measured tree names them."""
    return user_id if UserRef is None else UserRef(TELEGRAM, user_id)


def id_of(chat: Any) -> int:
    """The Telegram id of a chat the measured tree's relay names (a ref, or a bare id)."""
    return chat if ChatRef is None else int(chat.id)


CUSTOMERS = 100
INSTANCES = 3
SPREAD_SECONDS = 60.0
PER_MINUTE = 60
QUIET_SECONDS = 3.0  # ``bot.ordering.create_wait.QUIET_SECONDS``: longer waits are said
FIRST_CHAT = 910_000
PATTERNS = ("spread", "at once")
BEFORE = "2badefa"  # main before the chat locks took one shared connection
SUMMARY_ANSWERS, CONFIRM = ANSWERS[:-1], ANSWERS[-1]
WAITING = dialogue.create_waiting(60).split(" about ")[0]  # "Many orders are going out ..."


class CountingTransport(httpx.AsyncBaseTransport):
    """Every instance's way to the sandbox, counting its answers by status."""

    def __init__(self, sandbox: Sandbox) -> None:
        self.inner = httpx.ASGITransport(app=sandbox.app)
        self.statuses: dict[str, int] = {}

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.inner.handle_async_request(request)
        status = str(response.status_code)
        self.statuses[status] = self.statuses.get(status, 0) + 1
        return response


class Chats:
    """Every instance's channel: when each chat was first told of a wait."""

    def __init__(self) -> None:
        self.told: dict[int, float] = {}

    async def send(self, chat: Any, text: str) -> int | None:
        chat_id = id_of(chat)
        if WAITING in text:
            self.told.setdefault(chat_id, time.monotonic())
        return None

    def otp_link(self, token: str) -> str:
        return f"https://t.me/bench?start=otp_{token}"


async def seed_summaries(core: BotCore, store: Store, chats: list[int]) -> None:
    """One order filled in by the engine; its session at the summary saved for every chat."""
    filler = chats[0]
    await core.chats.start(chat_of(filler), user_of(filler))
    for answer in SUMMARY_ANSWERS:
        turn = await core.chats.handle(chat_of(filler), user_of(filler), answer)
    assert turn.prompt is not None and turn.prompt.step == "summary", turn.messages
    record = await store.sessions.get(chat_of(filler))
    assert record is not None
    written = json.loads(record.data)
    for chat in chats:
        own = {**written, "id": uuid.uuid4().hex, "customer": str(chat)}
        await store.sessions.save(chat_of(chat), chat, json.dumps(own, separators=(",", ":")))


async def run_pattern(server: LocalPostgres, media: Path, pattern: str) -> dict[str, Any]:
    dsn = await server.create_database(f"p4_{pattern.replace(' ', '_')}")
    data = default_scenario_data()
    data["organization"]["rate_limit_per_minute"] = PER_MINUTE
    sandbox = Sandbox(parse_scenario(data), image_transport=httpx.MockTransport(_photo),
                      resolver=_public)  # fmt: skip
    transport = CountingTransport(sandbox)
    settings = CoreSettings(partner_base_url=sandbox.base_url, partner_api_key=sandbox.api_key)
    chats = Chats()
    nodes: list[tuple[Store, BotCore]] = []
    try:
        for _ in range(INSTANCES):
            store = await Store.connect_postgres(
                dsn, media_dir=media, channels=SHIPPED_CHANNEL_KINDS
            )
            core = build_core(settings, store, Seams(partner_transport=transport))
            core.register(ChannelRegistration(TELEGRAM_KIND, chats))
            nodes.append((store, core))
        customers = [FIRST_CHAT + number for number in range(CUSTOMERS)]
        await seed_summaries(nodes[0][1], nodes[0][0], customers)
        # The seeding's requests spent part of this minute's budget, as a real morning would.
        silences: list[float] = []
        answers: list[float] = []

        async def customer(number: int, chat: int) -> None:
            if pattern == "spread":
                await asyncio.sleep(number * SPREAD_SECONDS / CUSTOMERS)
            store, core = nodes[number % INSTANCES]
            confirmed = time.monotonic()
            assert store.chat_locks is not None
            async with store.chat_locks.hold(chat_of(chat)):
                await core.chats.handle(chat_of(chat), user_of(chat), CONFIRM)
            answered = time.monotonic()
            told = chats.told.get(chat)
            silences.append((told if told is not None else answered) - confirmed)
            answers.append(answered - confirmed)

        await asyncio.gather(*(customer(n, chat) for n, chat in enumerate(customers)))
        created = [await nodes[0][0].deliveries.count_for_user(user_of(chat)) for chat in customers]
    finally:
        for store, core in nodes:
            await core.aclose()
            await store.close()
        await sandbox.aclose()
    return {
        "pattern": pattern,
        "statuses": transport.statuses,
        "created": sum(created),
        "told": len(chats.told),
        "silences": silences,
        "longest_answer": max(answers),
    }


async def measure(directory: Path) -> list[dict[str, Any]]:
    # A directory of its own: when run as root it is handed to the server's user. Durable:
    # every commit flushed, as on a production server.
    server_dir = Path(tempfile.mkdtemp(prefix="bench-p4-server-"))
    try:
        server = LocalPostgres.start(server_dir, durable=True)
        try:
            return [await run_pattern(server, directory / "media", p) for p in PATTERNS]
        finally:
            server.stop()
    finally:
        shutil.rmtree(server_dir, ignore_errors=True)


def run_tree(tree: Path) -> list[dict[str, Any]]:
    """This script's patterns against the code in ``tree``, in a fresh process."""
    return run_json(__file__, tree)


def line(name: str, outcome: dict[str, Any]) -> str:
    silences = outcome["silences"]
    silent = sum(s > QUIET_SECONDS for s in silences)
    return (
        f"  {name:<26} 429s {outcome['statuses'].get('429', 0):3d}   created "
        f"{outcome['created']:3d}/{CUSTOMERS}   told of a wait {outcome['told']:3d}   silent > "
        f"{QUIET_SECONDS:.0f} s: {silent:3d} (longest {max(silences):5.1f} s, median "
        f"{statistics.median(silences):4.1f} s)   longest answer {outcome['longest_answer']:5.1f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default=BEFORE, help="the revision to compare with")
    parser.add_argument("--rounds", type=int, default=1, help="before/after runs, alternating")
    parser.add_argument("--json", action="store_true", help="one run here, as JSON (internal)")
    options = parser.parse_args()
    if options.json:
        logging.disable(logging.WARNING)  # rate waits are logged; their effect is printed
        with tempfile.TemporaryDirectory() as directory:
            print(json.dumps(asyncio.run(measure(Path(directory)))))
        return
    here = Path(__file__).resolve().parent.parent
    runs: dict[str, list[list[dict[str, Any]]]] = {"before": [], "after": []}
    with tempfile.TemporaryDirectory() as directory:
        before_tree = export(options.before, Path(directory))
        for _ in range(options.rounds):
            runs["before"].append(run_tree(before_tree))
            runs["after"].append(run_tree(here))
    print(
        f"P4 across {INSTANCES} instances on one PostgreSQL database: {CUSTOMERS} customers "
        f"confirming on a {PER_MINUTE}/min key (sandbox, real time); goals: 0 429s, nobody "
        f"silent > {QUIET_SECONDS:.0f} s"
    )
    for index, pattern in enumerate(PATTERNS):
        print(f"{pattern}:")
        for label, name in (("before", f"before ({options.before})"), ("after", "after")):
            for number, outcome in enumerate(run[index] for run in runs[label]):
                print(line(name if number == 0 else "", outcome))


if __name__ == "__main__":
    main()
