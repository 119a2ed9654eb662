"""Acknowledged means durable: a message answered 200 is handled once, in its chat's order,
by whichever instance is alive, on both backends."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from bot.chat_ref import WHATSAPP, ChatRef
from bot.runtime.channel_starters import SHIPPED_CHANNEL_KINDS
from bot.store import Store
from bot.store.pg_local_server import LocalPostgres
from bot.whatsapp.inbox_handling import WhatsAppInboxSweep
from tests.support.store_fixture import STORE_FILE, empty_postgres_database
from tests.whatsapp.receive.conftest import Receiver, Recorder, receiver_on
from tests.whatsapp.receive.pushes import CUSTOMER, encoded, push, signed, status, text

OpenStore = Callable[[], contextlib.AbstractAsyncContextManager[Store]]


@pytest.fixture(params=["sqlite", "postgres"])
def store_backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
async def open_store(
    store_backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[OpenStore]:
    """Opens another store on the test's database: one instance each."""
    dsn = ""
    if store_backend == "postgres":
        server: LocalPostgres = request.getfixturevalue("postgres_server")
        dsn = await empty_postgres_database(server)

    @contextlib.asynccontextmanager
    async def opened() -> AsyncIterator[Store]:
        if dsn:
            store = await Store.connect_postgres(
                dsn, media_dir=tmp_path / "media", channels=SHIPPED_CHANNEL_KINDS
            )
        else:
            store = await Store.connect(tmp_path / STORE_FILE, synchronous="NORMAL")
        try:
            yield store
        finally:
            await store.close()

    yield opened


async def _post(receiver: Receiver, data: dict[str, object]) -> int:
    body = encoded(data)
    answer = await receiver.client.post("/whatsapp", content=body, headers=signed(body))
    return answer.status_code


async def test_a_message_whose_instance_died_after_the_200_is_handled_once_by_another(
    open_store: OpenStore, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    async with open_store() as first_store:
        stuck = Recorder(gate=asyncio.Event())  # never opens: the process dies first
        async with receiver_on(first_store, stuck) as first:
            assert await _post(first, push([text("wamid.1")])) == 200
            await stuck.entered.wait()  # stored, acknowledged, its handling under way
        # Its handling cancelled and its store closed: the process is gone.
    assert stuck.messages == []
    async with open_store() as second_store, receiver_on(second_store) as second:
        assert await _post(second, push([text("wamid.1")])) == 200  # Meta's repeat: stored already
        sweep = WhatsAppInboxSweep(
            second_store.whatsapp_inbox,
            second.receiving.handling,
            shared=second_store.shared,
            orphaned_seconds=0.0,
        )
        for _ in range(2):
            await sweep.run_once()
            await second.receiving.handling.idle()
        assert second.recorder.ids == ["wamid.1"]
        assert await second_store.whatsapp_inbox.count_pending() == 0
    assert "1 whatsapp chats have messages stored but not handled" in caplog.text
    assert CUSTOMER not in caplog.text  # the chat id is the customer's phone number


async def test_a_chats_messages_are_handled_in_order_across_two_instances(
    open_store: OpenStore,
) -> None:
    async with open_store() as first_store, open_store() as second_store:
        stuck = Recorder(gate=asyncio.Event())
        async with receiver_on(first_store, stuck) as first:
            assert await _post(first, push([text("wamid.1")])) == 200
            await stuck.entered.wait()
        # The first instance died holding wamid.1; the customer's next message reaches the
        # second, which handles the chat's stored messages oldest first.
        async with receiver_on(second_store) as second:
            assert await _post(second, push([text("wamid.2")])) == 200
            assert await _post(second, push([text("wamid.3")])) == 200
            await second.receiving.handling.idle()
            assert second.recorder.ids == ["wamid.1", "wamid.2", "wamid.3"]


@pytest.mark.parametrize("store_backend", ["postgres"])
async def test_two_live_instances_take_a_chat_in_turn(open_store: OpenStore) -> None:
    # Only a shared database has locks two processes share: SQLite has one process.
    async with open_store() as first_store, open_store() as second_store:
        handled: list[str] = []
        gate = asyncio.Event()
        slow = Recorder(gate=gate, messages=handled)  # type: ignore[arg-type]
        quick = Recorder(messages=handled)  # type: ignore[arg-type]
        async with (
            receiver_on(first_store, slow) as first,
            receiver_on(second_store, quick) as second,
        ):
            assert await _post(first, push([text("wamid.1")])) == 200
            await slow.entered.wait()  # the first holds the chat's lock
            assert await _post(second, push([text("wamid.2")])) == 200
            waiting = asyncio.ensure_future(second.receiving.handling.idle())
            # A negative can only be watched for a while: the second waits for the chat.
            await asyncio.sleep(0.05)
            assert handled == [] and not waiting.done()
            gate.set()
            await first.receiving.handling.idle()
            await waiting
        assert [m.message_id for m in handled] == ["wamid.1", "wamid.2"]


async def test_a_turn_records_its_message_handled_in_its_own_commit(
    open_store: OpenStore,
) -> None:
    async with open_store() as store:

        class SavingHandler(Recorder):
            async def handle(self, message: object) -> None:
                await super().handle(message)  # type: ignore[arg-type]
                chat = ChatRef(WHATSAPP, int(CUSTOMER))
                assert store.updates.unrecorded_in(chat) is not None
                await store.sessions.save(chat, int(CUSTOMER), "{}")
                # The session's commit recorded the message handled: no commit of its own.
                assert store.updates.unrecorded_in(chat) is None

        async with receiver_on(store, SavingHandler()) as receiver:
            assert await _post(receiver, push([text("wamid.1")])) == 200
            await receiver.receiving.handling.idle()
            assert await store.whatsapp_inbox.count_pending() == 0
            assert receiver.recorder.ids == ["wamid.1"]


async def test_statuses_are_stored_and_handled_once_and_a_failing_handler_is_not_retried(
    open_store: OpenStore,
) -> None:
    async with open_store() as store:
        recorder = Recorder(fail=True)
        async with receiver_on(store, recorder) as receiver:
            failed = status("wamid.out", "failed")
            failed["errors"] = [{"code": 131047, "title": "Re-engagement message"}]
            data = push([text("wamid.in")], [failed, status("wamid.out", "sent")])
            for _ in range(2):
                assert await _post(receiver, data) == 200
                await receiver.receiving.handling.idle()
            assert [(s.status, [e.code for e in s.errors]) for s in recorder.statuses] == [
                ("failed", [131047]),
                ("sent", []),
            ]
            assert recorder.messages == []  # it raised: recorded, not handed again
            assert await store.whatsapp_inbox.count_pending() == 0
            assert await store.whatsapp_inbox.prune_handled(store.clock()) == 3  # bodies cleared
