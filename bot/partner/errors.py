"""Every way a Partner API call can fail, as one exception tree keyed by the API's ``code``,
and the one way a webhook from the service is refused.

::

    PartnerError                      any failure of a Partner API call, or a refused webhook
    ├── SignatureError                a webhook's signature is missing, malformed, stale or wrong
    │                                 (``signing``; raised by ``verify``, never by a call)
    ├── PartnerUnreachable            no usable HTTP answer (mapped once from httpx)
    │   ├── ConnectionFailed          could not connect, or the connection dropped
    │   └── RequestTimeout            no answer in time
    ├── ClientError                   4xx: the request must change before it is retried
    │   ├── AuthenticationError       401
    │   │   ├── MissingApiKey             missing_api_key
    │   │   ├── InvalidApiKey             invalid_api_key
    │   │   └── ApiKeyAutoRevoked         api_key_auto_revoked
    │   ├── ForbiddenError            403
    │   │   ├── MissingScope              missing_scope
    │   │   ├── TestKeysUnsupported       test_keys_unsupported
    │   │   ├── BillingTerminated         billing_terminated
    │   │   ├── ServiceDisabled           service_disabled
    │   │   └── CreateRejected            other 403s on create: coverage, money or trust
    │   ├── NotFound                  404 (not_found)
    │   ├── RateLimited               429 (rate_limited), carries retry_after
    │   └── InvalidRequest            400
    │       ├── InvalidFields             validation_error, carries field_errors
    │       ├── ImageHostRejected         image_host_rejected
    │       ├── CancelNotAllowed          cancel_not_allowed
    │       ├── AssignNotAllowed          assign_not_allowed
    │       ├── FeeRequired               fee_required
    │       ├── RiderNotFound             rider_not_found
    │       ├── RiderNotActive            rider_not_active
    │       └── UnassignNotAllowed        unassign_not_allowed
    └── ServerError                   5xx: the service failed; safe reads may be retried
        ├── UpstreamUnavailable       503
        │   ├── CapabilitiesFailed        capabilities_failed
        │   ├── WarehousesFailed          warehouses_failed
        │   └── CreateFailed              create_failed
        └── OperationFailed           500
            ├── GetFailed                 get_failed
            ├── ListFailed                list_failed
            ├── CancelFailed              cancel_failed
            ├── AssignFailed              assign_failed
            └── UnassignFailed            unassign_failed

``error_from_response`` picks the class by ``code`` first, then by HTTP status, so an unknown
code still lands in the right branch, and a body that is not JSON (a proxy's HTML page) still
gives a clear message. No error ever holds a request header, so no secret can leak through
``str()`` or ``repr()``; secrets the service might echo back are blanked out of the message
and of ``fieldErrors`` (names and texts) before anything is shortened.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any, ClassVar

# Request fields whose rejection means the capabilities the bot holds may be stale (spec: "After
# service_disabled, payment errors or coverage errors, the client re-fetches capabilities").
from bot.partner.models import CAPABILITY_FIELDS

_MAX_MESSAGE = 300
REDACTED = "<redacted>"


class PartnerError(Exception):
    """Base of every Partner API failure.

    Attributes: ``status`` (HTTP status, 0 when no answer came), ``code`` (the API's machine
    code, or None), ``message`` (human-readable, never containing a secret), ``field_errors``
    (request field name -> messages) and ``retry_after`` (seconds, when the service said).
    """

    default_code: ClassVar[str | None] = None
    default_message: ClassVar[str] = "the Partner API call failed"

    def __init__(
        self,
        message: str | None = None,
        *,
        status: int = 0,
        code: str | None = None,
        field_errors: dict[str, list[str]] | None = None,
        retry_after: float | None = None,
    ) -> None:
        self.message = (message or self.default_message)[:_MAX_MESSAGE]
        self.status = status
        self.code = code if code is not None else self.default_code
        self.field_errors: dict[str, list[str]] = dict(field_errors or {})
        self.retry_after = retry_after
        super().__init__(self.message)

    def __str__(self) -> str:
        where = f"HTTP {self.status}" if self.status else "no HTTP answer"
        code = f" {self.code}" if self.code else ""
        return f"{where}{code}: {self.message}"

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(status={self.status!r}, code={self.code!r}, "
            f"message={self.message!r})"
        )

    @property
    def invalidates_capabilities(self) -> bool:
        """True when the spec says to re-fetch capabilities after this error."""
        return False


class PartnerUnreachable(PartnerError):
    """No usable HTTP answer. ``surely_unsent`` is True when the connection could not even be
    opened, so nothing reached the API and any request may be sent again.

    The httpx error is deliberately not chained (``__cause__`` and ``__context__`` are None):
    its request still holds the API key in its headers.
    """

    default_message = "the Partner API could not be reached"

    def __init__(
        self, message: str | None = None, *, surely_unsent: bool = False, **kwargs: Any
    ) -> None:
        super().__init__(message, **kwargs)
        self.surely_unsent = surely_unsent


class ConnectionFailed(PartnerUnreachable):
    default_message = "could not connect to the Partner API"


class RequestTimeout(PartnerUnreachable):
    default_message = "the Partner API did not answer in time"


class ClientError(PartnerError):
    default_message = "the Partner API refused the request"


class AuthenticationError(ClientError):
    default_message = "the API key was refused"


class MissingApiKey(AuthenticationError):
    default_code = "missing_api_key"
    default_message = "no API key, or the key is not in the sk_live_ format"


class InvalidApiKey(AuthenticationError):
    default_code = "invalid_api_key"
    default_message = "the API key is unknown or revoked"


class ApiKeyAutoRevoked(AuthenticationError):
    default_code = "api_key_auto_revoked"
    default_message = "the API key was suspended after unusual activity"


class ForbiddenError(ClientError):
    default_message = "the API key may not do this"


class MissingScope(ForbiddenError):
    default_code = "missing_scope"
    default_message = "the API key lacks the scope for this call"


class TestKeysUnsupported(ForbiddenError):
    __test__ = False  # not a pytest test class despite the name
    default_code = "test_keys_unsupported"
    default_message = "legacy test keys are not accepted; use an sk_live_ key"


class BillingTerminated(ForbiddenError):
    default_code = "billing_terminated"
    default_message = "the organisation cannot use the API (billing terminated)"


class ServiceDisabled(ForbiddenError):
    default_code = "service_disabled"
    default_message = "this service kind is not enabled for the organisation"

    @property
    def invalidates_capabilities(self) -> bool:
        return True


class CreateRejected(ForbiddenError):
    """A 403 on create from coverage, money or trust checks (codes not documented)."""

    default_message = "the delivery was rejected (coverage, payment or trust rules)"

    @property
    def invalidates_capabilities(self) -> bool:
        return True


class NotFound(ClientError):
    """404. Without a message from the service it reads "no such delivery" on the delivery
    endpoints and a neutral "not found" elsewhere (``GET /capabilities``: org missing)."""

    default_code = "not_found"
    default_message = "no such delivery"
    neutral_message: ClassVar[str] = "not found"


class RateLimited(ClientError):
    default_code = "rate_limited"
    default_message = "too many requests for this API key"


class InvalidRequest(ClientError):
    default_message = "the request was not accepted"


class InvalidFields(InvalidRequest):
    default_code = "validation_error"
    default_message = "some fields are missing or invalid"

    @property
    def invalidates_capabilities(self) -> bool:
        # A rejected payment method, POD, mode or kind means our allow-list copy is stale.
        return bool(CAPABILITY_FIELDS.intersection(self.field_errors))


class ImageHostRejected(InvalidRequest):
    default_code = "image_host_rejected"
    default_message = "a package image could not be fetched from an allowlisted https host"


class CancelNotAllowed(InvalidRequest):
    default_code = "cancel_not_allowed"
    default_message = "the delivery can no longer be cancelled"


class AssignNotAllowed(InvalidRequest):
    default_code = "assign_not_allowed"
    default_message = "the pickup has already started"


class FeeRequired(InvalidRequest):
    default_code = "fee_required"
    default_message = "a delivery fee must be set before a rider is assigned"


class RiderNotFound(InvalidRequest):
    default_code = "rider_not_found"
    default_message = "the rider is not on this fleet"


class RiderNotActive(InvalidRequest):
    default_code = "rider_not_active"
    default_message = "the rider has not accepted the fleet invite"


class UnassignNotAllowed(InvalidRequest):
    default_code = "unassign_not_allowed"
    default_message = "a rider can only be unassigned while the delivery is matched"


class ServerError(PartnerError):
    default_message = "the Partner API failed"


class UpstreamUnavailable(ServerError):
    default_message = "the Partner API is temporarily unavailable"


class CapabilitiesFailed(UpstreamUnavailable):
    default_code = "capabilities_failed"


class WarehousesFailed(UpstreamUnavailable):
    default_code = "warehouses_failed"


class CreateFailed(UpstreamUnavailable):
    default_code = "create_failed"


class OperationFailed(ServerError):
    default_message = "the Partner API could not complete the operation"


class GetFailed(OperationFailed):
    default_code = "get_failed"


class ListFailed(OperationFailed):
    default_code = "list_failed"


class CancelFailed(OperationFailed):
    default_code = "cancel_failed"


class AssignFailed(OperationFailed):
    default_code = "assign_failed"


class UnassignFailed(OperationFailed):
    default_code = "unassign_failed"


def _by_code() -> dict[str, type[PartnerError]]:
    table: dict[str, type[PartnerError]] = {}
    pending: list[type[PartnerError]] = [PartnerError]
    while pending:
        cls = pending.pop()
        if cls.default_code:
            table[cls.default_code] = cls
        pending.extend(cls.__subclasses__())
    return table


ERRORS_BY_CODE: dict[str, type[PartnerError]] = _by_code()


def _class_for_status(status: int) -> type[PartnerError]:
    if status == 401:
        return AuthenticationError
    if status == 403:
        return ForbiddenError
    if status == 404:
        return NotFound
    if status == 429:
        return RateLimited
    if status == 503:
        return UpstreamUnavailable
    if status == 500:
        return OperationFailed
    if 400 <= status < 500:
        return InvalidRequest if status == 400 else ClientError
    return ServerError


def error_class(status: int, code: str | None, *, on_create: bool = False) -> type[PartnerError]:
    """The most specific class for an HTTP status and API code.

    A known code wins only when its branch agrees with the status (a code on an unexpected
    status is kept as ``code`` on a status-class error). An unknown 403 on create is a
    coverage, money or trust rejection.
    """
    by_status = _class_for_status(status)
    known = ERRORS_BY_CODE.get(code or "")
    if known is not None and issubclass(known, by_status):
        return known
    if on_create and status == 403:
        return CreateRejected
    return by_status


def _retry_after_from(body: dict[str, Any], headers: dict[str, str]) -> float | None:
    value: Any = body.get("retryAfterSeconds")
    if value is None:
        value = headers.get("retry-after")
    try:
        seconds = float(value) if value is not None else None
    except (TypeError, ValueError):
        return None
    if seconds is None or seconds < 0 or seconds != seconds:
        return None
    return seconds


def _redactor(secrets: Iterable[str]) -> Callable[[str], str]:
    hidden = sorted({s for s in secrets if s}, key=len, reverse=True)

    def redact(text: str) -> str:
        for secret in hidden:
            text = text.replace(secret, REDACTED)
        return text

    return redact


def error_from_response(
    status: int,
    body: bytes,
    headers: dict[str, str] | None = None,
    *,
    on_create: bool = False,
    secrets: Iterable[str] = (),
    delivery_call: bool = True,
) -> PartnerError:
    """Build the error for a non-2xx answer from its status, raw body and lower-cased headers.

    Each of ``secrets`` is replaced by ``<redacted>`` in the message and in ``fieldErrors``
    names and texts, before the message is shortened, so no part of one survives.
    ``delivery_call`` False gives a 404 without a message the neutral "not found".
    """
    redact = _redactor(secrets)
    lowered = {k.lower(): v for k, v in (headers or {}).items()}
    parsed: Any
    try:
        parsed = json.loads(body) if body else None
    except (ValueError, UnicodeDecodeError):
        parsed = None
    if not isinstance(parsed, dict):
        content_type = lowered.get("content-type", "unknown content type")
        cls = error_class(status, None, on_create=on_create)
        summary = redact(f"unexpected non-JSON answer ({content_type}, {len(body)} bytes)")
        return cls(summary, status=status, retry_after=_retry_after_from({}, lowered))
    raw_code, raw_message = parsed.get("code"), parsed.get("error")
    code = redact(raw_code) if isinstance(raw_code, str) else None
    message = redact(raw_message) if isinstance(raw_message, str) and raw_message else None
    field_errors_raw = parsed.get("fieldErrors")
    field_errors: dict[str, list[str]] = {}
    if isinstance(field_errors_raw, dict):
        for name, messages in field_errors_raw.items():
            if isinstance(messages, list):
                texts = [redact(str(m)) for m in messages]
            elif isinstance(messages, str):
                texts = [redact(messages)]
            else:
                continue
            field_errors.setdefault(redact(str(name)), []).extend(texts)
    cls = error_class(status, code, on_create=on_create)
    if message is None and issubclass(cls, NotFound) and not delivery_call:
        message = NotFound.neutral_message
    return cls(
        message,
        status=status,
        code=code,
        field_errors=field_errors,
        retry_after=_retry_after_from(parsed, lowered),
    )
