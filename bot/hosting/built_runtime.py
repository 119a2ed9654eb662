"""``RuntimeBusiness``: a hosted business built as the ``Runtime`` of ``deliverybot run``.

A hosted business is built exactly as a single business is (``Runtime.build``: its store, its
core, each channel its file asks for, its background jobs), except that it does not listen:
the host's web server hands it the requests under its prefix and at the root doors, and sets
its Telegram webhook at the host's ``/telegram``.
"""

from __future__ import annotations

from dataclasses import dataclass

from starlette.types import ASGIApp

from bot.hosting.hosted_business import HostedBusiness
from bot.runtime import Runtime
from bot.seams import Seams
from bot.telegram.webhook_route import TELEGRAM_PATH


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


async def build_runtime_business(
    business: HostedBusiness, announce: bool, *, host_url: str | None, seams: Seams | None
) -> RuntimeBusiness:
    """Build and start ``business`` (``announce``: set Telegram's webhook, at ``host_url``'s
    ``/telegram``, and its command menus); stopped again if its start fails."""
    webhook_url = None if host_url is None else host_url + TELEGRAM_PATH
    runtime = await Runtime.build(
        business.config, seams, announce=announce, telegram_webhook_url=webhook_url
    )
    try:
        await runtime.start()
    except BaseException:
        await runtime.stop()
        raise
    return RuntimeBusiness(runtime)
