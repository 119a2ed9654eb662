"""``measured_send``: a relayed message's send, timed and its failure counted.

The relay's own: it tells a failure by the relay's exception types (``channel_protocol``),
and records through ``bot.metrics``, which stands below the relay and knows none of them.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable

from bot.chat_ref import ChatRef
from bot.metrics import families as m
from bot.metrics.recording import enabled
from bot.relay.channel_protocol import ChatUnreachable, SendFailed


async def measured_send(
    send: Callable[[ChatRef, str], Awaitable[int | None]], chat: ChatRef, text: str
) -> int | None:
    """``await send(chat, text)`` (a relay channel's send), timed, its failure counted by
    reason (``ChatUnreachable``: unreachable; ``SendFailed``: send_failed; else error)."""
    if not enabled():
        return await send(chat, text)
    started = time.perf_counter()
    try:
        sent = await send(chat, text)
    except ChatUnreachable:
        m.RELAY_FAILURES.labels(chat.channel, "unreachable").inc()
        raise
    except SendFailed:
        m.RELAY_FAILURES.labels(chat.channel, "send_failed").inc()
        raise
    except Exception:
        m.RELAY_FAILURES.labels(chat.channel, "error").inc()
        raise
    m.RELAY_SEND_SECONDS.labels(chat.channel).observe(time.perf_counter() - started)
    return sent
