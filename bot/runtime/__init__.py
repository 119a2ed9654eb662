"""The running bot: every part built from one ``Config``, started and stopped together.

::

    runtime = await Runtime.build(config)     # store, Partner client, engine, PTB, relay, web app
    await runtime.start()                     # Telegram (polling or webhook) and the workers
    ...
    await runtime.stop()

``serve(config)`` is ``deliverybot run``: it also serves the web app with uvicorn and stops on
SIGINT or SIGTERM.

=======================  =====================================================================
Telegram ``polling``     PTB long polling; the web app is served only when the bot has a
                         public host (package photos at ``/media``, partner webhooks)
Telegram ``webhook``     ``setWebhook({public_base_url}/telegram, secret_token)``; the web
                         app's ``/telegram`` route feeds the Application
``[webhooks]`` enabled   the service posts events to ``/hooks/partner`` (verified, inboxed)
``[webhooks]`` disabled  ``StatusPoller`` reads open deliveries into the same inbox instead
=======================  =====================================================================

``Seams`` replaces what tests and benchmarks must not reach for real: the Partner API's
transport, PTB's HTTP layer, the send limiter's clock.

=================  ============================================================================
``runtime``        ``Runtime``: build, start, stop
``wiring``         the core (``bot.bot_core``) with the Telegram channel, from the config
``receiving``      polling or webhook: starting and stopping Telegram's updates
``serving``        ``serve``: uvicorn on a pre-bound socket, until SIGINT or SIGTERM
``housekeeping``   the hourly pruning of what the store keeps only for a while
``logs``           ``configure_logging``, ``RedactSecrets``
``seams``          ``Seams``
=================  ============================================================================
"""

from __future__ import annotations

from bot.runtime.housekeeping import (
    HOUSEKEEPING_SECONDS,
    RELAYED_KEPT_SECONDS,
    UPDATE_IDS_KEPT_SECONDS,
    housekeep,
)
from bot.runtime.logs import RedactSecrets, configure_logging
from bot.runtime.receiving import DRAIN_SECONDS
from bot.runtime.runtime import Runtime
from bot.runtime.seams import Seams
from bot.runtime.serving import listening_socket, serve, start_web_server
from bot.runtime.startup_error import StartupError

__all__ = [
    "DRAIN_SECONDS",
    "HOUSEKEEPING_SECONDS",
    "RELAYED_KEPT_SECONDS",
    "UPDATE_IDS_KEPT_SECONDS",
    "RedactSecrets",
    "Runtime",
    "Seams",
    "StartupError",
    "configure_logging",
    "housekeep",
    "listening_socket",
    "serve",
    "start_web_server",
]
