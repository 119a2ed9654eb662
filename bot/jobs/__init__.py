"""Background jobs and the one scheduler that runs them.

=============  ==============================================================================
``job``        ``Job`` (what is due, one pass), ``Leadership`` (what the scheduler asks)
``scheduler``  ``Scheduler``: waking, sleeping, back-off, leadership and cancellation, once
=============  ==============================================================================

The jobs: the relay (``bot.relay.inbox_worker``), the status poller (``bot.relay.poller``),
the follow-up of lost creates (``bot.ordering.unconfirmed_worker``), the agent webhooks
(``bot.agents.event_webhooks``), MCP push (``bot.agents.mcp_push``) and housekeeping
(``bot.runtime.housekeeping``). The core and each channel name theirs (``BotCore.jobs``,
``ChannelRegistration.jobs``), and ``bot.runtime.workers`` registers them on the ``Runtime``'s
one scheduler.
"""

from bot.jobs.job import Job, Leadership
from bot.jobs.scheduler import Scheduler

__all__ = ["Job", "Leadership", "Scheduler"]
