"""The background jobs of a running bot, with or without Telegram, on one scheduler.

``deliverybot run`` owns this work on its store; ``deliverybot mcp`` beside it runs only its
MCP push (``bot.agents.mcp_command``). With several instances on PostgreSQL every one runs
every job, and the leader-only ones (the status poller, the follow-up of lost creates, the agent
webhooks) pass only on the instance holding ``store.leadership``, looking for what the others
kept (``bot_core.build_core`` sets their ``look_seconds``).
"""

from __future__ import annotations

from bot.bot_core import BotCore
from bot.jobs import AlwaysLeads, Leadership, Scheduler
from bot.runtime.housekeeping import Housekeeping
from bot.store import Store


def background_jobs(core: BotCore, store: Store, *, session_idle_seconds: float) -> Scheduler:
    """The relay, the status poller, the follow-up of lost creates, the agent webhooks and
    housekeeping (which drops sessions idle for ``session_idle_seconds``), registered on one
    scheduler; the caller starts and stops it."""
    scheduler = Scheduler(leadership=store_leadership(store))
    scheduler.add(core.relay)
    scheduler.add(core.follow_up)
    scheduler.add(Housekeeping(store, session_idle_seconds=session_idle_seconds))
    if core.agents is not None and core.agents.webhooks is not None:
        scheduler.add(core.agents.webhooks)
    if core.poller is not None:
        scheduler.add(core.poller)
    return scheduler


def store_leadership(store: Store) -> Leadership:
    """The store's leadership; a SQLite store offers none yet, and its one process leads."""
    return store.leadership if store.leadership is not None else AlwaysLeads()
