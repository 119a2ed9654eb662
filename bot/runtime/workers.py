"""The background work of a running bot, with or without Telegram: one task each.

``deliverybot run`` is the one process that owns this work on its store; ``deliverybot mcp``
beside it runs none of it. So the creates an MCP process leaves to the follow-up are found
here by looking: ``FOLLOW_UP_LOOK_SECONDS`` apart when agent channels are configured, the
same time a create of this process waits before its first follow-up.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any

from bot.bot_core import BotCore
from bot.ordering.unconfirmed_worker import FIRST_FOLLOW_UP_SECONDS, CreateFollowUp
from bot.runtime.housekeeping import housekeeping
from bot.store import Store

FOLLOW_UP_LOOK_SECONDS = FIRST_FOLLOW_UP_SECONDS


def spawn_workers(
    core: BotCore, store: Store, *, session_idle_seconds: float
) -> list[asyncio.Task[None]]:
    """Start the relay, the status poller, the follow-up of lost creates, the agent webhooks
    and housekeeping (which drops sessions idle for ``session_idle_seconds``); the caller
    cancels the tasks to stop them."""
    work: dict[str, Coroutine[Any, Any, None]] = {
        "relay": core.relay.run(),
        "create-follow-up": core.follow_up.run(),
        "housekeeping": housekeeping(store, session_idle_seconds=session_idle_seconds),
    }
    if core.agents is not None:
        work["follow-up-look"] = _look_for_other_processes(core.follow_up)
        if core.agents.webhooks is not None:
            work["agent-webhooks"] = core.agents.webhooks.run()
    if core.poller is not None:
        work["status-poller"] = core.poller.run()
    return [asyncio.create_task(coroutine, name=name) for name, coroutine in work.items()]


async def _look_for_other_processes(follow_up: CreateFollowUp) -> None:
    # An MCP process's ChatService cannot wake this process's worker: it only writes the row.
    while True:
        await asyncio.sleep(FOLLOW_UP_LOOK_SECONDS)
        follow_up.wake()
