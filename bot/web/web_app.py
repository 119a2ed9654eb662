"""``create_web_app``: the bot's one ASGI app.

=========================  =====================================================================
``POST {webhook_path}``    the Partner API's signed events into the inbox (``partner_webhook``)
``GET /media/{token}``     re-hosted package photos (``media_endpoint``)
``GET /health``            liveness and the inbox's pending count (``health``)
``extra_routes``           what adapters add, e.g. Telegram's ``POST /telegram``
=========================  =====================================================================

Without signing secrets (webhooks off: polling mode) the webhook route is not mounted at all.
Serve it with uvicorn; the app holds no state of its own beyond the store it was given.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from starlette.applications import Starlette
from starlette.routing import BaseRoute, Route

from bot.clocks import Clock
from bot.metrics.business_metrics import NO_METRICS, Metrics
from bot.store import Store
from bot.web.health import HealthEndpoint
from bot.web.media_endpoint import MediaEndpoint
from bot.web.partner_webhook import PartnerWebhook

DEFAULT_WEBHOOK_PATH = "/hooks/partner"
DEFAULT_MAX_BODY_BYTES = 262_144


def create_web_app(
    *,
    store: Store,
    signing_secrets: Sequence[str],
    webhook_path: str = DEFAULT_WEBHOOK_PATH,
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
    on_event: Callable[[], None] | None = None,
    extra_routes: Sequence[BaseRoute] = (),
    clock: Clock = time.time,
    metrics: Metrics = NO_METRICS,
) -> Starlette:
    """The web app over ``store``; see the module docstring for its routes.

    ``signing_secrets``: every secret a webhook may be signed with (the current one and, during
    a rotation, the previous one). ``on_event`` is called after a new event is stored (pass
    ``relay.wake``). ``clock`` (unix seconds) checks signature timestamps and photo expiry.
    ``metrics``: the business's, where the partner events received are counted.
    """
    if not webhook_path.startswith("/") or webhook_path.endswith("/"):
        raise ValueError("webhook_path must be a path such as /hooks/partner")
    routes: list[BaseRoute] = []
    if signing_secrets:
        webhook = PartnerWebhook(
            store,
            signing_secrets,
            max_body_bytes=max_body_bytes,
            on_event=on_event,
            clock=clock,
            metrics=metrics,
        )
        routes.append(Route(webhook_path, webhook.handle, methods=["POST"]))
    media = MediaEndpoint(store, clock=clock)
    routes.append(Route("/media/{token}", media.handle, methods=["GET"]))
    routes.append(Route("/health", HealthEndpoint(store).handle, methods=["GET"]))
    routes.extend(extra_routes)
    return Starlette(routes=routes)


def media_url(public_base_url: str, token: str) -> str:
    """Where the Partner API downloads the photo behind ``token`` (goes into packageImages)."""
    return f"{public_base_url.rstrip('/')}/media/{token}"
