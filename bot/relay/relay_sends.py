"""``measured_send``: a relayed message's send, timed and its failure counted.

The relay's own: it tells a failure by the relay's exception types (``channel_protocol``),
and records in the business's ``Metrics``, which stand below the relay and know none of them.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable

from bot.chat_ref import ChatRef
from bot.metrics.business_metrics import Metrics
from bot.relay.channel_protocol import ChatUnreachable, SendFailed


async def measured_send(
    metrics: Metrics,
    send: Callable[[ChatRef, str], Awaitable[int | None]],
    chat: ChatRef,
    text: str,
) -> int | None:
    """``await send(chat, text)`` (a relay channel's send), timed in ``metrics``, its failure
    counted by reason (``ChatUnreachable``: unreachable; ``SendFailed``: send_failed; else
    error)."""
    started = time.perf_counter()
    try:
        sent = await send(chat, text)
    except ChatUnreachable:
        metrics.count_relay_failure(chat.channel, "unreachable")
        raise
    except SendFailed:
        metrics.count_relay_failure(chat.channel, "send_failed")
        raise
    except Exception:
        metrics.count_relay_failure(chat.channel, "error")
        raise
    metrics.observe_relay_send(chat.channel, time.perf_counter() - started)
    return sent
