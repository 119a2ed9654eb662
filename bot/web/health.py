"""``GET /health``: is the bot up and is its store answering; how much waits for the relay."""

from __future__ import annotations

import logging

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from bot.store import Store, StoreError

logger = logging.getLogger(__name__)


class HealthEndpoint:
    """``handle`` answers 200 ``{"ok": true, "inbox_pending": n}``, or 503 when the store fails."""

    def __init__(self, store: Store) -> None:
        self._store = store

    async def handle(self, request: Request) -> Response:
        try:
            counts = await self._store.inbox.counts()
        except StoreError:
            logger.warning("health check: the store is not answering")
            return JSONResponse({"ok": False}, status_code=503)
        return JSONResponse({"ok": True, "inbox_pending": counts.pending})
