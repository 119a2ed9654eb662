"""``POST /hooks/partner``: the Partner API's signed events, stored durably before the 2xx.

In order: a declared media type other than JSON (415), the body size limit, the signature
over the raw bytes (each configured secret is tried, so a secret can be rotated), the body as
every JSON door reads it (``bot.web.body.parse_json``: no deep nesting, ``NaN``, repeated
key...) and the event's shape, then ``store.inbox.add``, which commits
before this answers. A redelivered event (its id is stored already) is acknowledged and not
handed to the relay again. The heavy work, sending chat messages, happens in the relay, which
``on_event`` wakes.

Refusals carry no detail: a caller probing the endpoint learns only "400". The log says why,
but never quotes the body (it holds personal data and drop-off codes), the signature header or
a secret.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

import pydantic
from starlette.requests import ClientDisconnect, Request
from starlette.responses import PlainTextResponse, Response

from bot.clocks import Clock
from bot.log_context import log_context
from bot.metrics.business_metrics import NO_METRICS, Metrics
from bot.partner.models import WebhookEvent
from bot.partner.signing import SIGNATURE_HEADER, SignatureError, verify
from bot.store import Store
from bot.web.body import (
    BodyTooLarge,
    MalformedBody,
    NotJson,
    is_json_media_type,
    parse_json_object,
    read_limited,
)

logger = logging.getLogger(__name__)

# The 2xx's body, encoded once: every acknowledgement is the same.
_ACKNOWLEDGED = b'{"ok":true}'


_REFUSALS = {400: "Bad Request", 413: "Payload Too Large", 415: "Unsupported Media Type"}


def _refused(status: int = 400) -> Response:
    return PlainTextResponse(_REFUSALS[status], status)


class PartnerWebhook:
    """The endpoint's state; ``handle`` is the Starlette endpoint."""

    def __init__(
        self,
        store: Store,
        signing_secrets: Sequence[str],
        *,
        max_body_bytes: int,
        on_event: Callable[[], None] | None,
        clock: Clock,
        metrics: Metrics = NO_METRICS,
    ) -> None:
        if not signing_secrets or not all(signing_secrets):
            raise ValueError("at least one non-empty signing secret is needed")
        if max_body_bytes < 1:
            raise ValueError("max_body_bytes must be at least 1")
        self._store = store
        self._secrets = tuple(signing_secrets)
        self._max_body_bytes = max_body_bytes
        self._on_event = on_event
        self._clock = clock
        self._metrics = metrics  # the business's: counts the events stored and redelivered

    def __repr__(self) -> str:
        return f"PartnerWebhook(secrets=<{len(self._secrets)} redacted>)"

    async def handle(self, request: Request) -> Response:
        if not is_json_media_type(request.headers.get("content-type")):
            logger.warning("partner webhook refused: a body that is not JSON by its media type")
            return _refused(415)
        try:
            raw = await read_limited(request, self._max_body_bytes)
        except BodyTooLarge:
            logger.warning("partner webhook refused: body over %d bytes", self._max_body_bytes)
            return _refused(413)
        except (MalformedBody, ClientDisconnect) as exc:
            logger.warning("partner webhook refused: %s", type(exc).__name__)
            return _refused()
        problem = self._signature_problem(raw, request.headers.get(SIGNATURE_HEADER))
        if problem is not None:
            logger.warning("partner webhook refused: %s", problem)
            return _refused()
        try:
            parse_json_object(raw)  # what no door takes, though signed: nesting, NaN, ...
        except NotJson as exc:
            logger.warning("partner webhook refused: signed body is not an event (%s)", exc)
            return _refused()
        try:
            event = WebhookEvent.model_validate_json(raw)
        except pydantic.ValidationError as exc:
            # Field paths only: the values are personal data.
            paths = sorted({".".join(map(str, error["loc"])) or "body" for error in exc.errors()})
            logger.warning("partner webhook refused: signed body is not an event (%s)", paths[:5])
            return _refused()
        with log_context(event=event.id, delivery=event.data.object.id):
            is_new = await self._store.inbox.add(
                event.id, event.data.object.id, event.type, event.created, raw
            )
            self._metrics.count_webhook_event(event.type, is_new)
            if is_new:
                logger.debug("stored %s event %s", event.type, event.id)
                if self._on_event is not None:
                    self._on_event()
            else:
                logger.info("event %s was redelivered; already stored", event.id)
        return Response(_ACKNOWLEDGED, media_type="application/json")

    def _signature_problem(self, raw: bytes, header: str | None) -> str | None:
        """None when one of the secrets signed ``raw`` in time, else the (secret-free) reason."""
        now = self._clock()
        reason = "no signing secret"
        for secret in self._secrets:
            try:
                verify(raw, header, secret, now=now)
            except SignatureError as exc:
                reason = exc.reason
            else:
                return None
        return reason
