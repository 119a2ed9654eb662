"""The sandbox's error: one exception that renders as the spec's error envelope.

Every failure the sandbox answers, from any layer, is an ``ApiError`` turned into
``{ ok: false, error, code, fieldErrors?, retryAfterSeconds? }`` by ``error_response``; nothing
else reaches the wire, so a client sees exactly the shapes the spec documents.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from starlette.responses import JSONResponse

from bot.sandbox.sandbox_errors import SandboxError


class ApiError(SandboxError):
    """A failure with its HTTP status, machine ``code`` and human message.

    ``field_errors`` maps request field names to messages (validation failures);
    ``retry_after`` is set on 429; ``headers`` are added to the response (rate-limit headers).
    """

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        *,
        field_errors: Mapping[str, list[str]] | None = None,
        retry_after: int | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.field_errors = {name: list(msgs) for name, msgs in (field_errors or {}).items()}
        self.retry_after = retry_after
        self.headers = dict(headers or {})

    def __repr__(self) -> str:
        return f"ApiError(status={self.status}, code={self.code!r}, message={self.message!r})"

    def body(self) -> dict[str, Any]:
        """The envelope as a JSON-ready dict."""
        body: dict[str, Any] = {"ok": False, "error": self.message, "code": self.code}
        if self.field_errors:
            body["fieldErrors"] = self.field_errors
        if self.retry_after is not None:
            body["retryAfterSeconds"] = self.retry_after
        return body


def error_response(error: ApiError, extra_headers: Mapping[str, str] | None = None) -> JSONResponse:
    """The envelope response for ``error``, with its headers and any ``extra_headers``."""
    headers = dict(extra_headers or {})
    headers.update(error.headers)
    return JSONResponse(error.body(), status_code=error.status, headers=headers)


def validation_error(
    field_errors: Mapping[str, list[str]], message: str = "Some fields are missing or invalid."
) -> ApiError:
    """400 ``validation_error`` naming every bad field."""
    return ApiError(400, "validation_error", message, field_errors=field_errors)


def not_found(message: str = "No delivery with this id.") -> ApiError:
    return ApiError(404, "not_found", message)
