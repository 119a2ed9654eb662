"""The JSON API's routes under ``/api`` (starlette), for ``HeadlessConversations``.

Every route needs a channel key (``channel_keys``) and takes one token of that channel's
budget. Conversations are addressed by their id, deliveries by the channel's own customer
reference and the delivery's id or short reference; another channel's conversation or
customer is answered exactly like an unknown one. A customer's "my data" and "forget me"
(``/customers/{customer}/data`` and ``/forget``, the latter only with ``"confirm": true``) are
``agent_privacy``'s. ``docs/agents-openapi.json`` describes every
route; ``docs/agents.md`` walks through an order with curl.

Status codes: 201 a conversation started (or a photo kept); 200 a turn (``reask`` true when
the flow asked again); 422 an answer that does not fit the open question's ``answer_schema``
(nothing changed: ``refused`` says why and ``prompt`` is the same question), a photo not taken,
or a body the bot could not keep (``unprocessable``: a lone surrogate, an integer beyond 64
bits, NaN or Infinity; nothing changed); 400 a body that is not the JSON asked for; 401 no or
an unknown key; 404 unknown (or not this channel's); 413 a body over 64 KiB (a photo: 5 MB);
429 over the channel's budget (``Retry-After``), or ``customer_limit``: the customer is over
one of ``[limits]`` (``customer_refusals``: the limit and when, ``Retry-After`` when it is a
time); 403 ``customer_blocked``: an operator blocked the customer, no conversation started;
415 a body of a media type the route does not take. Every error is ``api_errors``' envelope,
``{"error": <code>, "message": …}`` (a customer's limit adds its facts), the router's own 404
and 405 and an unexpected fault's 500 included: the routes are one starlette app mounted at
``/api`` with those handlers.
"""

from __future__ import annotations

import asyncio
import json
import math
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from sse_starlette import EventSourceResponse
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route

from bot.agents.agent_channel import EventBell
from bot.agents.agent_handoffs import AgentHandoffs
from bot.agents.agent_quotes import AgentQuotes
from bot.agents.agents_errors import AgentsError
from bot.agents.api_errors import NO_KEY, UNKNOWN_KEY, FaultsAsJson, error_response, http_exception
from bot.agents.channel_keys import ChannelKeys, RateLimits, bearer_key
from bot.agents.customer_refusals import CustomerBlocked, CustomerOverLimit
from bot.agents.door_words import API_WORDS
from bot.agents.headless import AgentNotFound, ConversationView, HeadlessConversations, UnknownFlow
from bot.agents.json_values import NOT_FINITE, unkeepable
from bot.agents.photo_uploads import PhotoUploads, UploadRefused
from bot.metrics.business_metrics import NO_METRICS, Metrics
from bot.partner.models import MAX_IMAGE_BYTES
from bot.settings import AgentChannel
from bot.web.body import (
    BodyTooLarge,
    MalformedBody,
    NotFinite,
    NotJson,
    is_json_media_type,
    parse_json_object,
    read_limited,
)
from conversations.texts.agent_texts import API_TAPS

MAX_BODY_BYTES = 64 * 1024
INT64_LIMIT = 2**63
MAX_CUSTOMER_LENGTH = 200
MAX_HANDOFF_MESSAGE = 2000  # characters an agent passes on to staff with its hand-off
EVENTS_PER_READ = 200
# An SSE stream also looks for events every so often: another process may have kept them.
STREAM_POLL_SECONDS = 5.0
STREAM_PING_SECONDS = 15.0

Handler = Callable[[Request, AgentChannel], Awaitable[Response]]


class AgentRequestRefused(AgentsError):
    """The body or a parameter is not what the route takes; the text says what (no values)."""


class AgentValueUnkeepable(AgentsError):
    """The body is JSON, but holds a value the bot could not keep; the text says which kind."""


class AgentMediaTypeRefused(AgentsError):
    """The body's ``Content-Type`` is not one the route takes; the text says which it takes."""


JSON_ONLY = "the body must be JSON: send it with Content-Type: application/json"
IMAGES_ONLY = "send the image itself with Content-Type image/jpeg, image/png or image/webp"


