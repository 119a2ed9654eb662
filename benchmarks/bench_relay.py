"""P5: Partner event -> Telegram ``sendMessage`` through the real relay, under Telegram's limits.

Signed ``delivery.status_changed`` events are posted at a steady rate to the bot's real web app
(``POST /hooks/partner`` over ``httpx.ASGITransport``: signature, inbox in SQLite, relay wake-up);
the real ``Relay`` sends through the real ``TelegramSender`` (its ``RateLimiter``) and PTB's
request layer to a fake Bot API that enforces Telegram's documented limits: about 30 messages a
second in all, and one a second per chat (short bursts of 3 pass), answering 429 with
``retry_after`` past them. Each event carries a token in its customer hint, so the fake sees
which events a message carries (one, or several when a backlog was gathered).

Printed per load (never asserted): p50 / p99 from posting an event to the ``sendMessage`` that
carries it; the worst wait of any chat, and of the median chat; messages sent vs events; 429s;
events still unsent when the run gave up waiting (their wait counts as infinite). Loads: 25, 30
and 100 events a second spread over 200 chats, and 30 a second with one chat getting a sixth of
them (5 a second, five times its limit): no operator chats, these figures are the customers'.
The last load adds one operator group (Telegram: 20 messages a minute per group) that gets
every event's summary: printed for it, the wait from posting an event to the operator message
that tells it (quoting its summary, or counting it in a digest's closing line), read from the
bot's sent markers, and its messages.

Before/after in one run: ``--before REV`` (default: ``2badefa``, the relay before its messages
were composed after the wait) exports that revision's tree with ``git archive`` and runs the
same loads against it in a subprocess, alternating with the working tree. Run:
``PYTHONPATH=. .venv/bin/python benchmarks/bench_relay.py`` (about five minutes).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import re
import sqlite3
import statistics
import tempfile
import time
from collections import defaultdict, deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from revision_trees import export, run_json
from telegram import Bot
from telegram.request import BaseRequest, RequestData

from bot.jobs import Scheduler
from bot.partner.signing import SIGNATURE_HEADER, sign
from bot.relay import Relay
from bot.store import Store
from bot.telegram.message_sender import TelegramSender
from bot.web import create_web_app

try:  # a tree whose store names each chat by its channel
    from bot.chat_ref import TELEGRAM, ChatRef
except ImportError:  # an earlier tree: bare Telegram ids
    TELEGRAM, ChatRef = "telegram", None  # type: ignore[assignment,misc]
try:  # a tree whose relay reaches Telegram by ChatRef, its pacing handed over as data
    from bot.telegram.relay_channel import TelegramRelayChannel, TelegramTurns
except ImportError:  # an earlier tree: the relay takes the sender and finds its limiter
    TelegramRelayChannel = TelegramTurns = None  # type: ignore[assignment,misc]

SECRET = "whsec_benchmark_relay_secret_0001"
CHATS = 200
SECONDS = 6.0
DRAIN_LIMIT = 20.0  # how long after the last post a run waits for what is still owed
BEFORE = "2badefa"
BOT = {"id": 7000000002, "is_bot": True, "first_name": "Bench", "username": "bench_relay_bot"}
TOKEN = re.compile(r"#e(\d+)\b")  # an event's customer news
OPERATOR_GROUP = -100_500


@dataclass(frozen=True)
class Load:
    name: str
    rate: float  # events a second
    hot_share: float  # the share of events that go to chat 0
    operators: bool = False  # an operator group gets every event's summary


LOADS = (
    Load("25/s", 25, 0.0),
    Load("30/s", 30, 0.0),
    Load("100/s", 100, 0.0),
    Load("30/s, one hot chat", 30, 1 / 6),
    Load("30/s + operator group", 30, 0.0, operators=True),
)


class LimitedBotApi(BaseRequest):
    """Telegram's sending limits, enforced: 30 in any second overall, 3 in any 3 s per private
    chat, 20 in any minute per group."""

    def __init__(self) -> None:
        self.overall: deque[float] = deque()
        self.per_chat: dict[int, deque[float]] = defaultdict(deque)
        self.messages: list[tuple[float, int, list[int]]] = []  # (when, chat, event numbers)
        self.operator_messages: list[tuple[float, int]] = []  # (when, message id)
        self.refused = 0
        self.expected = 0  # events the run posts: ``all_seen`` is set once each was carried
        self.all_seen = asyncio.Event()
        self._seen: set[int] = set()
        self._ids = itertools.count(1)

    async def initialize(self) -> None:
        return None

    async def shutdown(self) -> None:
        return None

    @property
    def read_timeout(self) -> float | None:
        return None

    async def do_request(
        self, url: str, method: str, request_data: RequestData | None = None, *args: Any, **kw: Any
    ) -> tuple[int, bytes]:
        params: dict[str, Any] = dict(request_data.parameters) if request_data else {}
        name = url.rsplit("/", 1)[-1]
        if name == "getMe":
            return 200, json.dumps({"ok": True, "result": BOT}).encode()
        chat_id = int(params["chat_id"])
        now = time.monotonic()
        if not self.admitted(chat_id, now):
            return TOO_MANY
        if chat_id == OPERATOR_GROUP:
            message_id = next(self._ids)
            self.operator_messages.append((now, message_id))
            return 200, _posted(message_id, chat_id, params["text"])
        events = [int(number) for number in TOKEN.findall(str(params["text"]))]
        self.messages.append((now, chat_id, events))
        self._seen.update(events)
        if len(self._seen) >= self.expected:
            self.all_seen.set()
        return 200, _posted(next(self._ids), chat_id, params["text"])

    def admitted(self, chat_id: int, now: float) -> bool:
        """Whether Telegram's limits let a call to ``chat_id`` through at ``now`` (counted
        when they do; a refusal is counted in ``refused``)."""
        chat = self.per_chat[chat_id]
        per_chat = (20, 60.0) if chat_id < 0 else (3, 3.0)
        if _full(self.overall, now, 30, 1.0) or _full(chat, now, *per_chat):
            self.refused += 1
            return False
        self.overall.append(now)
        chat.append(now)
        return True


TOO_MANY = (
    429,
    json.dumps(
        {
            "ok": False,
            "error_code": 429,
            "description": "Too Many Requests: retry after 1",
            "parameters": {"retry_after": 1},
        }
    ).encode(),
)
"""Telegram's answer past its limits."""


