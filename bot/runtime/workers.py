"""The background work of a running bot, with or without Telegram: one task each.

``deliverybot run`` owns this work on its store; ``deliverybot mcp`` beside it runs none of it.
With several instances on PostgreSQL every one starts every task, and the jobs that must run
once for all (the status poller, the follow-up of lost creates, the agent webhooks) work only
on the instance holding ``store.leadership``, looking for what the others kept
(``bot_core.build_core`` sets that up).
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any

from bot.bot_core import BotCore
from bot.runtime.housekeeping import housekeeping
from bot.store import Store


def spawn_workers(
    core: BotCore, store: Store, *, session_idle_seconds: float
) -> list[asyncio.Task[None]]:
    """Start the core's jobs and its channels' (``BotCore.jobs``: the relay, the status
    poller, the follow-up of lost creates, the agent webhooks) and housekeeping (which drops
    sessions idle for ``session_idle_seconds``); the caller cancels the tasks to stop them."""
    work: dict[str, Coroutine[Any, Any, None]] = {name: job() for name, job in core.jobs().items()}
    work["housekeeping"] = housekeeping(store, session_idle_seconds=session_idle_seconds)
    return [asyncio.create_task(coroutine, name=name) for name, coroutine in work.items()]