def agent_routes(
    conversations: HeadlessConversations,
    keys: ChannelKeys,
    limits: RateLimits,
    bell: EventBell,
    uploads: PhotoUploads,
    *,
    stream_poll_seconds: float = STREAM_POLL_SECONDS,
    handoffs: AgentHandoffs | None = None,
    quotes: AgentQuotes | None = None,
    metrics: Metrics = NO_METRICS,
) -> list[BaseRoute]:
    """The routes to add to the bot's web app (``handoffs``: the ``/handoff`` route too;
    ``quotes``: the ``/quote`` answer of a delivery); each request is counted in the
    business's ``metrics`` as an update of the ``api`` channel."""

    def guarded(handler: Handler) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            presented = bearer_key(request.headers.get("authorization"))
            channel = keys.channel_for(presented) if presented else None
            if channel is None:
                headers = {"WWW-Authenticate": "Bearer"}
                return error_response(401, UNKNOWN_KEY if presented else NO_KEY, headers=headers)
            wait = await limits.take(channel)
            if wait is not None:
                headers = {"Retry-After": str(max(1, math.ceil(wait)))}
                message = "too many requests for this key: wait as Retry-After says"
                return error_response(429, message, headers=headers)
            try:
                return await handler(request, channel)
            except CustomerOverLimit as over:
                return JSONResponse(over.body(), status_code=429, headers=over.headers())
            except CustomerBlocked as blocked:
                return JSONResponse(blocked.body(), status_code=403)
            except AgentNotFound:
                return error_response(404, "no such conversation or delivery")
            except AgentRequestRefused as problem:
                return error_response(400, str(problem))
            except AgentValueUnkeepable as problem:
                return error_response(422, str(problem))
            except AgentMediaTypeRefused as problem:
                return error_response(415, str(problem))
            except BodyTooLarge:
                return error_response(413, "the body is too large for this route")
            except MalformedBody as problem:
                return error_response(400, str(problem))

        return metrics.measured_endpoint("api", handler.__name__, endpoint)

    async def start(request: Request, channel: AgentChannel) -> Response:
        body = await _json_object(request)
        customer = _customer(body.get("customer"))
        flow = body.get("flow")
        if flow is not None and not isinstance(flow, str):
            raise AgentRequestRefused("flow must be a string")
        language = _language(body.get("language"))
        try:
            view = await conversations.start(channel.name, customer, flow, language)
        except UnknownFlow:
            raise AgentRequestRefused(f"flow must be one of {conversations.flows}") from None
        return _view(conversations, view, status=201)

    async def handoff(request: Request, channel: AgentChannel) -> Response:
        assert handoffs is not None  # routed only with it
        if request.method == "GET":
            return JSONResponse(await handoffs.state(channel.name, _id(request)))
        body = await _json_object(request)
        message, language = body.get("message", ""), body.get("language")
        if not isinstance(message, str) or len(message) > MAX_HANDOFF_MESSAGE:
            raise AgentRequestRefused(f"message must be a string of at most {MAX_HANDOFF_MESSAGE}")
        if language is not None and not isinstance(language, str):
            raise AgentRequestRefused("language must be a string")
        asked = await handoffs.ask(channel.name, _id(request), message, language)
        return JSONResponse(asked, status_code=202 if asked["handoff"] is not None else 503)

    async def show(request: Request, channel: AgentChannel) -> Response:
        return _view(conversations, await conversations.view(channel.name, _id(request)))

    async def transcript(request: Request, channel: AgentChannel) -> Response:
        entries = await conversations.transcript(channel.name, _id(request), API_TAPS)
        return JSONResponse({"id": _id(request), "entries": entries})

    async def answer(request: Request, channel: AgentChannel) -> Response:
        body = await _json_object(request)
        raw = body.get("answer", body)
        return _view(conversations, await conversations.answer(channel.name, _id(request), raw))

    async def back(request: Request, channel: AgentChannel) -> Response:
        return _view(conversations, await conversations.back(channel.name, _id(request)))

    async def edit(request: Request, channel: AgentChannel) -> Response:
        body = await _json_object(request)
        step = body.get("step")
        if not isinstance(step, str) or not step:
            raise AgentRequestRefused("step must be the name of an answer to change")
        return _view(conversations, await conversations.edit(channel.name, _id(request), step))

    async def cancel(request: Request, channel: AgentChannel) -> Response:
        return _view(conversations, await conversations.cancel(channel.name, _id(request)))

    async def photos(request: Request, channel: AgentChannel) -> Response:
        conversation = await conversations.conversation(channel.name, _id(request))
        media_type = _media_type(request)
        if media_type and not media_type.startswith("image/"):
            raise AgentMediaTypeRefused(IMAGES_ONLY)
        data = await read_limited(request, MAX_IMAGE_BYTES)
        try:
            uploaded = await uploads.put(conversation, data)
        except UploadRefused as refused:
            return error_response(422, refused.reason, code="photo_refused")
        return JSONResponse({"url": uploaded.url, "expires_at": uploaded.expires_at}, 201)

    async def events(request: Request, channel: AgentChannel) -> Response:
        conversation_id = _id(request)
        await conversations.conversation(channel.name, conversation_id)  # 404 first
        after = _after(request)
        if "text/event-stream" not in request.headers.get("accept", ""):
            found = await conversations.events(
                channel.name, conversation_id, after, EVENTS_PER_READ
            )
            return JSONResponse({"events": found})

        async def stream() -> AsyncIterator[dict[str, Any]]:
            seen = after
            while True:
                found = await conversations.events(
                    channel.name, conversation_id, seen, EVENTS_PER_READ
                )
                for event in found:
                    seen = int(event["seq"])
                    yield {"id": str(seen), "event": "delivery", "data": json.dumps(event)}
                if not found:
                    await bell.wait(stream_poll_seconds)

        return EventSourceResponse(stream(), ping=STREAM_PING_SECONDS)

    async def deliveries(request: Request, channel: AgentChannel) -> Response:
        page, customer = _int_param(request, "page", 0), _customer_of(request)
        reply = await conversations.deliveries(channel.name, customer, page)
        return JSONResponse(API_WORDS.drawn(reply, customer).model_dump(mode="json"))

    async def status(request: Request, channel: AgentChannel) -> Response:
        ref, customer = request.path_params["ref"], _customer_of(request)
        reply = await conversations.status(channel.name, customer, ref)
        if reply.outcome == "unknown":
            raise AgentNotFound(ref)
        return JSONResponse(API_WORDS.drawn(reply, customer).model_dump(mode="json"))

    async def cancel_delivery(request: Request, channel: AgentChannel) -> Response:
        body = await _json_object(request)
        reason = body.get("reason")
        if not isinstance(reason, str):
            raise AgentRequestRefused("reason must be a string of 3 to 500 characters")
        ref, customer = request.path_params["ref"], _customer_of(request)
        reply = await conversations.cancel_delivery(channel.name, customer, ref, reason)
        if reply.outcome == "unknown":
            raise AgentNotFound(ref)
        code = 422 if reply.outcome in ("bad_reason", "usage") else 200
        drawn = API_WORDS.drawn(reply, customer)
        return JSONResponse(drawn.model_dump(mode="json"), status_code=code)

    async def quote(request: Request, channel: AgentChannel) -> Response:
        assert quotes is not None  # routed only with it
        choice = (await _json_object(request)).get("choice")
        if choice not in ("keep", "cancel"):
            raise AgentRequestRefused('choice must be "keep" or "cancel"')
        ref, customer = request.path_params["ref"], _customer_of(request)
        reply = await quotes.answer(channel.name, customer, ref, choice, API_WORDS)
        if reply.outcome == "unknown":
            raise AgentNotFound(ref)
        return JSONResponse(reply.model_dump(mode="json"))

    async def customer_data(request: Request, channel: AgentChannel) -> Response:
        language = _language(request.query_params.get("language"))
        found = await conversations.privacy.data(channel.name, _customer_of(request), language)
        # A long-standing customer's document runs to megabytes: written on a thread, so
        # the event loop goes on serving every other chat meanwhile.
        body = await asyncio.to_thread(found.model_dump_json)
        return Response(body, media_type="application/json")

    async def forget_customer(request: Request, channel: AgentChannel) -> Response:
        body = await _json_object(request)
        if body.get("confirm") is not True:
            raise AgentRequestRefused(
                "confirm must be true: send it only once the customer agreed to be forgotten"
            )
        language = _language(body.get("language"))
        answer = await conversations.privacy.forget(channel.name, _customer_of(request), language)
        return JSONResponse(answer.model_dump(mode="json"))

    conv = "/conversations/{conversation_id}"
    whom = "/customers/{customer}"
    customer = whom + "/deliveries"
    routes = [
        Route("/conversations", guarded(start), methods=["POST"]),
        Route(conv, guarded(show), methods=["GET"]),
        Route(conv + "/transcript", guarded(transcript), methods=["GET"]),
        Route(conv + "/answers", guarded(answer), methods=["POST"]),
        Route(conv + "/back", guarded(back), methods=["POST"]),
        Route(conv + "/edit", guarded(edit), methods=["POST"]),
        Route(conv + "/cancel", guarded(cancel), methods=["POST"]),
        Route(conv + "/photos", guarded(photos), methods=["POST"]),
        Route(conv + "/events", guarded(events), methods=["GET"]),
        Route(customer, guarded(deliveries), methods=["GET"]),
        Route(customer + "/{ref}", guarded(status), methods=["GET"]),
        Route(customer + "/{ref}/cancel", guarded(cancel_delivery), methods=["POST"]),
        Route(whom + "/data", guarded(customer_data), methods=["GET"]),
        Route(whom + "/forget", guarded(forget_customer), methods=["POST"]),
        *(
            [Route(conv + "/handoff", guarded(handoff), methods=["GET", "POST"])]
            if handoffs is not None
            else []
        ),
        *(
            [Route(customer + "/{ref}/quote", guarded(quote), methods=["POST"])]
            if quotes is not None
            else []
        ),
    ]
    api = Starlette(
        routes=routes,
        middleware=[Middleware(FaultsAsJson)],
        exception_handlers={HTTPException: http_exception},
    )
    mount = Mount("/api", app=api)
    # Starlette's own pattern stops at a line break, and the web app would then answer a path
    # holding one in plain text: every path under /api is this app's to answer.
    mount.path_regex = re.compile(r"^/api/(?P<path>.*)$", re.DOTALL)
    return [mount]


