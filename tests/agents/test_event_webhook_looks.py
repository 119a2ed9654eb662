"""When ``EventWebhooks`` looks again: with channels' webhooks on a shared store, every
``look_seconds`` with one read while nothing is due; without any webhook, never (it has
nothing to post), and a follower does not keep asking to lead. Real SQLite store and
``AgentEvents`` channel; the webhook endpoint is an ``httpx.MockTransport``."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from bot.agents.agent_channel import AgentEvents, EventBell
from bot.agents.event_webhooks import OTHER_INSTANCES_LOOK_SECONDS, EventWebhooks
from bot.jobs import Scheduler
from bot.settings import ChannelHook
from bot.store import Store
from bot.store.coordination import ALWAYS_LEADS

HOOK = ChannelHook("https://agent.example/events", "hook-secret-0123456789")


class NotLeading:
    """Another instance leads."""

    async def leads(self) -> bool:
        return False


@pytest.fixture
def posted() -> list[str]:
    return []


@pytest.fixture
async def webhooks(store: Store, posted: list[str]) -> AsyncIterator[EventWebhooks]:
    async def endpoint(request: httpx.Request) -> httpx.Response:
        posted.append(json.loads(request.content)["event_id"])
        return httpx.Response(204)

    job = EventWebhooks(
        store,
        {"shop": HOOK},
        transport=httpx.MockTransport(endpoint),
        look_seconds=OTHER_INSTANCES_LOOK_SECONDS,
    )
    yield job
    await job.aclose()


def count_reads(store: Store, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The agent events' reads the job makes, by name, from now on."""
    calls: list[str] = []
    events = store.agent_events
    for name in ("next_hook_at", "due_hooks"):
        method = getattr(events, name)

        async def counted(*args: Any, _method: Any = method, _name: str = name) -> Any:
            calls.append(_name)
            return await _method(*args)

        monkeypatch.setattr(events, name, counted)
    return calls


async def test_with_nothing_due_a_pass_is_one_read_and_an_event_is_still_posted(
    store: Store,
    webhooks: EventWebhooks,
    posted: list[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = count_reads(store, monkeypatch)
    jobs = Scheduler(leadership=ALWAYS_LEADS)
    assert await jobs.turn(webhooks) == OTHER_INSTANCES_LOOK_SECONDS
    assert calls == ["next_hook_at"]
    conversation = await store.agents.open("shop", "cust-1", None)
    event = {"event_id": "evt_1", "type": "delivery.status_changed", "status": "matched"}
    await AgentEvents(store, EventBell()).send(conversation.chat, json.dumps(event))
    assert await jobs.turn(webhooks) == OTHER_INSTANCES_LOOK_SECONDS  # kept by another relay
    assert posted == ["evt_1"]
    assert await jobs.turn(webhooks) == OTHER_INSTANCES_LOOK_SECONDS
    assert posted == ["evt_1"]  # once


async def test_without_any_webhook_it_neither_looks_nor_reads_nor_keeps_asking_to_lead(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    job = EventWebhooks(store, {}, look_seconds=OTHER_INSTANCES_LOOK_SECONDS)
    try:
        calls = count_reads(store, monkeypatch)
        assert job.look_seconds is None
        # Only a wake (an event kept here) brings another pass.
        assert await Scheduler(leadership=ALWAYS_LEADS).turn(job) is None
        assert calls == []
        follower_wait = await Scheduler(leadership=NotLeading()).turn(job)
        assert follower_wait is not None and follower_wait >= 3600.0
    finally:
        await job.aclose()
