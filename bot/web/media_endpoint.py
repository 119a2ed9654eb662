"""``GET /media/{token}``: package photos re-hosted for the Partner API to download.

The token is the only secret in the URL (256 random bits, made by ``store.media``), so there
is no listing and no directory route, and an unknown token and an expired one get the same 404.
Responses may be cached privately until the photo expires, and are never content-sniffed.
"""

from __future__ import annotations

import re

from starlette.requests import Request
from starlette.responses import FileResponse, PlainTextResponse, Response

from bot.clocks import Clock
from bot.store import Store

# store.media tokens are secrets.token_urlsafe(32): anything else is refused without a lookup.
_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,128}")
_MAX_AGE_CAP_SECONDS = 86_400


def _not_found() -> Response:
    return PlainTextResponse("Not Found", 404)


class MediaEndpoint:
    """Serves ``store.media``; ``handle`` is the Starlette endpoint."""

    def __init__(self, store: Store, *, clock: Clock) -> None:
        self._store = store
        self._clock = clock

    async def handle(self, request: Request) -> Response:
        token = request.path_params["token"]
        if not _TOKEN.fullmatch(token):
            return _not_found()
        media = await self._store.media.get(token)
        if media is None:
            return _not_found()
        max_age = int(min(max(media.expires_at - self._clock(), 0), _MAX_AGE_CAP_SECONDS))
        headers = {
            "Cache-Control": f"private, max-age={max_age}",
            "X-Content-Type-Options": "nosniff",
        }
        return FileResponse(media.path, media_type=media.content_type, headers=headers)
