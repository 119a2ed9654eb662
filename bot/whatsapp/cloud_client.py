"""The Cloud API client: pywa's ``WhatsApp`` (async) for the business's number, on the
configured Graph API base URL.

pywa points the HTTP session it is given at ``https://graph.facebook.com/v<version>``; the bot
owns that session and points it at ``[whatsapp] graph_api_base_url`` afterwards, so tests and
the demo reach the simulated Cloud API (``bot.whatsapp_fake``) over the same wire. The access
token rides in the session's ``Authorization`` header only: never in a URL or a log line
(pywa's own logger writes request bodies at DEBUG, so ``bot.runtime.logs`` keeps it at
WARNING).

pywa's webhook server is not used: it acknowledges a push before handling it, and the bot's
route (``bot.whatsapp.whatsapp_webhook``) stores each message durably before its 200.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

import httpx

from bot.config.whatsapp_section import WhatsAppConfig

if TYPE_CHECKING:
    from pywa_async.client import WhatsApp

#: A send waits this long for Meta at most; the relay retries what did not go.
CLOUD_TIMEOUT: Final = httpx.Timeout(10.0, connect=5.0)


def graph_api_url(section: WhatsAppConfig) -> str:
    """The versioned Graph API root the bot calls: ``{base}/{version}``."""
    return f"{section.graph_api_base_url.rstrip('/')}/{section.graph_api_version}"


@dataclass(frozen=True)
class CloudClient:
    """pywa's client (``wa``: send, upload, download) and the HTTP session it runs on."""

    wa: WhatsApp
    session: httpx.AsyncClient

    async def aclose(self) -> None:
        """Close the session (and its connections)."""
        await self.session.aclose()


def cloud_client(
    section: WhatsAppConfig, *, transport: httpx.AsyncBaseTransport | None = None
) -> CloudClient:
    """pywa's async client for ``section``'s number (``transport``: a test's ASGI transport)."""
    from pywa_async.client import WhatsApp  # imported only where WhatsApp runs: startup stays light

    if section.phone_number_id is None or section.access_token is None:
        raise ValueError("[whatsapp] phone_number_id and access_token are needed")
    session = httpx.AsyncClient(transport=transport, timeout=CLOUD_TIMEOUT)
    wa = WhatsApp(
        phone_id=section.phone_number_id,
        token=section.access_token.get_secret_value(),
        session=session,
        api_version=float(section.graph_api_version.removeprefix("v")),
        # No webhook server: the bot's own route receives (see the module docstring).
        server=None,
        verify_token=None,
        validate_updates=False,
    )
    session.base_url = httpx.URL(graph_api_url(section))
    return CloudClient(wa, session)
