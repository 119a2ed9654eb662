"""P6, storage and memory: bytes per stored session at the summary, and RSS at 10,000 chats.

1. Bytes per session. ``SAMPLE`` pickup & delivery orders are answered up to the summary
   through ``ChatService`` against the in-process sandbox (the real engine, client and store).
   Their sessions, copied to 10,000 chats (each copy with its own session id), are written
   in three forms: as the anchor, the full form of earlier releases (every field, full place
   answers, one ``{"flow", "step"}`` object per visit) as JSON text; the stored form
   (``Session.stored_json``) as JSON text, as kept before packing; and the stored form saved
   through the store, which keeps it deflated (``bot.store.session_packing``). Each form
   goes into two databases with the bot's schema: one with SQLite's default 4 KB pages (the
   store's), one with 8 KB pages. Printed: the JSON's median size (and the packed one), then
   per database what the ``sessions`` table and
   its index take on disk per session, read from SQLite's ``dbstat`` (whole pages, so a row
   that leaves part of a page empty is counted with it). Goal: at most 2 KB per session at
   the summary. Then what the larger page costs: µs per session save (one commit) for each
   page size and ``synchronous`` setting, alternating runs, min and median (a WAL commit
   writes every page it changed whole, so larger pages write more per commit).
2. RSS at 10,000 chats, in a fresh process: the bot core over the sandbox, then 10,000 chats
   (100 at a time, concurrently) each start an order and answer its first question through
   ``ChatService``, and each chat's look is remembered in a ``ChatScreen`` as the Telegram
   adapter does after a turn (its prompt). Printed: RSS before and after, the growth per chat,
   and the size of every per-chat map the bot keeps, each bounded (goal: at most 100 MB RSS).
   The PTB ``Application`` itself is not in this figure (its per-update objects do not stay).

Prints figures only. Run: ``.venv/bin/python benchmarks/bench_storage.py`` (about a minute).
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import resource
import sqlite3
import statistics
import tempfile
import time
import uuid
from pathlib import Path
from typing import cast

import httpx
from bench_flows import ANSWERS, _core, _photo, _public

from bot.chat_ref import TELEGRAM, ChatRef, UserRef
from bot.ordering import ChatService
from bot.sandbox import Sandbox, default_scenario
from bot.store import Store
from bot.store.blocked import MEMORY_LIMIT
from bot.store.database import Synchronous
from bot.store.session_packing import pack
from bot.telegram.bot_context import BotContext
from bot.telegram.chat_screen import ChatScreen
from conversations import ChoiceAnswer, Session
from conversations.places import PlacePick

SAMPLE = 40
CHATS = 10_000
AT_ONCE = 100
SUMMARY_ANSWERS = ANSWERS[:-1]  # everything but the confirmation: the summary is asked
# SQLite's default page size, which the store keeps, and the larger one measured beside it.
PAGE_SIZES = (4096, 8192)
SAVE_ROUNDS = 3
SYNCHRONOUS: tuple[Synchronous, ...] = ("FULL", "NORMAL")
SAVES = 1_000


def sandbox() -> Sandbox:
    return Sandbox(
        default_scenario(), image_transport=httpx.MockTransport(_photo), resolver=_public
    )


async def summary_sessions(directory: Path) -> list[Session]:
    """``SAMPLE`` real sessions at the summary step."""
    service = sandbox()
    store = await Store.connect(directory / "orders.db", synchronous="NORMAL")
    core = _core(service, store)
    sessions = []
    try:
        for number in range(1, SAMPLE + 1):
            chat, user = ChatRef(TELEGRAM, number), UserRef(TELEGRAM, number)
            await core.chats.start(chat, user)
            for answer in SUMMARY_ANSWERS:
                turn = await core.chats.handle(chat, user, answer)
            assert turn.prompt is not None and turn.prompt.step == "summary", turn.messages
            session = await core.chats.session(chat)
            assert session is not None
            sessions.append(session)
    finally:
        await core.aclose()
        await store.close()
        await service.aclose()
    return sessions


def with_full_places(session: Session) -> Session:
    """``session`` with its place answers in the full form earlier releases stored (every
    ``PlacePick`` field, defaults included, down to the saved place's record)."""
    answers = {
        name: PlacePick.model_validate(value).model_dump(mode="json")
        if name.endswith("_place") and isinstance(value, dict) and "kind" in value
        else value
        for name, value in session.answers.items()
    }
    return session.model_copy(update={"answers": answers})


def earlier_form(session: Session) -> str:
    """The JSON earlier releases stored: every field, and one object per visit."""
    full = with_full_places(session)
    data = full.model_dump(mode="json")
    data["history"] = [{"flow": visit.flow, "step": visit.step} for visit in full.history]
    return json.dumps(data, separators=(",", ":"))


_SAVE_AS_TEXT = (
    "INSERT INTO sessions (channel, chat_id, user_id, data, updated_at) VALUES (?, ?, ?, ?, ?)"
)


def empty_store(path: Path, page_size: int) -> None:
    """An empty database file with ``page_size`` pages, in WAL mode (the store then opens it
    as it is: an existing file keeps its page size)."""
    conn = sqlite3.connect(path)
    try:
        conn.execute(f"PRAGMA page_size={page_size}")
        conn.execute("PRAGMA journal_mode=WAL")
    finally:
        conn.close()


async def stored_bytes(path: Path, texts: list[str], packed: bool) -> tuple[int, float, float]:
    """The file's page size, then table bytes and index bytes per session, with ``texts``
    saved for ``CHATS`` chats: through the store (``packed``: deflated, as it keeps them), or
    as the JSON text itself (as releases before packing kept them)."""
    store = await Store.connect(path, synchronous="NORMAL")
    try:
        db = store._db
        for chat in range(CHATS):
            if packed:
                await store.sessions.save(ChatRef(TELEGRAM, chat), chat, texts[chat])
            else:
                await db.execute(_SAVE_AS_TEXT, (TELEGRAM, chat, chat, texts[chat], time.time()))
        row = await db.fetch_one(
            "SELECT (SELECT sum(pgsize) FROM dbstat WHERE name = 'sessions'),"
            " (SELECT sum(pgsize) FROM dbstat WHERE name = 'sessions_by_updated')"
        )
        page = await db.fetch_one("PRAGMA page_size")
        assert row is not None and page is not None
        return int(page[0]), int(row[0]) / CHATS, int(row[1]) / CHATS
    finally:
        await store.close()


async def bytes_per_session(directory: Path) -> None:
    sessions = await summary_sessions(directory)
    copies = []
    for chat in range(CHATS):
        copy = sessions[chat % SAMPLE].model_copy(update={"id": uuid.uuid4().hex})
        copy.customer = str(chat)
        copies.append(copy)
    stored = [copy.stored_json() for copy in copies]
    forms = (
        ("earlier form, as text", [earlier_form(copy) for copy in copies], False),
        ("stored form, as text (before packing)", stored, False),
        ("stored form, packed (the store's)", stored, True),
    )
    print(f"P6 bytes per stored session at the summary ({SAMPLE} real orders, {CHATS} chats)")
    for number, (label, texts, packed) in enumerate(forms):
        json_bytes = statistics.median(len(text.encode()) for text in texts)
        packed_bytes = statistics.median(len(pack(text)) for text in texts)
        size = (
            f"packed {packed_bytes:.0f} B of JSON {json_bytes:.0f} B"
            if packed
            else (f"JSON {json_bytes:.0f} B")
        )
        print(f"  {label}: {size} (median)")
        for page_size in PAGE_SIZES:
            path = directory / f"form{number}-{page_size}.db"
            empty_store(path, page_size)
            page, table, index = await stored_bytes(path, texts, packed)
            print(
                f"    {page // 1024} KB pages: table {table:5.0f} B/session"
                f"   + index {index:3.0f} B   = {table + index:5.0f} B"
            )
    print("  (goal: at most 2,048 B per session; the store uses 4 KB pages)")
    await save_cost(directory, copies[0].stored_json())


async def save_cost(directory: Path, text: str) -> None:
    """What a larger page costs each commit: µs per session save (one statement, one commit)
    over a table of 2,000 sessions, per page size and ``synchronous`` setting, alternating."""
    timings: dict[tuple[str, int], list[float]] = {}
    for run in range(SAVE_ROUNDS):
        for synchronous in SYNCHRONOUS:
            for page_size in PAGE_SIZES:
                path = directory / f"save-{run}-{synchronous}-{page_size}.db"
                empty_store(path, page_size)
                store = await Store.connect(path, synchronous=synchronous)
                try:
                    for chat in range(2_000):
                        await store.sessions.save(ChatRef(TELEGRAM, chat), chat, text)
                    started = time.perf_counter()
                    for save in range(SAVES):
                        await store.sessions.save(ChatRef(TELEGRAM, save), save, text)
                    elapsed = time.perf_counter() - started
                finally:
                    await store.close()
                timings.setdefault((synchronous, page_size), []).append(elapsed / SAVES * 1e6)
    print(f"P6 page size against the cost of a commit ({SAVE_ROUNDS} alternating runs, min/median)")
    for (setting, page_size), runs in timings.items():
        print(
            f"  synchronous={setting:6} {page_size // 1024} KB pages: "
            f"{min(runs):5.0f} {statistics.median(runs):5.0f} µs per session save"
        )


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


async def memory_at_chats(database: str) -> None:
    service = sandbox()
    store = await Store.connect(Path(database), synchronous="NORMAL")
    core = _core(service, store)
    chats: ChatService = core.chats
    # Only remember() and the views are used: no Telegram calls are made here.
    screen = ChatScreen(cast(BotContext, None))
    first_answer = ChoiceAnswer(option="pickup_delivery")

    async def chat(chat_id: int) -> None:
        ref, user = ChatRef(TELEGRAM, chat_id), UserRef(TELEGRAM, chat_id)
        await chats.start(ref, user)
        turn = await chats.handle(ref, user, first_answer)
        view = screen.remember(chat_id)
        view.prompt, view.message_id = turn.prompt, chat_id

    try:
        for warm in range(-AT_ONCE, 0):  # imports, caches and the capability catalogue
            await chat(warm)
        before = rss_mb()
        for start in range(1, CHATS + 1, AT_ONCE):
            await asyncio.gather(*(chat(n) for n in range(start, start + AT_ONCE)))
        after = rss_mb()
        open_sessions = len(await store.sessions.list_open())
        print(f"P6 memory at {CHATS} chats (each started an order and answered once)")
        print(
            f"  RSS {before:6.1f} MB before, {after:6.1f} MB after: "
            f"{(after - before) * 1024 * 1024 / CHATS:6.0f} B per chat   (goal: at most 100 MB)"
        )
        print(f"  open sessions stored: {open_sessions}")
        print("  per-chat maps held in memory now (each bounded):")
        print(f"    ChatService chat locks     {len(chats._locks._locks):6d} (only while in use)")
        print(f"    store held sessions        {len(store.sessions._held):6d} (only mid-update)")
        print(f"    ChatScreen views           {len(screen._views):6d} (LRU, newest kept)")
        marks = len(store.blocked._marked or ())
        print(f"    blocked chats              {marks:6d} (at most {MEMORY_LIMIT:,}, then SQL)")
    finally:
        await core.aclose()
        await store.close()
        await service.aclose()


def memory_process(database: str) -> None:
    asyncio.run(memory_at_chats(database))


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="bench-storage-") as directory:
        asyncio.run(bytes_per_session(Path(directory)))
        process = multiprocessing.get_context("spawn").Process(
            target=memory_process, args=(str(Path(directory) / "memory.db"),)
        )
        process.start()
        process.join()


if __name__ == "__main__":
    main()
