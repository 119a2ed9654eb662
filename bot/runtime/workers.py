"""The background jobs of a running bot, with or without Telegram, on the runtime's scheduler.

``deliverybot run`` owns this work on its store; ``deliverybot mcp`` beside it runs only its
MCP push (``bot.runtime.mcp_serving``). On a shared store every bot runs every job, and the
leader-only ones (the status poller, the follow-up of lost creates, the agent webhooks, the
retention of personal data) pass only in the one leading (``bot.jobs``), looking for what the
others kept (``bot_core.build_core`` and ``register_agents`` set their ``look_seconds``).
"""

from __future__ import annotations

from bot.bot_core import BotCore
from bot.funnel.recorder import DEFAULT_FUNNEL_DAYS
from bot.jobs import Scheduler
from bot.privacy.retention import Retention
from bot.runtime.housekeeping import Housekeeping


def add_background_jobs(
    scheduler: Scheduler, core: BotCore, *, funnel_days: int = DEFAULT_FUNNEL_DAYS
) -> None:
    """Register on ``scheduler`` the core's jobs and its channels' (``BotCore.jobs``: the relay,
    the follow-up of lost creates, the status poller, the agent webhooks), housekeeping (which
    drops funnel days older than ``funnel_days`` among its technical prunes) and the retention
    of personal data by ``[privacy]`` (``core.settings.privacy``); the caller starts and stops
    it."""
    for job in core.jobs():
        scheduler.add(job)
    scheduler.add(Housekeeping(core.store, funnel_days=funnel_days))
    scheduler.add(Retention(core.store, core.settings.privacy, core.metrics))
