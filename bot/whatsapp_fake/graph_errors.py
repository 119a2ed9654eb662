"""The Graph API's error envelope, as the simulated Cloud API answers a refused call.

Meta answers every refused call with one shape (the Cloud API's "Error codes" page)::

    {"error": {"message": "(#131009) Parameter value is not valid", "type": "OAuthException",
               "code": 131009, "error_data": {"messaging_product": "whatsapp",
               "details": "..."}, "error_subcode"?: ..., "fbtrace_id": "..."}}

with the HTTP status Meta's table gives the code. The title leads the message after the code,
as Meta writes it; ``details`` says what was wrong. A client reads ``code`` (pywa raises its
``WhatsAppError`` subclass for it), so the fake's titles and statuses are Meta's own.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any, Final


@dataclass(frozen=True)
class ErrorCode:
    """One of Meta's error codes: its number, its title, and the HTTP status it comes with."""

    code: int
    title: str
    http_status: int


INVALID_PARAMETER: Final = ErrorCode(100, "Invalid parameter", 400)
ACCESS_TOKEN_EXPIRED: Final = ErrorCode(190, "Access token has expired", 401)
RATE_LIMIT_HIT: Final = ErrorCode(130429, "Rate limit hit", 400)
MESSAGE_UNDELIVERABLE: Final = ErrorCode(131026, "Message undeliverable", 400)
RE_ENGAGEMENT: Final = ErrorCode(131047, "Re-engagement message", 400)
MISSING_PARAMETER: Final = ErrorCode(131008, "Required parameter is missing", 400)
PARAMETER_NOT_VALID: Final = ErrorCode(131009, "Parameter value is not valid", 400)
UNSUPPORTED_MESSAGE_TYPE: Final = ErrorCode(131051, "Unsupported message type", 400)
PAIR_RATE_LIMIT: Final = ErrorCode(
    131056, "(Business Account, Consumer Account) pair rate limit hit", 400
)
TEMPLATE_PARAMETER_MISMATCH: Final = ErrorCode(
    132000, "Number of parameters does not match the expected number of params", 400
)
TEMPLATE_DOES_NOT_EXIST: Final = ErrorCode(
    132001, "Template name does not exist in the translation", 404
)
MEDIA_NOT_FOUND: Final = ErrorCode(100, "Unsupported get request", 400)
"""A media id the fake does not hold: Graph answers an unknown object id with code 100."""

RE_ENGAGEMENT_DETAILS: Final = (
    "Message failed to send because more than 24 hours have passed since the customer last "
    "replied to this number."
)


class GraphError(Exception):
    """A call the simulated Cloud API refuses: ``error`` is Meta's code, ``details`` why."""

    def __init__(self, error: ErrorCode, details: str, *, subcode: int | None = None) -> None:
        super().__init__(f"{error.code} {error.title}: {details}")
        self.error = error
        self.details = details
        self.subcode = subcode

    def envelope(self) -> dict[str, Any]:
        """Meta's JSON body for this refusal."""
        body: dict[str, Any] = {
            "message": f"(#{self.error.code}) {self.error.title}",
            "type": "OAuthException",
            "code": self.error.code,
            "error_data": {"messaging_product": "whatsapp", "details": self.details},
            "fbtrace_id": fbtrace_id(),
        }
        if self.subcode is not None:
            body["error_subcode"] = self.subcode
        return {"error": body}


def fbtrace_id() -> str:
    """A trace id as Meta attaches to each answer (opaque, unique per call)."""
    return "A" + secrets.token_urlsafe(16)


def status_error(error: ErrorCode, details: str) -> dict[str, Any]:
    """One entry of a ``failed`` status's ``errors``, as Meta pushes it by webhook."""
    return {
        "code": error.code,
        "title": error.title,
        "message": error.title,
        "error_data": {"details": details},
    }
