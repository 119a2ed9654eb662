"""Reading a request body with a size limit, without buffering more than the limit.

A declared ``Content-Length`` over the limit is refused before any byte is read; a body sent
without one (chunked) is counted while it streams and refused as soon as it passes the limit.
"""

from __future__ import annotations

from starlette.requests import Request


class BodyTooLarge(Exception):
    """The body is (or says it is) larger than allowed."""


class MalformedBody(Exception):
    """The request's framing is wrong (an unreadable ``Content-Length``)."""


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
