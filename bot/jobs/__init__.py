"""Background jobs and the one scheduler that runs them.

=============  ==============================================================================
``job``        ``Job`` (what is due, one pass), ``Leadership``, ``AlwaysLeads``
``scheduler``  ``Scheduler``: waking, sleeping, back-off, leadership and cancellation, once
=============  ==============================================================================

The jobs: the relay (``bot.relay.inbox_worker``), the status poller (``bot.relay.poller``),
the follow-up of lost creates (``bot.ordering.unconfirmed_worker``), the agent webhooks
(``bot.agents.event_webhooks``), MCP push (``bot.agents.mcp_push``) and housekeeping
(``bot.runtime.housekeeping``); ``bot.runtime.workers`` registers them for ``deliverybot run``.
"""

from bot.jobs.job import AlwaysLeads, Job, Leadership
from bot.jobs.scheduler import Scheduler

__all__ = ["AlwaysLeads", "Job", "Leadership", "Scheduler"]