def _view(
    conversations: HeadlessConversations, view: ConversationView, *, status: int = 200
) -> JSONResponse:
    code = 422 if view.refused is not None else status
    drawn = conversations.drawn(view, API_TAPS)
    return JSONResponse(drawn.model_dump(mode="json"), status_code=code)


def _media_type(request: Request) -> str:
    """The body's media type, lower case and without parameters ("" when not given)."""
    return request.headers.get("content-type", "").split(";")[0].strip().lower()


async def _json_object(request: Request) -> dict[str, Any]:
    """The body as every JSON door reads it (``bot.web.body``), an empty one as ``{}``: 415
    for a media type other than JSON, 400 for what is not a JSON object, 422 for a value the
    bot could not keep (an integer beyond 64 bits, NaN or Infinity, a lone surrogate)."""
    if not is_json_media_type(request.headers.get("content-type")):
        raise AgentMediaTypeRefused(JSON_ONLY)
    raw = await read_limited(request, MAX_BODY_BYTES)
    if not raw:
        return {}
    try:
        body = parse_json_object(raw, parse_int=_int64)
    except NotFinite as refused:
        raise AgentValueUnkeepable(NOT_FINITE) from refused
    except NotJson as refused:
        raise AgentRequestRefused(str(refused)) from refused
    problem = unkeepable(body)
    if problem is not None:
        raise AgentValueUnkeepable(problem)
    return body