def _posted(message_id: int, chat_id: int, text: object) -> bytes:
    message = {
        "message_id": message_id,
        "date": int(time.time()),
        "chat": {"id": chat_id, "type": "group" if chat_id < 0 else "private"},
        "text": text,
    }
    return json.dumps({"ok": True, "result": message}).encode()


def _full(sent: deque[float], now: float, count: int, seconds: float) -> bool:
    while sent and sent[0] <= now - seconds:
        sent.popleft()
    return len(sent) >= count


def event_body(number: int, delivery_id: str, *, operators: bool = False) -> bytes:
    body = {
        "id": f"evt_bench_{number:07d}",
        "type": "delivery.status_changed",
        "created": 1_900_000_000 + number,
        "data": {
            "object": {
                "id": delivery_id,
                "status": "in_transit",
                "tracking": {"url": f"https://track.bench/track/{delivery_id}/AC12"},
                "customer": {"receiver_phone": "+2348098765432"},
            },
            "previous_status": "in_transit",
        },
        "summary": "The rider reported progress, 5 minutes closer." if operators else "",
        "customer_message_hint": f"Your rider is 5 minutes closer. #e{number}",
        "docs_url": "https://docs.example/webhooks#delivery.status_changed",
        "agent_notes": [],
    }
    return json.dumps(body, separators=(",", ":")).encode()


def delivery_of(chat: int) -> str:
    # The first block differs per chat: it is the short reference a digest names.
    return f"{chat + 1:08d}-0000-4000-8000-000000000000"


