"""``AgentEvents``: the agent channels' ``Channel``, keeping what is sent to an agent
conversation in ``store.agent_events`` instead of a messenger.

The relay sends an agent conversation its events as JSON (``bot.relay.agent_updates``), under
its sent markers; a plain message (the follow-up of a create whose answer was lost) is kept as
``{"type": "message", "text": ...}``. Each kept event rings ``EventBell``: the SSE streams of
that conversation and the webhook sender wake up.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Callable

from bot.channels import NO_HANDOFF
from bot.chat_ref import ChatRef
from bot.store import Store


class EventBell:
    """Wakes whoever waits for new agent events in this process."""

    def __init__(self) -> None:
        self._changed = asyncio.Condition()
        self._listeners: list[Callable[[], None]] = []

    def on_ring(self, listener: Callable[[], None]) -> None:
        """Call ``listener`` (no arguments, not awaited) on every ring."""
        self._listeners.append(listener)

    async def ring(self) -> None:
        """New events were kept."""
        async with self._changed:
            self._changed.notify_all()
        for listener in self._listeners:
            listener()

    async def wait(self, timeout: float) -> None:
        """Return on the next ring, or after ``timeout`` seconds (events another process
        kept ring nobody here)."""
        async with self._changed:
            try:
                await asyncio.wait_for(self._changed.wait(), timeout)
            except TimeoutError:
                return


class AgentEvents:
    """A ``Channel``: an agent conversation's messages to the store, ringing the bell.

    ``otp_link`` is the messenger's (``bot.channels.Channels`` asks it there): a receiver
    claims a drop-off code in a messenger chat, whoever ordered.
    """

    def __init__(self, store: Store, bell: EventBell) -> None:
        self._store = store
        self._bell = bell

    async def send(self, chat: ChatRef, text: str) -> int | None:
        key, body = _as_event(text)
        if await self._store.agent_events.add(chat, key, body):
            await self._bell.ring()
        return None

    def otp_link(self, token: str) -> str:
        return NO_HANDOFF


def _as_event(text: str) -> tuple[str, str]:
    """The event key and JSON body of what the relay sent."""
    try:
        event = json.loads(text)
    except ValueError:
        event = None
    if isinstance(event, dict) and isinstance(event.get("event_id"), str):
        return event["event_id"], text
    # A plain message has no id of its own: the relay's markers keep it from being kept twice,
    # and the key made here is its id, so a webhook post repeated after a crash can be dropped.
    key = "message:" + secrets.token_hex(8)
    message = json.dumps({"event_id": key, "type": "message", "text": text}, ensure_ascii=False)
    return key, message