def _int64(digits: str) -> int:
    value = int(digits) if len(digits) <= 20 else INT64_LIMIT
    if not -INT64_LIMIT <= value < INT64_LIMIT:
        raise AgentValueUnkeepable("integers must fit in 64 bits")
    return value


def _id(request: Request) -> str:
    return str(request.path_params["conversation_id"])


def _customer(value: object) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_CUSTOMER_LENGTH:
        raise AgentRequestRefused(
            f"customer must be your reference for the customer (1 to "
            f"{MAX_CUSTOMER_LENGTH} characters)"
        )
    return value.strip()


def _language(value: object) -> str | None:
    """The ``language`` of a start: a language code (``fr``, ``en-GB``), or None."""
    if value is None:
        return None
    if not isinstance(value, str) or not 2 <= len(value) <= 35:
        raise AgentRequestRefused("language must be a language code such as fr or en-GB")
    return value


def _customer_of(request: Request) -> str:
    return _customer(request.path_params["customer"])


def _int_param(request: Request, name: str, default: int) -> int:
    text = request.query_params.get(name)
    if text is None:
        return default
    if not (text.isascii() and text.isdigit()) or len(text) > 9:
        raise AgentRequestRefused(f"{name} must be a whole number")
    return int(text)


def _after(request: Request) -> int:
    """Where to resume: ``Last-Event-ID`` (an SSE reconnect), else ``?after=``, else 0."""
    last = request.headers.get("last-event-id")
    if last is not None and last.isascii() and last.isdigit() and len(last) <= 18:
        return int(last)
    return _int_param(request, "after", 0)
