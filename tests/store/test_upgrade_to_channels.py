"""A store written by the code from before chats were named by their channel opens with this
code and keeps everything, each row under the right ``ChatRef``: Telegram's ids as Telegram's,
agent conversations and customers (ids at or below -2**50) as the channel ``agents`` by their
sequence numbers. On SQLite and on PostgreSQL.

The old store is written by that revision's own code (``store_before_channels``), in a fresh
process whose ``PYTHONPATH`` is its tree, exported with ``git archive``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.chat_ref import AGENTS, TELEGRAM, ChatRef, UserRef
from bot.store import SendKey, Store
from bot.store.pg_local_server import LocalPostgres

BEFORE_CHANNELS = "f962906"  # main as it was before this step (schema version 9)
WRITER = Path(__file__).with_name("store_before_channels.py")
REPOSITORY = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def old_tree(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    into = tmp_path_factory.mktemp("before_channels")
    archive = into / "tree.tar"
    with archive.open("wb") as out:
        argv = ["git", "archive", BEFORE_CHANNELS, "bot", "conversations"]
        subprocess.run(argv, stdout=out, check=True, cwd=REPOSITORY)  # noqa: S603
    with tarfile.open(archive) as tar:
        tar.extractall(into / "tree", filter="data")
    yield into / "tree"


def write_with_old_code(tree: Path, *argv: str) -> dict[str, object]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    command = [sys.executable, str(WRITER), *argv]
    done = subprocess.run(command, env=env, check=True, capture_output=True, text=True)  # noqa: S603
    written: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    assert written["schema_version"] == 9  # really the old code
    return written


async def finds_everything(store: Store, written: dict[str, object]) -> None:
    telegram = ChatRef(TELEGRAM, int(str(written["telegram_chat"])))
    agent = ChatRef(AGENTS, int(str(written["conversation_seq"])))
    agent_user = UserRef(AGENTS, int(str(written["customer_seq"])))
    assert store.schema_version >= 10

    # Sessions: one per chat, under its channel, with the customer in that channel.
    sessions = {record.chat: record for record in await store.sessions.list_open()}
    assert set(sessions) == {telegram, agent}
    assert sessions[telegram].data == '{"who": "telegram"}'
    assert sessions[telegram].user == telegram.user(telegram.id)
    assert sessions[agent].data == '{"who": "agent"}' and sessions[agent].user == agent_user

    # The agent conversation, its transcript and its events.
    conversation = await store.agents.get(str(written["conversation"]), "acme")
    assert conversation is not None
    assert (conversation.chat, conversation.user) == (agent, agent_user)
    assert await store.agents.by_chat(agent) == conversation
    assert await store.agents.transcript(conversation) == ['{"n": 1}', '{"n": 2}']
    events = await store.agent_events.after(agent, 0, 10)
    assert [(event.chat, event.body) for event in events] == [
        (agent, '{"event": 1}'),
        (agent, '{"event": 2}'),
    ]
    assert not await store.agent_events.add(agent, "evt_done", "{}")  # kept once, as before
    assert await store.agent_events.add(agent, "evt_new", '{"event": 3}')
    (new,) = await store.agent_events.after(agent, events[-1].seq, 10)
    assert new.seq > events[-1].seq  # the stream goes on after the copied events
    assert [hook.channel for hook in await store.agent_events.due_hooks(["acme"], 10)] == [
        "acme"
    ] * 3

    # Delivery links, by chat and by customer.
    tg_link, agent_link = (
        await store.deliveries.get("dlv_tg"),
        await store.deliveries.get("dlv_agent"),
    )
    assert tg_link is not None and (tg_link.chat, tg_link.user) == (
        telegram,
        UserRef(TELEGRAM, telegram.id),
    )
    assert agent_link is not None and (agent_link.chat, agent_link.user) == (agent, agent_user)
    assert [link.delivery_id for link in await store.deliveries.for_user(agent_user, 10)] == [
        "dlv_agent"
    ]
    assert await store.deliveries.owned_by("dlv_tg", tg_link.user)
    assert not await store.deliveries.owned_by("dlv_tg", agent_user)
    assert await store.deliveries.last_order_for(tg_link.user) == "{}"

    # The inbox: the processed event stays processed, the waiting one waits.
    assert [event.event_id for event in await store.inbox.next_batch()] == ["evt_waiting"]

    # Sent markers: what was sent stays sent (never sent again); a claim stays a claim.
    assert await store.sent.was_sent(SendKey("evt_done", telegram, "status"))
    assert await store.sent.message_id(SendKey("evt_done", telegram, "status")) == 55
    assert await store.sent.was_sent(SendKey("evt_done", agent, "agent"))
    assert not await store.sent.claim(SendKey("evt_done", agent, "agent"))
    waiting = SendKey("evt_waiting", agent, "agent")
    assert not await store.sent.was_sent(waiting)
    # Held by a holder that may live on PostgreSQL (until its lease runs out); SQLite's one
    # process takes it over at once.
    assert await store.sent.claim(waiting) is not store.shared

    # What is kept per customer and per chat.
    assert await store.contacts.phone_for(tg_link.user) == "+2348012345678"
    assert await store.customers.get(tg_link.user) == '{"name": "Ada"}'
    assert await store.customers.get(agent_user) == '{"name": "Agent customer"}'
    assert await store.blocked.is_blocked(ChatRef(TELEGRAM, -100_987))
    assert not await store.blocked.is_blocked(telegram)
    handoff = await store.otp.get("dlv_tg")
    assert handoff is not None and handoff.delivered_chat == telegram
    assert await store.otp_invitations.token_for(telegram) == "token-1"
    (unconfirmed,) = await store.unconfirmed.due(3.0)
    assert (unconfirmed.chat, unconfirmed.user) == (agent, agent_user)
    photo = await store.media.get(str(written["photo"]))
    assert photo is not None and photo.chat == agent


async def test_a_sqlite_store_from_before_channels_keeps_everything(
    old_tree: Path, tmp_path: Path
) -> None:
    path = tmp_path / "bot.db"
    written = write_with_old_code(old_tree, "sqlite", str(path))
    async with Store.open(path) as store:
        await finds_everything(store, written)
    async with Store.open(path) as store:  # and once more, migrated already
        assert store.schema_version >= 10
        assert len(await store.sessions.list_open()) == 2


async def test_a_postgres_store_from_before_channels_keeps_everything(
    old_tree: Path, tmp_path: Path, postgres_server: LocalPostgres
) -> None:
    dsn = await postgres_server.create_database("before_channels")
    written = write_with_old_code(old_tree, "postgres", dsn, str(tmp_path / "media"))
    store = await Store.connect_postgres(dsn, media_dir=tmp_path / "media")
    try:
        await finds_everything(store, written)
    finally:
        await store.close()
