"""``GET /metrics``: a business's Prometheus text exposition (its own registry), behind a bearer
token when one is set.

Before each answer the gauges of shared work are read from the database (``refresh``, through
``health_figures.read_work_figures``, which the console's health page reads too): the inbox
backlog and its oldest event's age, the creates still followed up, the open orders by flow.
With several instances each one serves its own counters, and these gauges the same. A
database that does not answer is counted (``deliverybot_metrics_database_errors_total``) and
the gauges keep their last values: a scrape still shows the process's own counters.
"""

from __future__ import annotations

import hmac
import logging

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from bot.clocks import Clock
from bot.metrics.business_metrics import Metrics
from bot.metrics.health_figures import read_work_figures
from bot.store import Store, StoreError

logger = logging.getLogger(__name__)

# The classic text format every Prometheus 2.x reads (the bot's names need no UTF-8 escaping).
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


class MetricsEndpoint:
    """``handle`` answers ``metrics``' exposition; 401 without the right ``Authorization:
    Bearer``. ``store`` is the same business's, whose shared work the gauges read."""

    def __init__(self, store: Store, metrics: Metrics, *, token: str | None, clock: Clock) -> None:
        self._store = store
        self._metrics = metrics
        self._token = token.encode() if token else None
        self._clock = clock

    def __repr__(self) -> str:
        return f"MetricsEndpoint(token={'<redacted>' if self._token else None})"

    async def handle(self, request: Request) -> Response:
        if self._token is not None and not self._authorized(request):
            headers = {"WWW-Authenticate": "Bearer"}
            return PlainTextResponse("Unauthorized", status_code=401, headers=headers)
        await self.refresh()
        return Response(self._metrics.exposition(), media_type=CONTENT_TYPE)

    def route(self, path: str) -> Route:
        """The route to add to a Starlette app."""
        return Route(path, self.handle, methods=["GET"])

    async def refresh(self) -> None:
        """Read the gauges of shared work from the database (see the module docstring)."""
        try:
            figures = await read_work_figures(self._store, self._clock())
        except StoreError:
            self._metrics.count_scrape_error()
            logger.warning("metrics: the store is not answering; database gauges kept")
            return
        self._metrics.set_work_gauges(figures)

    def _authorized(self, request: Request) -> bool:
        assert self._token is not None
        return bearer_matches(request, self._token)


def bearer_matches(request: Request, token: bytes) -> bool:
    """Whether ``request`` carries ``Authorization: Bearer <token>`` (compared in constant
    time)."""
    scheme, _, presented = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer":
        return False
    return hmac.compare_digest(presented.strip().encode(), token)
