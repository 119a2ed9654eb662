"""The JSON API's OpenAPI 3.1 document, made from the routes' own models so it cannot drift.

``docs/agents-openapi.json`` is this document written out (``python -m
bot.agents.openapi_document > docs/agents-openapi.json``); a test keeps the file equal to it,
and schemathesis checks the running API against it.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel

from bot.agents.agent_privacy import CustomerData, ForgetAnswer
from bot.agents.agent_routes import MAX_CUSTOMER_LENGTH
from bot.agents.api_errors import CODES
from bot.agents.customer_refusals import BLOCKED_CODE, LIMIT_SCHEMA
from bot.agents.headless import ConversationView
from bot.ordering import CancelReply, DeliveryPage, StatusReply
from bot.ordering.quote_desk import QuoteReply

_REF = "#/components/schemas/{model}"


def _schemas() -> dict[str, Any]:
    found: dict[str, Any] = {}
    models: list[type[BaseModel]] = [
        ConversationView,
        DeliveryPage,
        StatusReply,
        CancelReply,
        QuoteReply,
        CustomerData,
        ForgetAnswer,
    ]
    for model in models:
        schema = model.model_json_schema(ref_template=_REF)
        found.update(schema.pop("$defs", {}))
        found[model.__name__] = schema
    found["Error"] = {
        "type": "object",
        "description": "Every refused request: a stable code to branch on, and what to do.",
        "properties": {
            "error": {
                "type": "string",
                "enum": sorted({*CODES.values(), "photo_refused", BLOCKED_CODE}),
            },
            "message": {"type": "string"},
        },
        "required": ["error", "message"],
    }
    found["CustomerLimit"] = LIMIT_SCHEMA
    found["Event"] = {
        "type": "object",
        "description": "One event of a conversation's delivery; never a drop-off code. "
        "Type rider_position: the rider's last position while the delivery moves.",
        "properties": {
            "seq": {"type": "integer"},
            "event_id": {"type": "string"},
            "type": {"type": "string"},
            "delivery_id": {"type": "string"},
            "ref": {"type": "string"},
            "status": {"type": "string"},
            "status_text": {"type": "string"},
            "message": {"type": ["string", "null"]},
            "customer_message_hint": {"type": ["string", "null"]},
            "summary": {"type": ["string", "null"]},
            "agent_notes": {"type": "array", "items": {"type": "string"}},
            "drop_off_code": {"type": ["string", "null"]},
            "question": {
                "type": ["object", "null"],
                "description": "A question for the customer: kind quote, a fee set after the "
                "order (keep or cancel, answered by POST .../deliveries/{ref}/quote).",
            },
            "rider": {
                "type": "object",
                "description": "rider_position: the rider's first name and vehicle type.",
                "properties": {
                    "name": {"type": ["string", "null"]},
                    "vehicle_type": {"type": ["string", "null"]},
                },
            },
            "position": {
                "type": ["object", "null"],
                "description": "rider_position: the rider's last GPS fix (null: not available "
                "right now).",
                "properties": {
                    "latitude": {"type": "number"},
                    "longitude": {"type": "number"},
                    "taken_at": {"type": "string", "format": "date-time"},
                },
                "required": ["latitude", "longitude", "taken_at"],
            },
            "eta_minutes": {
                "type": ["integer", "null"],
                "description": "rider_position: an estimate of arrival from the distance, "
                "not a promise.",
            },
        },
        "required": ["seq"],
    }
    return found


def _json(schema: dict[str, Any]) -> dict[str, Any]:
    return {"content": {"application/json": {"schema": schema}}}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": _REF.format(model=name)}


def _answer(description: str, name: str) -> dict[str, Any]:
    return {"description": description, **_json(_ref(name))}


ERRORS = {
    "400": _answer("The body or a parameter is not what the route takes", "Error"),
    "401": _answer("No channel key, or an unknown one", "Error"),
    "404": _answer("No such conversation or delivery for this channel", "Error"),
    "405": {
        **_answer("The path does not take this method", "Error"),
        "headers": {"Allow": {"schema": {"type": "string"}}},
    },
    "413": _answer("The body is over 64 KiB", "Error"),
    "415": _answer("The body is not of the media type the route takes", "Error"),
    "429": {
        **_answer("Over this key's requests per minute", "Error"),
        "headers": {"Retry-After": {"schema": {"type": "string"}}},
    },
    "500": _answer("The bot failed to answer (the request may be repeated)", "Error"),
}
ALWAYS = ("401", "405", "429", "500")  # any route: no key, a wrong method, the budget, a fault
BLOCKED = _answer("An operator blocked the customer (customer_blocked): nothing started", "Error")
# Where a customer's own limits apply (a start, a confirm), a 429 may be theirs too.
CUSTOMER_429 = {
    "description": "Over this key's requests per minute (Error, rate_limited), or the customer "
    "over one of the business's limits (CustomerLimit, customer_limit: nothing started or "
    "created; Retry-After only when it is a time)",
    "headers": {"Retry-After": {"schema": {"type": "string"}}},
    **_json({"oneOf": [_ref("Error"), _ref("CustomerLimit")]}),
}


def _errors(*codes: str) -> dict[str, Any]:
    return {code: ERRORS[code] for code in sorted({*codes, *ALWAYS})}


UNPROCESSABLE = "a body holding a lone surrogate, an integer beyond 64 bits, NaN or Infinity"


def _refused(description: str, name: str) -> dict[str, Any]:
    """422: ``name`` (the route's own refusal), or ``Error`` for a value the bot cannot keep."""
    schema = {"oneOf": [_ref(name), _ref("Error")]}
    return {"description": f"{description}; or (Error) {UNPROCESSABLE}", **_json(schema)}


def _body(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    schema = {"type": "object", "properties": properties, "required": required}
    return {"required": True, **_json(schema)}


def _turn(
    summary: str, body: dict[str, Any] | None = None, *, limited: bool = False
) -> dict[str, Any]:
    """A turn's route; ``limited``: one that may confirm, so a customer's limit applies."""
    operation: dict[str, Any] = {
        "summary": summary,
        "responses": {
            "200": _answer("The turn: messages and the open question", "ConversationView"),
            "422": _refused(
                "Refused: the answer does not fit the open question's answer_schema "
                "(nothing changed, the same question)",
                "ConversationView",
            ),
            **_errors("400", "404", *(() if body is None else ("413", "415"))),
        },
    }
    if limited:
        operation["responses"]["429"] = CUSTOMER_429
    if body is not None:
        operation["requestBody"] = body
    return operation


CONVERSATION = {
    "name": "conversation_id",
    "in": "path",
    "required": True,
    "schema": {"type": "string"},
}
CUSTOMER = {
    "name": "customer",
    "in": "path",
    "required": True,
    "schema": {"type": "string", "minLength": 1, "maxLength": MAX_CUSTOMER_LENGTH},
}
REF = {"name": "ref", "in": "path", "required": True, "schema": {"type": "string"}}
LANGUAGE = {"type": "string", "minLength": 2, "maxLength": 35}


def build_document() -> dict[str, Any]:
    """The whole OpenAPI document."""
    customer_text = {"type": "string", "minLength": 1, "maxLength": MAX_CUSTOMER_LENGTH}
    conv = "/api/conversations/{conversation_id}"
    whom = "/api/customers/{customer}"
    deliveries = whom + "/deliveries"
    paths: dict[str, Any] = {
        "/api/conversations": {
            "post": {
                "summary": "Start a conversation (an order) for one of the channel's customers",
                "requestBody": _body(
                    {
                        "customer": customer_text,
                        "flow": {"type": "string"},
                        "language": LANGUAGE,
                    },
                    ["customer"],
                ),
                "responses": {
                    "201": _answer("Started: the first question", "ConversationView"),
                    "422": _answer(f"Refused: {UNPROCESSABLE}", "Error"),
                    **_errors("400", "413", "415"),
                    "403": BLOCKED,
                    "429": CUSTOMER_429,
                },
            }
        },
        conv: {
            "parameters": [CONVERSATION],
            "get": {
                "summary": "The conversation as it stands: the open question",
                "responses": {
                    "200": _answer("The last turn", "ConversationView"),
                    **_errors("401", "404", "429"),
                },
            },
        },
        conv + "/transcript": {
            "parameters": [CONVERSATION],
            "get": {
                "summary": "Every answer and turn, oldest first",
                "responses": {
                    "200": {
                        "description": "The transcript",
                        **_json(
                            {
                                "type": "object",
                                "properties": {
                                    "id": {"type": "string"},
                                    "entries": {"type": "array", "items": {"type": "object"}},
                                },
                                "required": ["id", "entries"],
                            }
                        ),
                    },
                    **_errors("401", "404", "429"),
                },
            },
        },
        conv + "/answers": {
            "parameters": [CONVERSATION],
            "post": _turn(
                "Answer the open question (a typed answer matching its answer_schema)",
                _body({"answer": {"type": "object"}}, ["answer"]),
                limited=True,
            ),
        },
        conv + "/back": {"parameters": [CONVERSATION], "post": _turn("Back one question")},
        conv + "/edit": {
            "parameters": [CONVERSATION],
            "post": _turn(
                "From the summary, change one answer",
                _body({"step": {"type": "string", "minLength": 1}}, ["step"]),
            ),
        },
        conv + "/cancel": {"parameters": [CONVERSATION], "post": _turn("Cancel the order")},
        conv + "/photos": {
            "parameters": [CONVERSATION],
            "post": {
                "summary": "Upload a package photo (the image itself); answer the photo question "
                "with the URL it gets",
                "requestBody": {
                    "required": True,
                    "content": {
                        kind: {"schema": {"type": "string", "format": "binary"}}
                        for kind in ("image/jpeg", "image/png", "image/webp")
                    },
                },
                "responses": {
                    "201": {
                        "description": "Kept: where the service will fetch it, and until when",
                        **_json(
                            {
                                "type": "object",
                                "properties": {
                                    "url": {"type": "string"},
                                    "expires_at": {"type": "number"},
                                },
                                "required": ["url", "expires_at"],
                            }
                        ),
                    },
                    "422": _answer("Not an image, too large, or no public host", "Error"),
                    **_errors("400", "404", "413", "415"),
                },
            },
        },
        conv + "/events": {
            "parameters": [CONVERSATION],
            "get": {
                "summary": "Events of the conversation's deliveries (JSON, or SSE with "
                "Accept: text/event-stream and Last-Event-ID)",
                "parameters": [
                    {
                        "name": "after",
                        "in": "query",
                        "required": False,
                        "schema": {"type": "integer", "minimum": 0, "maximum": 999_999_999},
                    }
                ],
                "responses": {
                    "200": {
                        "description": "Events after the position given",
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "properties": {
                                        "events": {"type": "array", "items": _ref("Event")}
                                    },
                                    "required": ["events"],
                                }
                            },
                            "text/event-stream": {"schema": {"type": "string"}},
                        },
                    },
                    **_errors("400", "401", "404", "429"),
                },
            },
        },
        deliveries: {
            "parameters": [CUSTOMER],
            "get": {
                "summary": "The customer's deliveries, newest first",
                "parameters": [
                    {
                        "name": "page",
                        "in": "query",
                        "required": False,
                        "schema": {"type": "integer", "minimum": 0, "maximum": 999_999_999},
                    }
                ],
                "responses": {
                    "200": _answer("One page", "DeliveryPage"),
                    **_errors("400", "401", "429"),
                },
            },
        },
        deliveries + "/{ref}": {
            "parameters": [CUSTOMER, REF],
            "get": {
                "summary": "One of the customer's deliveries as it is now",
                "responses": {
                    "200": _answer("The delivery", "StatusReply"),
                    **_errors("400", "401", "404", "429"),
                },
            },
        },
        deliveries + "/{ref}/cancel": {
            "parameters": [CUSTOMER, REF],
            "post": {
                "summary": "Cancel one of the customer's deliveries, with the customer's reason",
                "requestBody": _body(
                    {"reason": {"type": "string", "minLength": 3, "maxLength": 500}}, ["reason"]
                ),
                "responses": {
                    "200": _answer("Cancelled, or why not", "CancelReply"),
                    "422": _refused("The reason is too short or too long", "CancelReply"),
                    **_errors("400", "404", "413", "415"),
                },
            },
        },
        whom + "/data": {
            "parameters": [CUSTOMER],
            "get": {
                "summary": 'Everything kept about the customer (their "my data"), as one JSON '
                "document; nothing for a customer the channel does not have",
                "parameters": [
                    {"name": "language", "in": "query", "required": False, "schema": LANGUAGE}
                ],
                "responses": {
                    "200": _answer("What is kept, and what to tell them", "CustomerData"),
                    **_errors("400", "401", "429"),
                },
            },
        },
        whom + "/forget": {
            "parameters": [CUSTOMER],
            "post": {
                "summary": "Forget the customer once they confirmed (confirm: true): their data "
                "erased, their finished deliveries kept anonymous, an open one erased once it "
                "ends",
                "requestBody": _body(
                    {"confirm": {"type": "boolean", "const": True}, "language": LANGUAGE},
                    ["confirm"],
                ),
                "responses": {
                    "200": _answer("What was erased, kept and left pending", "ForgetAnswer"),
                    "422": _answer(f"(Error) {UNPROCESSABLE}", "Error"),
                    **_errors("400", "413", "415"),
                },
            },
        },
        deliveries + "/{ref}/quote": {
            "parameters": [CUSTOMER, REF],
            "post": {
                "summary": "Answer a delivery's fee question (an event's question, kind quote)",
                "requestBody": _body(
                    {"choice": {"type": "string", "enum": ["keep", "cancel"]}}, ["choice"]
                ),
                "responses": {
                    "200": _answer("Taken, or why nothing was done", "QuoteReply"),
                    "422": _answer(f"(Error) {UNPROCESSABLE}", "Error"),
                    **_errors("400", "404", "413", "415"),
                },
            },
        },
    }
    for item in paths.values():
        shared = item.pop("parameters", [])
        for operation in item.values():
            operation["parameters"] = [*shared, *operation.get("parameters", [])]
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "deliverybot agent API",
            "version": "1",
            "description": "The bot's ordering flows for apps and LLM agents: see docs/agents.md.",
        },
        "servers": [{"url": "http://127.0.0.1:8080"}],
        "security": [{"channelKey": []}],
        "paths": paths,
        "components": {
            "schemas": _schemas(),
            "securitySchemes": {"channelKey": {"type": "http", "scheme": "bearer"}},
        },
    }


def document_text() -> str:
    """The document as ``docs/agents-openapi.json`` holds it."""
    return json.dumps(build_document(), indent=2, sort_keys=True) + "\n"


if __name__ == "__main__":
    print(document_text(), end="")
