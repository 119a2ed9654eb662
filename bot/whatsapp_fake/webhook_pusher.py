"""Pushing to the business's webhook as Meta does: signed, and retried until it answers 200.

Meta signs each push's raw body with the app secret, ``X-Hub-Signature-256: sha256=<hex
HMAC-SHA256>``, and keeps retrying a push the webhook did not answer with 200 (with growing
delays, for up to days). The fake retries after ``retry_delays`` (seconds, slept with the
injected ``sleep``, so a test's clock moves instead of waiting) and then gives up, saying so in
the ``Delivery``. The client is the test's (an ``httpx.AsyncClient`` on the bot's ASGI app or a
real URL); the app secret never leaves the signature.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import httpx

from bot.clocks import Sleep, system_sleep

RETRY_DELAYS: Final = (1.0, 5.0, 30.0, 120.0)
"""Seconds before each retry: Meta backs off likewise (its own delays are not published)."""
SIGNATURE_HEADER: Final = "X-Hub-Signature-256"


def signature(raw_body: bytes, app_secret: str) -> str:
    """The ``X-Hub-Signature-256`` value Meta sends with ``raw_body``."""
    digest = hmac.new(app_secret.encode(), raw_body, hashlib.sha256).hexdigest()
    return f"sha256={digest}"


@dataclass(frozen=True)
class Delivery:
    """How one push went: each attempt's HTTP status (None: no answer), and whether the last
    was a 200."""

    body: bytes = field(repr=False)
    statuses: tuple[int | None, ...]

    @property
    def delivered(self) -> bool:
        """Whether the webhook took the push (answered 200)."""
        return bool(self.statuses) and self.statuses[-1] == 200


class WebhookPusher:
    """Signs and posts pushes to ``url`` through ``client`` (see the module docstring)."""

    def __init__(
        self,
        client: httpx.AsyncClient,
        url: str,
        app_secret: str,
        *,
        sleep: Sleep = system_sleep,
        retry_delays: Sequence[float] = RETRY_DELAYS,
    ) -> None:
        self._client = client
        self._url = url
        self._app_secret = app_secret
        self._sleep = sleep
        self._retry_delays = tuple(retry_delays)

    async def push(self, envelope: Mapping[str, Any]) -> Delivery:
        """Post ``envelope`` until the webhook answers 200 or the retries run out."""
        body = json.dumps(envelope, ensure_ascii=False, separators=(",", ":")).encode()
        headers = {
            "Content-Type": "application/json",
            SIGNATURE_HEADER: signature(body, self._app_secret),
            "User-Agent": "facebookexternalua",
        }
        statuses: list[int | None] = []
        for delay in (None, *self._retry_delays):
            if delay is not None:
                await self._sleep(delay)
            try:
                answer = await self._client.post(self._url, content=body, headers=headers)
            except httpx.TransportError:
                statuses.append(None)
                continue
            statuses.append(answer.status_code)
            if answer.status_code == 200:
                break
        return Delivery(body, tuple(statuses))
