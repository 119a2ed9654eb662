"""What an event tells an agent conversation (JSON API, MCP) about its delivery: the facts as
data, for a program that answers a customer, instead of the sentences a chat is sent.

The conversation that started the delivery gets the status (as the service's value and in
words, said in the language the conversation ordered in: the relay's ``planner`` speaks it
around this), the news in the bot's own words in that language (``message``: each fact once,
as a chat is told it), the service's ``customer_message_hint`` (in its own language),
``summary`` and ``agent_notes``, and the tracking link: that channel only, since the event
reaches the chat of the delivery's link and nothing else. The drop-off code never:
``data.otp`` becomes ``drop_off_code``, a sentence saying the code went to the verified
receiver only (``agent_texts``). A fee set after the order comes with the quote question
(``question``: keep or cancel, answered by the ``quote`` route or the ``answer_quote`` tool).
"""

from __future__ import annotations

import json
from typing import Any

from bot.partner.models import WebhookEvent
from conversations.texts.catalogue import Catalogue
from conversations.texts.deliveries_texts import short_ref, status_label

AGENT_UPDATE = "agent"  # the SendKey kind of an agent conversation's event


def agent_question(event: WebhookEvent, text: str) -> dict[str, Any]:
    """The quote question (``bot.relay.quote_question``) as an agent answers it: the fee as
    data, the question in the customer's words, the choices and where to send one."""
    delivery = event.data.object
    payment = delivery.payment
    return {
        "kind": "quote",
        "text": text,
        "fee": payment.delivery_fee if payment else None,
        "currency": payment.currency_code if payment else None,
        "choices": ["keep", "cancel"],
        "answer": {
            "route": f"POST /api/customers/{{customer}}/deliveries/{short_ref(delivery.id)}/quote",
            "tool": "answer_quote",
        },
    }


def agent_event_body(
    catalogue: Catalogue,
    event: WebhookEvent,
    *,
    drop_off_code: str | None,
    message: str | None = None,
    question: dict[str, Any] | None = None,
) -> str:
    """The JSON text kept for the conversation (``store.agent_events``) and sent on;
    ``message`` is the event's news in the bot's own words (None: nothing new); ``question``
    one the customer is asked (``agent_question``; None: none)."""
    delivery = event.data.object
    body = {
        "event_id": event.id,
        "type": event.type,
        "created": event.created,
        "delivery_id": delivery.id,
        "ref": short_ref(delivery.id),
        "status": delivery.status,
        "status_text": status_label(catalogue, delivery.status),
        "previous_status": event.data.previous_status,
        "message": message,
        "customer_message_hint": event.customer_message_hint,
        "summary": event.summary or None,
        "agent_notes": list(event.agent_notes),
        "tracking_url": delivery.tracking_url,
        "drop_off_code": drop_off_code,
        "question": question,
    }
    return json.dumps(body, ensure_ascii=False)