def chat_of(chat_id: int) -> Any:
    """A Telegram chat as the measured tree's store names it."""
    return chat_id if ChatRef is None else ChatRef(TELEGRAM, chat_id)


def relay_over(store: Store, sender: TelegramSender, operators: tuple[Any, ...]) -> Relay:
    """The measured tree's relay sending through ``sender``, paced by its limiter."""
    if TelegramRelayChannel is None:
        return Relay(store, sender, operators=operators)
    channel = TelegramRelayChannel(sender)
    return Relay(store, channel, operators=operators, turns=TelegramTurns(sender.limiter))


async def run_load(load: Load, directory: Path) -> dict[str, Any]:
    database = directory / f"{load.rate}-{load.hot_share}-{load.operators}.db"
    store = await Store.connect(database, synchronous="NORMAL")
    for chat in range(CHATS):
        await store.deliveries.add(
            delivery_of(chat), chat_of(10_000 + chat), 10_000 + chat, time.time(), None, None,
            "in_transit",
        )  # fmt: skip
    api = LimitedBotApi()
    bot = Bot("123:bench", request=api, get_updates_request=api)
    await bot.initialize()
    sender = TelegramSender(bot, store)
    relay = relay_over(
        store, sender, operators=(chat_of(OPERATOR_GROUP),) if load.operators else ()
    )
    app = create_web_app(store=store, signing_secrets=[SECRET], on_event=relay.wake)
    jobs = Scheduler(leadership=store.leadership)
    jobs.add(relay)
    jobs.start()
    posted: dict[int, tuple[float, int]] = {}  # event number -> (posted at, chat)
    total = api.expected = int(load.rate * SECONDS)
    chooser = itertools.count()
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://bot"
    ) as client:
        start = time.monotonic()
        for number in range(total):
            due = start + number / load.rate
            if (wait := due - time.monotonic()) > 0:
                await asyncio.sleep(wait)
            turn = next(chooser)
            hot = load.hot_share and (turn * load.hot_share) % 1 + load.hot_share > 1 - 1e-9
            chat = 0 if hot else 1 + (turn * 7919) % (CHATS - 1)
            raw = event_body(number, delivery_of(chat), operators=load.operators)
            headers = {
                SIGNATURE_HEADER: sign(raw, SECRET, int(time.time())),
                "Content-Type": "application/json",
            }
            posted[number] = (time.monotonic(), 10_000 + chat)
            answer = await client.post("/hooks/partner", content=raw, headers=headers)
            answer.raise_for_status()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(api.all_seen.wait(), DRAIN_LIMIT)
            if load.operators:  # and the operators told of every event
                await asyncio.wait_for(_drained(store), DRAIN_LIMIT - (time.monotonic() - start))
    await jobs.stop()
    await bot.shutdown()
    await store.close()

    sent_at: dict[int, float] = {}
    for when, _chat, events in api.messages:
        for number in events:
            sent_at.setdefault(number, when)
    waits = sorted(sent_at[n] - posted[n][0] if n in sent_at else float("inf") for n in posted)
    per_chat: dict[int, float] = defaultdict(float)
    for number, (at, chat) in posted.items():
        per_chat[chat] = max(per_chat[chat], sent_at.get(number, float("inf")) - at)
    worst = sorted(per_chat.values())
    operators = _operator_figures(api, posted, database) if load.operators else {}
    return {
        **operators,
        "load": load.name,
        "events": total,
        "messages": len(api.messages),
        "refused": api.refused,
        "unsent": sum(1 for n in posted if n not in sent_at),
        "p50": _percentile(waits, 0.50),
        "p99": _percentile(waits, 0.99),
        "worst_chat": worst[-1],
        "median_chat": statistics.median(worst),
    }


async def _drained(store: Store) -> None:
    """Return once every event is processed (polled: the relay runs in this process, but its
    finishing is not an event a benchmark can await without reaching into it)."""
    while (await store.inbox.counts()).pending:  # noqa: ASYNC110
        await asyncio.sleep(0.05)


