"""The running bot: every part built from one ``Config``, started and stopped together.

::

    runtime = await Runtime.build(config)     # store, core, channels (Telegram when a token is set)
    await runtime.start()                     # each channel's start, then the background jobs
    ...
    await runtime.stop()                      # what started, stopped in reverse

``serve(config)`` is ``deliverybot run``: it also serves the web app with uvicorn and stops on
SIGINT, or on SIGTERM after draining (``/health`` fails for ``[server] drain_seconds``).

=======================  =====================================================================
Telegram ``polling``     PTB long polling; the web app is served only when the bot has a
                         public host (package photos at ``/media``, partner webhooks)
Telegram ``webhook``     ``setWebhook({public_base_url}/telegram, secret_token)``; the web
                         app's ``/telegram`` route feeds the Application
``[webhooks]`` enabled   the service posts events to ``/hooks/partner`` (verified, inboxed)
``[webhooks]`` disabled  ``StatusPoller`` reads open deliveries into the same inbox instead
=======================  =====================================================================

``Seams`` (``bot.seams``) replaces what tests and benchmarks must not reach for real: the
Partner API's transport, PTB's HTTP layer, the send limiter's clock.

=================  ============================================================================
``runtime``        ``Runtime``: build, start, stop, as one ordered stack
``wiring``         the Telegram channel: PTB's Application and its registration on the core
``mcp_serving``    ``serve_mcp``: the runtime without Telegram, serving one MCP channel (its
                   one job: MCP push)
``receiving``      polling or webhook: starting and stopping Telegram's updates
``serving``        ``serve``: uvicorn on a pre-bound socket, until SIGINT or SIGTERM (drained)
``housekeeping``   the hourly pruning of the store's technical bookkeeping (personal data
                   past its time is ``bot.privacy.retention``'s)
``logs``           ``configure_logging``, ``RedactSecrets``
``workers``        the background jobs, registered on the runtime's one scheduler
=================  ============================================================================
"""

from __future__ import annotations

from bot.runtime.housekeeping import (
    HOUSEKEEPING_SECONDS,
    UPDATE_IDS_KEPT_SECONDS,
    housekeep,
)
from bot.runtime.logs import RedactSecrets, configure_logging
from bot.runtime.receiving import DRAIN_SECONDS
from bot.runtime.runtime import Runtime
from bot.runtime.serving import add_metrics_route, listening_socket, serve, start_web_server
from bot.runtime.startup_error import StartupError
from bot.seams import Seams

__all__ = [
    "DRAIN_SECONDS",
    "HOUSEKEEPING_SECONDS",
    "UPDATE_IDS_KEPT_SECONDS",
    "RedactSecrets",
    "Runtime",
    "Seams",
    "StartupError",
    "add_metrics_route",
    "configure_logging",
    "housekeep",
    "listening_socket",
    "serve",
    "start_web_server",
]
