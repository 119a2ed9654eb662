"""``log_context``: what a log line is about (delivery, event, flow, step, the kind of
message being sent), for JSON logs.

Code doing work for one delivery or event enters ``log_context(event=..., delivery=...)``;
every line logged inside, in this task, carries those fields in ``format = "json"``. Only
references go here: a delivery's id, an event's id, a flow's and a step's name, the relay's
kind of message (``sending``: ``operator``, ``otp_waiting``, ...), never a customer's phone
number, name, address or code.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar

CONTEXT_FIELDS = ("delivery", "event", "flow", "step", "sending")

_context: ContextVar[dict[str, str] | None] = ContextVar("deliverybot_log_context", default=None)


@contextlib.contextmanager
def log_context(**fields: str | None) -> Iterator[None]:
    """Add ``fields`` (``CONTEXT_FIELDS`` only; None leaves one out) to the lines logged in
    the block."""
    unknown = set(fields) - set(CONTEXT_FIELDS)
    if unknown:
        raise ValueError(f"not a log context field: {sorted(unknown)}")
    merged = {**(_context.get() or {}), **{k: v for k, v in fields.items() if v is not None}}
    token = _context.set(merged)
    try:
        yield
    finally:
        _context.reset(token)


def current_context() -> dict[str, str]:
    """The fields of the ``log_context`` blocks around the caller."""
    return _context.get() or {}
