"""Webhook pushes as Meta sends them, signed with the test app's secret."""

from __future__ import annotations

import json
from typing import Any, Final

from bot.whatsapp.signature import SIGNATURE_HEADER, sign

PHONE_NUMBER_ID: Final = "106540352242922"
APP_SECRET: Final = "0123456789abcdef0123456789abcdef"
VERIFY_TOKEN: Final = "verify-token-for-tests"
CUSTOMER: Final = "2348012345678"
WORDS: Final = "SECRET CUSTOMER WORDS"
"""A customer's words: no log line may hold them."""


def text(wamid: str, body: str = WORDS, *, sender: str = CUSTOMER) -> dict[str, Any]:
    """A customer's text message."""
    return {
        "from": sender,
        "id": wamid,
        "timestamp": "1700000000",
        "type": "text",
        "text": {"body": body},
    }


def status(wamid: str, name: str = "delivered", *, recipient: str = CUSTOMER) -> dict[str, Any]:
    """A status of a message the bot sent."""
    return {"id": wamid, "status": name, "timestamp": "1700000001", "recipient_id": recipient}


def push(
    messages: list[dict[str, Any]] | None = None,
    statuses: list[dict[str, Any]] | None = None,
    *,
    phone_number_id: str = PHONE_NUMBER_ID,
    name: str = "Ada",
) -> dict[str, Any]:
    """A push of ``messages`` (their senders' profiles named ``name``) and ``statuses``."""
    value: dict[str, Any] = {
        "messaging_product": "whatsapp",
        "metadata": {"display_phone_number": "2348000000000", "phone_number_id": phone_number_id},
    }
    if messages:
        senders = dict.fromkeys(message["from"] for message in messages)
        value["contacts"] = [{"profile": {"name": name}, "wa_id": wa_id} for wa_id in senders]
        value["messages"] = messages
    if statuses:
        value["statuses"] = statuses
    change = {"field": "messages", "value": value}
    return {"object": "whatsapp_business_account", "entry": [{"id": "1", "changes": [change]}]}


def signed(body: bytes, secret: str = APP_SECRET) -> dict[str, str]:
    """The headers Meta sends with ``body``."""
    return {SIGNATURE_HEADER: sign(body, secret), "content-type": "application/json"}


def encoded(data: object) -> bytes:
    """``data`` as Meta writes it."""
    return json.dumps(data).encode()
