"""Reading a request body: with a size limit, and as JSON, the same way at every JSON door.

A declared ``Content-Length`` over the limit is refused before any byte is read; a body sent
without one (chunked) is counted while it streams and refused as soon as it passes the limit.

``parse_json`` is how every door that takes JSON (``/telegram``, ``/hooks/partner``, ``/api``,
MCP over HTTP) reads it, so a hostile body is refused alike everywhere, with a reason that
never quotes it: bytes that are not UTF-8 (RFC 8259), text that is not JSON, nesting over
``MAX_DEPTH`` levels (Python's parser would otherwise reach its recursion limit, and whatever
walks the value next), a number no JSON document may hold (``NaN``, ``Infinity``, or a float
too large to be finite, such as ``1e999999``; an integer over Python's 4,300 digits is not
JSON to it either), and a key repeated in one object (which value would count differently from
one parser to the next). ``read_json_object`` adds the door's part: a declared media type
that is not JSON, the size limit, and a top level that is not an object.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any, Final

from starlette.requests import Request

from bot.web.web_errors import WebError

MAX_DEPTH: Final = 64
"""Arrays and objects inside each other: Telegram's updates nest about ten, the service's events
and agents' answers fewer."""


class BodyTooLarge(WebError):
    """The body is (or says it is) larger than allowed."""


class MalformedBody(WebError):
    """The request's framing is wrong (an unreadable ``Content-Length``), or its body is not
    what the door reads (``NotJson``); the text says why, never quoting the body."""


class NotJson(MalformedBody):
    """The body is not one JSON value, or not the kind the door takes; see the module."""


class NotFinite(NotJson):
    """A number in the body is ``NaN``, ``Infinity``, or too large to be finite."""


class NotJsonMediaType(WebError):
    """The request declares a media type that is not JSON."""


NOT_FINITE: Final = "numbers must be finite: NaN and Infinity are not JSON"


async def read_limited(request: Request, limit: int) -> bytes:
    """The raw body, at most ``limit`` bytes; ``BodyTooLarge`` or ``MalformedBody`` otherwise."""
    declared = request.headers.get("content-length")
    if declared is not None:
        # isascii too: str.isdigit accepts "²", which int() refuses.
        if not (declared.isascii() and declared.isdigit()):
            raise MalformedBody("Content-Length is not a number")
        if int(declared) > limit:
            raise BodyTooLarge
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise BodyTooLarge
        chunks.append(chunk)
    return b"".join(chunks)


def parse_json(raw: bytes, *, parse_int: Callable[[str], Any] = int) -> Any:
    """``raw`` as one JSON value; ``NotJson`` (``NotFinite``) for anything the module lists.

    ``parse_int`` reads each integer (a door may refuse some: ``/api`` takes 64 bits only).
    """
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise NotJson("the body is not UTF-8") from None
    try:
        value = json.loads(
            text,
            parse_int=parse_int,
            parse_float=_finite,
            parse_constant=_no_constant,
            object_pairs_hook=_unique_keys,
        )
    except RecursionError:
        raise NotJson(f"the body is nested over {MAX_DEPTH} levels") from None
    except ValueError:  # JSONDecodeError, or an integer beyond Python's digit limit
        raise NotJson("the body is not JSON") from None
    if _depth_over(value, MAX_DEPTH):
        raise NotJson(f"the body is nested over {MAX_DEPTH} levels")
    return value


def parse_json_object(raw: bytes, *, parse_int: Callable[[str], Any] = int) -> dict[str, Any]:
    """``parse_json``, and ``NotJson`` unless the top level is an object."""
    value = parse_json(raw, parse_int=parse_int)
    if not isinstance(value, dict):
        raise NotJson(f"the body must be a JSON object, not a JSON {json_kind(value)}")
    return value


async def read_json_object(
    request: Request, limit: int, *, parse_int: Callable[[str], Any] = int
) -> dict[str, Any]:
    """The request's body as a JSON object: ``NotJsonMediaType`` for a declared media type
    other than JSON (none declared is taken), ``BodyTooLarge`` or ``MalformedBody`` as
    ``read_limited`` says, ``NotJson`` as ``parse_json_object`` says."""
    if not is_json_media_type(request.headers.get("content-type")):
        raise NotJsonMediaType
    return parse_json_object(await read_limited(request, limit), parse_int=parse_int)


def is_json_media_type(content_type: str | None) -> bool:
    """Whether a ``Content-Type`` header says JSON (``application/json``, ``…+json``), or
    says nothing."""
    media_type = (content_type or "").split(";")[0].strip().lower()
    return not media_type or media_type == "application/json" or media_type.endswith("+json")


def json_kind(value: object) -> str:
    """The JSON name of ``value``'s type, for a reason that must not quote it."""
    kinds = {list: "array", str: "string", bool: "boolean", int: "number", float: "number"}
    return "object" if isinstance(value, dict) else kinds.get(type(value), "null")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise NotFinite(NOT_FINITE)
    return value


def _no_constant(name: str) -> float:
    raise NotFinite(NOT_FINITE)


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) != len(pairs):
        raise NotJson("a key is repeated in one JSON object")
    return found


def _depth_over(value: object, limit: int) -> bool:
    """Whether arrays and objects nest over ``limit`` levels in ``value`` (a stack, not
    recursion)."""
    pending = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, dict):
            children: list[object] = list(item.values())
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        pending.extend((child, depth + 1) for child in children)
    return False
