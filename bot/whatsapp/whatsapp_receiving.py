"""The WhatsApp channel's receiving side, built once for the channel's registration.

``whatsapp_receiving`` puts together what ``bot.whatsapp.whatsapp_webhook`` (the door),
``store.whatsapp_inbox`` (durable before the 200) and ``bot.whatsapp.inbox_handling`` (each
chat's items in order, once) need; the registration adds ``routes`` to the web app, ``jobs``
to the scheduler, and calls ``aclose`` when the channel closes.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from starlette.routing import BaseRoute

from bot.clocks import Clock
from bot.config.whatsapp_section import WhatsAppConfig
from bot.jobs import Job
from bot.store import Store
from bot.whatsapp.contracts import InboundHandler, StatusHandler
from bot.whatsapp.inbox_handling import InboxHandling, WhatsAppInboxSweep
from bot.whatsapp.whatsapp_kind import WHATSAPP_KIND
from bot.whatsapp.whatsapp_webhook import MAX_PUSH_BYTES, whatsapp_routes


@dataclass(frozen=True)
class WhatsAppReceiving:
    """``routes``: ``GET`` and ``POST /whatsapp``; ``jobs``: the inbox's sweep; ``handling``:
    the chats' handling in this process (``idle()`` awaits it)."""

    routes: Sequence[BaseRoute]
    jobs: Sequence[Job]
    handling: InboxHandling

    async def aclose(self) -> None:
        """Stop the handling under way; what it left is stored, for the next instance."""
        await self.handling.aclose()


def whatsapp_receiving(
    section: WhatsAppConfig,
    store: Store,
    handler: InboundHandler,
    statuses: StatusHandler,
    *,
    clock: Clock = time.time,
    max_body_bytes: int = MAX_PUSH_BYTES,
) -> WhatsAppReceiving:
    """The receiving side of the number ``section`` configures, on ``store``: each message
    goes to ``handler``, each status to ``statuses``, holding the chat's lock, once.
    ``ValueError`` when ``section`` runs no WhatsApp channel."""
    if (
        section.phone_number_id is None
        or section.app_secret is None
        or section.verify_token is None
    ):
        raise ValueError("[whatsapp] phone_number_id, app_secret and verify_token are needed")
    store.declare_channel(WHATSAPP_KIND)  # its chats' locks, on a shared store too
    handling = InboxHandling(
        store.whatsapp_inbox, store.updates, store.chat_locks, handler, statuses
    )
    routes = whatsapp_routes(
        phone_number_id=section.phone_number_id,
        app_secret=section.app_secret.get_secret_value(),
        verify_token=section.verify_token.get_secret_value(),
        inbox=store.whatsapp_inbox,
        handling=handling,
        max_body_bytes=max_body_bytes,
    )
    sweep = WhatsAppInboxSweep(store.whatsapp_inbox, handling, shared=store.shared, clock=clock)
    return WhatsAppReceiving(routes, [sweep], handling)
