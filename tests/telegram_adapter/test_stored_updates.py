"""A pushed update's way into the inbox: handed to PTB while its row commits, stored on
return, and kept as the body Telegram sent."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from telegram import Update

from bot.chat_ref import TELEGRAM, ChatRef
from bot.store import Store, StoreError
from bot.telegram import stored_updates
from bot.telegram.stored_updates import hand_in, stored_body

CHAT = ChatRef(TELEGRAM, 42)


def pushed(update_id: int, text: str) -> bytes:
    message = {
        "message_id": 1,
        "date": 1_700_000_000,
        "chat": {"id": CHAT.id, "type": "private"},
        "from": {"id": CHAT.id, "is_bot": False, "first_name": "Ada"},
        "text": text,
    }
    return json.dumps({"update_id": update_id, "message": message}, ensure_ascii=False).encode()


def update_and_queue(update_id: int) -> tuple[bytes, Update, asyncio.Queue[object]]:
    """A pushed update's body, the Update PTB makes of it, and an empty queue for it."""
    raw = pushed(update_id, "hello")
    return raw, Update.de_json(json.loads(raw), None), asyncio.Queue()


def test_a_utf8_body_is_kept_as_it_came() -> None:
    raw = pushed(1, "Ikoyi, près du marché 🚚 \\ud83d")  # a lone surrogate as its escape
    assert stored_body(raw, json.loads(raw)) == raw.decode()


@pytest.mark.parametrize(
    "raw",
    [
        # A lone surrogate written out in UTF-8 bytes (json reads it; UTF-8 refuses it).
        pushed(2, "x").replace(b'"x"', b'"\xed\xa0\xbd"'),
        json.dumps({"update_id": 3, "message": {"text": "x"}}).encode("utf-16-le"),
    ],
    ids=["encoded surrogate", "utf-16"],
)
def test_a_body_that_is_not_plain_utf8_is_written_again_as_ascii_json(raw: bytes) -> None:
    data = json.loads(raw)
    body = stored_body(raw, data)
    assert body.isascii()
    assert json.loads(body) == data


@pytest.fixture
async def full_store(tmp_path: Path) -> AsyncIterator[Store]:
    # FULL: the row's commit waits for the disk on aiosqlite's thread, as in a deployment.
    store = await Store.connect(tmp_path / "bot.db", synchronous="FULL")
    yield store
    await store.close()


async def test_the_update_reaches_ptb_while_its_row_commits_and_is_stored_on_return(
    full_store: Store,
) -> None:
    raw, update, queue = update_and_queue(7)
    inbox = full_store.telegram_inbox
    handing = asyncio.create_task(hand_in(queue, update, inbox, stored_body(raw, {})))
    assert await queue.get() is update
    assert not handing.done()  # the 200 waits for the commit; the turn does not
    await handing
    (stored,) = await inbox.pending_before(CHAT, 8)
    assert (stored.update_id, stored.body) == (7, raw.decode())


async def test_an_update_that_cannot_be_stored_fails_the_push(full_store: Store) -> None:
    raw, update, queue = update_and_queue(9)
    await full_store.close()
    with pytest.raises(StoreError):  # the route answers 500: Telegram sends it again
        await hand_in(queue, update, full_store.telegram_inbox, raw.decode())
    # Queued meanwhile: a turn that goes through records it, and the repeat is dropped.
    assert queue.get_nowait() is update


async def test_an_update_its_turn_commits_at_once_is_not_stored_on_its_own(
    full_store: Store,
) -> None:
    raw, update, queue = update_and_queue(11)
    seen = full_store.updates

    async def turn() -> None:  # what the Application does with it
        taken = await queue.get()
        assert isinstance(taken, Update)
        assert await seen.begin(taken.update_id, CHAT)
        await seen.finish(taken.update_id, CHAT)  # commits the id: handled

    turning = asyncio.create_task(turn())
    await hand_in(queue, update, full_store.telegram_inbox, raw.decode(), seen=seen)
    await turning
    assert await full_store.telegram_inbox.count() == 0  # one commit: the turn's
    assert await seen.seen(11)  # durable as handled


async def test_an_update_whose_turn_is_slow_is_stored_on_its_own(
    full_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(stored_updates, "TURN_WAIT_SECONDS", 0.0)  # nobody takes it here
    raw, update, queue = update_and_queue(12)
    seen = full_store.updates
    await hand_in(queue, update, full_store.telegram_inbox, raw.decode(), seen=seen)
    assert [u.update_id for u in await full_store.telegram_inbox.pending_before(CHAT, 13)] == [12]
    assert queue.get_nowait() is update
