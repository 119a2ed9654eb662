"""``GET /console/deliveries/live``: the deliveries list's changes as server-sent events, for
the list page's script (``static/console.js``) to put in place.

The query is the list's own (its filters; ``after`` is ignored: only the first page is
live). Read by any staff member: the session is checked when the stream opens and every
``session_check`` seconds after (a session signed out ends its stream with a ``signed-out``
event); over ``LiveList``'s limit of open streams the answer is a 503 in plain words.

Each change is one event::

    event: row                 data: {"id": "<delivery id>", "html": "<tr ...>...</tr>"}
    event: gone                data: {"id": "<delivery id>"}

``row``: the delivery's row on the page's first page, drawn by the server from
``_delivery_row.html`` (autoescaped, as the page itself); ``gone``: the delivery changed and
is not on that page any more. A comment keeps the connection open every ``keep_alive``
seconds; ``retry`` tells the browser when to reconnect after the stream ends (the server
stopping ends every stream, ``close``).
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator, Callable
from typing import Final
from urllib.parse import parse_qs

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response, StreamingResponse
from starlette.routing import BaseRoute, Route

from bot.staff_console.console_kit import ConsoleKit, app_root
from bot.staff_console.deliveries_page import DeliveryRow
from bot.staff_console.deliveries_section import DELIVERIES, list_filters
from bot.staff_console.delivery_filters import DeliveryFilters, FiltersRefused
from bot.staff_console.live_list import (
    INTERVAL_SECONDS,
    MAX_STREAMS,
    LiveEvent,
    LiveList,
    Watcher,
)
from conversations.texts.catalogue import Catalogue

LIVE: Final = f"{DELIVERIES}/live"
KEEP_ALIVE_SECONDS: Final = 15.0
SESSION_CHECK_SECONDS: Final = 10.0
RETRY_MILLISECONDS: Final = 3000


class LiveSection:
    """The live list's stream (no link of its own: the list page opens it)."""

    nav = None

    def __init__(
        self,
        kit: ConsoleKit,
        *,
        monotonic: Callable[[], float] = time.monotonic,
        max_streams: int = MAX_STREAMS,
        interval: float = INTERVAL_SECONDS,
        keep_alive: float = KEEP_ALIVE_SECONDS,
        session_check: float = SESSION_CHECK_SECONDS,
    ) -> None:
        self._kit = kit
        self._monotonic = monotonic
        self.keep_alive = keep_alive
        self.session_check = session_check
        self.live = LiveList(
            kit.store,
            self._draw_row,
            monotonic=monotonic,
            max_streams=max_streams,
            interval=interval,
        )

    def routes(self) -> list[BaseRoute]:
        return [Route("/deliveries/live", self.stream, methods=["GET"])]

    def close(self) -> None:
        """End every open stream and refuse new ones: the server is stopping (browsers
        reconnect, to another instance behind a proxy)."""
        self.live.close()

    async def stream(self, request: Request) -> Response:
        """The stream of the list ``request``'s query filters; see the module docstring."""
        found = await self._kit.viewer(request)
        if isinstance(found, Response):
            return found
        catalogue = self._kit.catalogue(found)
        filters = self._filters(catalogue, request)
        if isinstance(filters, FiltersRefused):
            return PlainTextResponse(filters.reason, status_code=400)
        watcher = await self.live.watch(filters, catalogue, app_root(request))
        if watcher is None:
            busy = catalogue.say("console_web.live.busy")
            return PlainTextResponse(busy, status_code=503, headers={"Retry-After": "30"})
        events = self._events(request, watcher)
        # X-Accel-Buffering: a proxy (nginx) passes each event on at once.
        headers = {"X-Accel-Buffering": "no"}
        return StreamingResponse(events, media_type="text/event-stream", headers=headers)

    def _filters(self, catalogue: Catalogue, request: Request) -> DeliveryFilters | FiltersRefused:
        fields = parse_qs(request.url.query, keep_blank_values=True)
        return list_filters(self._kit, catalogue, fields)

    async def _events(self, request: Request, watcher: Watcher) -> AsyncIterator[str]:
        try:
            yield f"retry: {RETRY_MILLISECONDS}\n\n"
            now = self._monotonic()
            next_check, next_ping = now + self.session_check, now + self.keep_alive
            while True:
                waited = await watcher.wait(max(0.0, min(next_check, next_ping) - now))
                if watcher.ended:
                    return
                if waited:
                    yield "".join(_sse(event) for event in waited)
                now = self._monotonic()
                if now >= next_check:
                    if await self._kit.guard.session(request, touch=False) is None:
                        yield "event: signed-out\ndata: {}\n\n"
                        return
                    next_check = now + self.session_check
                if now >= next_ping or waited:
                    if not waited:
                        yield ": keep-alive\n\n"
                    next_ping = now + self.keep_alive
        finally:
            self.live.leave(watcher)

    def _draw_row(self, catalogue: Catalogue, root: str, row: DeliveryRow) -> str:
        return self._kit.pages.fragment("_delivery_row.html", catalogue, root=root, row=row)


def _sse(event: LiveEvent) -> str:
    """One event in the stream's format (JSON data: one line, whatever the row's HTML)."""
    data = {"id": event.delivery_id, **({"html": event.html} if event.kind == "row" else {})}
    return f"event: {event.kind}\ndata: {json.dumps(data)}\n\n"