def _operator_figures(
    api: LimitedBotApi, posted: dict[int, tuple[float, int]], database: Path
) -> dict[str, Any]:
    """Per event, the wait until the operator group got the message that told it (quoting its
    summary, or counting it in a digest): read from the bot's own sent markers, which record
    each event's operator message under that message's id, abridged ones included."""
    sent_at = {message_id: when for when, message_id in api.operator_messages}
    with contextlib.closing(sqlite3.connect(database)) as raw:
        marked = raw.execute(
            "SELECT event_id, message_id FROM sent_messages"
            " WHERE chat_id = ? AND sent_at IS NOT NULL",
            (OPERATOR_GROUP,),
        ).fetchall()
    told = {
        int(event_id.rsplit("_", 1)[-1]): sent_at[message_id] for event_id, message_id in marked
    }
    waits = sorted(told[n] - posted[n][0] if n in told else float("inf") for n in posted)
    return {
        "ops_messages": len(api.operator_messages),
        "ops_p50": _percentile(waits, 0.50),
        "ops_p99": _percentile(waits, 0.99),
        "ops_unsent": sum(1 for n in posted if n not in told),
    }


def _percentile(ordered: list[float], share: float) -> float:
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def measure(directory: Path) -> list[dict[str, Any]]:
    return [await run_load(load, directory) for load in LOADS]


def settle_heap() -> None:
    """What ``deliverybot run`` does once it has started: freeze the heap start-up left
    (``bot.runtime.heap``), when the tree measured has that step."""
    try:
        from bot.runtime.heap import freeze_start_up_heap
    except ImportError:  # a tree from before the start-up heap was frozen
        return
    freeze_start_up_heap()


def run_tree(tree: Path) -> list[dict[str, Any]]:
    """This script's loads against the code in ``tree``, in a fresh process."""
    return run_json(__file__, tree)


def ms(seconds: float) -> str:
    return "never" if seconds == float("inf") else f"{seconds * 1000:,.0f} ms"


def table(label: str, rows: list[dict[str, Any]]) -> None:
    print(f"\n{label}")
    print(
        f"{'load':<20} {'p50':>9} {'p99':>9} {'worst chat':>11} {'median chat':>12} "
        f"{'messages/events':>16} {'429s':>5} {'unsent':>7}"
    )
    for row in rows:
        print(
            f"{row['load']:<20} {ms(row['p50']):>9} {ms(row['p99']):>9} "
            f"{ms(row['worst_chat']):>11} {ms(row['median_chat']):>12} "
            f"{row['messages']:>7} / {row['events']:<7} {row['refused']:>5} {row['unsent']:>7}"
        )
    for row in rows:
        if "ops_messages" in row:
            print(
                f"  operator group ({row['load']}): told p50 {ms(row['ops_p50'])}, "
                f"p99 {ms(row['ops_p99'])}; {row['ops_messages']} messages for "
                f"{row['events']} events; {row['ops_unsent']} never told"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default=BEFORE, help="the revision to compare with")
    parser.add_argument("--json", action="store_true", help="one run here, as JSON (internal)")
    options = parser.parse_args()
    if options.json:
        settle_heap()
        with tempfile.TemporaryDirectory() as directory:
            print(json.dumps(asyncio.run(measure(Path(directory)))))
        return
    here = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory() as directory:
        before_tree = export(options.before, Path(directory))
        # Alternating: before, after, before, after; the better (lower p99) run of each shown.
        runs: dict[str, list[list[dict[str, Any]]]] = {"before": [], "after": []}
        for _ in range(2):
            runs["before"].append(run_tree(before_tree))
            runs["after"].append(run_tree(here))
    variants = (("before", f"before ({options.before})"), ("after", "after (this tree)"))
    for label, variant in variants:
        best = [min(rows, key=lambda row: row["p99"]) for rows in zip(*runs[label], strict=True)]
        table(variant, best)


if __name__ == "__main__":
    main()
