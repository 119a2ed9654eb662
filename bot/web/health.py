"""``GET /health``: is the bot up and is its store answering; how much waits for the relay.

An instance that is stopping fails its health check on purpose (``mark_stopping``, from
``deliverybot run`` on SIGTERM) while it still serves every other request: a proxy's active
health checks then take it out of rotation before it closes its listener.
"""

from __future__ import annotations

import logging

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from bot.store import Store, StoreError

logger = logging.getLogger(__name__)


def mark_stopping(app: Starlette) -> None:
    """From now on ``/health`` on ``app`` answers 503 ``{"ok": false, "stopping": true}``.

    Kept in ``app.state``: the app is the one thing the endpoint and the server share.
    """
    app.state.stopping = True


class HealthEndpoint:
    """``handle`` answers 200 ``{"ok": true, "inbox_pending": n}``, 503 when the store fails, or
    503 ``{"ok": false, "stopping": true}`` once the app is ``mark_stopping``-ed."""

    def __init__(self, store: Store) -> None:
        self._store = store

    async def handle(self, request: Request) -> Response:
        if getattr(request.app.state, "stopping", False):
            return JSONResponse({"ok": False, "stopping": True}, status_code=503)
        try:
            counts = await self._store.inbox.counts()
        except StoreError:
            logger.warning("health check: the store is not answering")
            return JSONResponse({"ok": False}, status_code=503)
        return JSONResponse({"ok": True, "inbox_pending": counts.pending})
