"""The JSON Meta pushes to a business's webhook: customers' messages, and statuses of the
business's messages.

::

    {"object": "whatsapp_business_account",
     "entry": [{"id": WABA_ID, "changes": [{"field": "messages", "value": {
         "messaging_product": "whatsapp",
         "metadata": {"display_phone_number", "phone_number_id"},
         "contacts": [{"profile": {"name"}, "wa_id"}], "messages": [...]}}]}]}

and for statuses ``value.statuses``: ``[{"id", "status", "timestamp", "recipient_id",
"errors"?, "pricing"?}]``. Timestamps are Unix seconds written as strings, as Meta writes them.
Pricing is Meta's per-message model: a free service message inside the customer-service
window, a billed utility template otherwise.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from bot.whatsapp_fake.graph_errors import ErrorCode, status_error

StatusName = Literal["sent", "delivered", "read", "failed"]


@dataclass(frozen=True)
class NumberMetadata:
    """Who the push is for: the business account and its number."""

    waba_id: str
    phone_number_id: str
    display_phone_number: str


def _envelope(number: NumberMetadata, value: dict[str, Any]) -> dict[str, Any]:
    value = {
        "messaging_product": "whatsapp",
        "metadata": {
            "display_phone_number": number.display_phone_number,
            "phone_number_id": number.phone_number_id,
        },
        **value,
    }
    return {
        "object": "whatsapp_business_account",
        "entry": [{"id": number.waba_id, "changes": [{"field": "messages", "value": value}]}],
    }


def messages_envelope(
    number: NumberMetadata, wa_id: str, profile_name: str, messages: Sequence[Mapping[str, Any]]
) -> dict[str, Any]:
    """A push of ``messages`` (``customer_messages``' values) from ``wa_id``."""
    return _envelope(
        number,
        {
            "contacts": [{"profile": {"name": profile_name}, "wa_id": wa_id}],
            "messages": [dict(message) for message in messages],
        },
    )


def status_value(
    message_id: str,
    status: StatusName,
    at: float,
    wa_id: str,
    *,
    template: bool,
    error: tuple[ErrorCode, str] | None = None,
) -> dict[str, Any]:
    """One status of the business's message ``message_id`` to ``wa_id``."""
    value: dict[str, Any] = {
        "id": message_id,
        "status": status,
        "timestamp": str(int(at)),
        "recipient_id": wa_id,
    }
    if error is not None:
        value["errors"] = [status_error(*error)]
    elif status != "read":
        value["pricing"] = {
            "billable": template,
            "pricing_model": "PMP",
            "category": "utility" if template else "service",
            "type": "regular" if template else "free_customer_service",
        }
    return value


def statuses_envelope(
    number: NumberMetadata, statuses: Sequence[Mapping[str, Any]]
) -> dict[str, Any]:
    """A push of ``statuses`` (``status_value``'s)."""
    return _envelope(number, {"statuses": [dict(status) for status in statuses]})
