"""``RuntimeBusiness``: a hosted business built as the ``Runtime`` of ``deliverybot run``.

A hosted business is built exactly as a single business is (``Runtime.build``: its store, its
core, each channel its file asks for, its background jobs), except that it does not listen:
the host's web server hands it the requests under its prefix and at the root doors, and sets
its Telegram webhook at the host's ``/telegram``.
"""

from __future__ import annotations

import ssl
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Final

import httpx
from starlette.types import ASGIApp
from telegram.request import HTTPXRequest

from bot.hosting.hosted_business import HostedBusiness
from bot.runtime import Runtime
from bot.runtime.hosted import Hosted
from bot.seams import Seams
from bot.telegram.webhook_route import TELEGRAM_PATH

if TYPE_CHECKING:  # asyncpg is loaded only for a shared database
    from bot.store.pg_host import PgHost

TELEGRAM_POOL: Final = 256
"""PTB's own default connection pool for the Bot API requests."""


@dataclass
class RuntimeBusiness:
    """A built business (``bot.hosting.business_slot.BuiltBusiness``) over its runtime."""

    runtime: Runtime

    @property
    def web_app(self) -> ASGIApp:
        return self.runtime.web_app

    @property
    def releasable(self) -> bool:
        # With the Partner webhooks off, the business polls for its deliveries' news: it
        # stays built, or news would wait for its next customer.
        return self.runtime.poller is None

    async def pending_work(self) -> int:
        store = self.runtime.store
        events = await store.gauges.partner_events()
        updates = await store.gauges.telegram_updates()
        messages = await store.whatsapp_inbox.count_pending()
        return events.pending + updates.pending + messages

    async def stop(self) -> None:
        console = self.runtime.core.console
        if console is not None:  # its live streams would hold the stop back
            console.close_streams()
        await self.runtime.stop()


def with_shared_tls(seams: Seams, tls: ssl.SSLContext) -> Seams:
    """``seams`` whose HTTPS clients the test or host did not give verify with ``tls``.

    Every httpx client builds its own TLS context by default, reading the CA bundle: about
    150 ms of CPU each, and a business opens three or four (Telegram's two requests, the
    Partner API, WhatsApp's Cloud API). The host builds one context and each business's
    clients share it; their connections stay the business's own, closed with it.
    """
    verify = {"verify": tls}
    return replace(
        seams,
        partner_transport=seams.partner_transport or httpx.AsyncHTTPTransport(verify=tls),
        whatsapp_transport=seams.whatsapp_transport or httpx.AsyncHTTPTransport(verify=tls),
        geocoder_transport=seams.geocoder_transport or httpx.AsyncHTTPTransport(verify=tls),
        agent_webhook_transport=seams.agent_webhook_transport
        or httpx.AsyncHTTPTransport(verify=tls),
        telegram_request=seams.telegram_request
        or HTTPXRequest(connection_pool_size=TELEGRAM_POOL, httpx_kwargs=verify),
        telegram_updates_request=seams.telegram_updates_request
        or HTTPXRequest(connection_pool_size=1, httpx_kwargs=verify),
    )


async def build_runtime_business(
    business: HostedBusiness,
    announce: bool,
    *,
    host_url: str | None,
    seams: Seams,
    pg_host: PgHost | None = None,
) -> RuntimeBusiness:
    """Build and start ``business`` (``announce``: set Telegram's webhook, at ``host_url``'s
    ``/telegram``, and its command menus; ``pg_host``: the host's shared connections when its
    store is PostgreSQL); stopped again if its start fails."""
    webhook_url = None if host_url is None else host_url + TELEGRAM_PATH
    hosted = Hosted(business.name, webhook_url, announce, pg_host)
    runtime = await Runtime.build(business.config, seams, hosted=hosted)
    try:
        await runtime.start()
    except BaseException:
        await runtime.stop()
        raise
    return RuntimeBusiness(runtime)
