"""The Partner API client's attempts, counted and timed
(``deliverybot_partner_requests_total{operation,status}``, ``..._request_seconds``).

The operation is the method and the path's template (``GET /deliveries/{id}``), never the path
itself: a delivery id in a label would make one series per delivery.
"""

from __future__ import annotations

import re
import time
from collections.abc import Awaitable, Callable
from typing import Any

import httpx

from bot.metrics.business_metrics import Metrics

# A path segment that names one thing (a delivery, a rider): ids carry digits or are long.
_ID_SEGMENT = re.compile(r"[^/]*\d[^/]*|[^/]{24,}")


def partner_operation(method: str, path: str) -> str:
    """``POST /deliveries/{id}/cancel`` for ``POST /api/v1/deliveries/dl_9f2c/cancel``."""
    path = path.split("?", 1)[0]
    tail = path.split("/api/v1", 1)[-1] or "/"
    segments = [
        "{id}" if _ID_SEGMENT.fullmatch(segment) else segment for segment in tail.split("/")
    ]
    return f"{method.upper()} {'/'.join(segments)}"


_STARTED = "deliverybot_started"


async def _started(request: httpx.Request) -> None:
    request.extensions[_STARTED] = time.perf_counter()


def partner_call_hooks(metrics: Metrics) -> dict[str, list[Callable[[Any], Awaitable[None]]]]:
    """The client's ``event_hooks``: each answered attempt counted and timed (until its
    headers are in) in ``metrics``. Hooks rather than a transport of our own, so httpx keeps
    choosing the transport (and the environment's proxies) as it would."""

    async def answered(response: httpx.Response) -> None:
        request = response.request
        started = request.extensions.get(_STARTED)
        if started is not None:
            seconds = time.perf_counter() - started
            status = str(response.status_code)
            metrics.observe_partner_call(request.method, request.url.path, status, seconds)

    return {"request": [_started], "response": [answered]}
