"""Getting updates to the bot: the pending queue, long polling, and webhook pushes.

Semantics follow the Bot API: an update stays pending until confirmed (``getUpdates`` with an
offset above its id, or a 2xx from the webhook); ``getUpdates`` while a webhook is set, or a
second concurrent ``getUpdates``, is a 409 Conflict; ``allowed_updates`` is remembered from the
last call that gave it. Waiting is on events, never a polling loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import httpx

from .telegram_wire import BotApiError, JSONDict

# Telegram sends these only to bots that ask for them explicitly.
_OPT_IN_UPDATE_TYPES = frozenset({"chat_member", "message_reaction", "message_reaction_count"})
SECRET_TOKEN_HEADER = "X-Telegram-Bot-Api-Secret-Token"


def update_type(update: JSONDict) -> str:
    """The kind of an update: the one key beside ``update_id``."""
    kinds = [key for key in update if key != "update_id"]
    if len(kinds) != 1:
        raise ValueError(f"an update has exactly one payload key, got {kinds}")
    return kinds[0]


@dataclass
class Webhook:
    """The webhook set by setWebhook, with its delivery health as getWebhookInfo reports it."""

    url: str
    secret_token: str | None = None
    max_connections: int = 40
    allowed_updates: list[str] | None = None
    has_custom_certificate: bool = False
    last_error_date: int | None = None
    last_error_message: str | None = None

    def info(self, pending_update_count: int) -> JSONDict:
        """The WebhookInfo object."""
        info: JSONDict = {
            "url": self.url,
            "has_custom_certificate": self.has_custom_certificate,
            "pending_update_count": pending_update_count,
            "max_connections": self.max_connections,
        }
        if self.allowed_updates is not None:
            info["allowed_updates"] = self.allowed_updates
        if self.last_error_date is not None:
            info["last_error_date"] = self.last_error_date
            info["last_error_message"] = self.last_error_message
        return info


@dataclass(frozen=True)
class WebhookDelivery:
    """One attempt to push an update to the bot's webhook."""

    update_id: int
    status_code: int | None
    error: str | None = None

    @property
    def delivered(self) -> bool:
        """True when the webhook answered 2xx (Telegram then forgets the update)."""
        return self.status_code is not None and 200 <= self.status_code < 300


class UpdateQueue:
    """Updates waiting for the bot, and the two ways it can take them."""

    def __init__(self) -> None:
        self._updates: list[JSONDict] = []
        self._last_update_id: int | None = None
        self._allowed: frozenset[str] | None = None
        self._changed = asyncio.Event()
        self._poll_generation = 0
        self.polls_in_progress = 0
        self.webhook: Webhook | None = None
        self.closed = False

    @property
    def pending(self) -> list[JSONDict]:
        """Updates not yet confirmed, oldest first."""
        return list(self._updates)

    @property
    def changed(self) -> asyncio.Event:
        """An event set at the next change; take it before checking state, then wait on it."""
        return self._changed

    def _notify(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    def push(self, update: JSONDict) -> bool:
        """Queue an update; False if the bot's allowed_updates filter drops it, like Telegram."""
        update_id = update.get("update_id")
        if not isinstance(update_id, int):
            raise ValueError("an update needs an integer update_id")
        if self._last_update_id is not None and update_id <= self._last_update_id:
            raise ValueError(
                f"update_id {update_id} is not above the last one ({self._last_update_id}); "
                "Telegram's update ids only increase"
            )
        kind = update_type(update)
        self._last_update_id = update_id
        if self._allowed is not None and kind not in self._allowed:
            return False
        if self._allowed is None and kind in _OPT_IN_UPDATE_TYPES:
            return False
        self._updates.append(update)
        self._notify()
        return True

    def set_allowed_updates(self, allowed: list[str] | None) -> None:
        """Remember the bot's filter; an empty list means the default set, as in Telegram."""
        self._allowed = frozenset(allowed) if allowed else None

    def drop_pending(self) -> None:
        """Forget every pending update (``drop_pending_updates``)."""
        self._updates.clear()
        self._notify()

    def remove(self, update_id: int) -> None:
        """Forget one update once the webhook took it."""
        self._updates = [u for u in self._updates if u["update_id"] != update_id]
        self._notify()

    def set_webhook(self, webhook: Webhook | None) -> None:
        """Switch between webhook delivery (a Webhook) and getUpdates (None)."""
        self.webhook = webhook
        if webhook is not None:
            self.set_allowed_updates(webhook.allowed_updates)
        # A new webhook or poller ends any running getUpdates, which then answers 409.
        self._poll_generation += 1
        self._notify()

    def close(self) -> None:
        """Release every waiting long poll (the server is going down)."""
        self.closed = True
        self._notify()

    def _confirm(self, offset: int) -> None:
        if offset < 0:
            self._updates = self._updates[offset:]
        else:
            self._updates = [u for u in self._updates if u["update_id"] >= offset]

    async def long_poll(
        self,
        *,
        offset: int | None,
        limit: int,
        timeout: float,
        allowed_updates: list[str] | None,
        disconnected: Callable[[], Awaitable[Any]],
    ) -> list[JSONDict]:
        """getUpdates: confirm below ``offset``, then answer as soon as anything is pending."""
        if self.webhook is not None:
            raise BotApiError(
                409,
                "Conflict: can't use getUpdates method while webhook is active; "
                "use deleteWebhook to delete the webhook first",
            )
        if allowed_updates is not None:
            self.set_allowed_updates(allowed_updates)
        self._poll_generation += 1
        generation = self._poll_generation
        self.polls_in_progress += 1
        self._notify()
        if offset:
            self._confirm(offset)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + max(timeout, 0)
        client_gone = asyncio.ensure_future(disconnected())
        try:
            while True:
                changed = self._changed
                if generation != self._poll_generation:
                    raise BotApiError(
                        409,
                        "Conflict: terminated by other getUpdates request; "
                        "make sure that only one bot instance is running",
                    )
                batch = self._updates[: min(max(limit, 1), 100)]
                remaining = deadline - loop.time()
                if batch or remaining <= 0 or self.closed or client_gone.done():
                    return batch
                wake = asyncio.ensure_future(changed.wait())
                try:
                    await asyncio.wait(
                        {wake, client_gone}, timeout=remaining, return_when=asyncio.FIRST_COMPLETED
                    )
                finally:
                    wake.cancel()
        finally:
            self.polls_in_progress -= 1
            client_gone.cancel()


class WebhookPusher:
    """Pushes pending updates to the webhook in order, retrying failures like Telegram does."""

    def __init__(
        self,
        queue: UpdateQueue,
        *,
        now: Callable[[], int],
        on_delivery: Callable[[WebhookDelivery], Awaitable[None]],
        transport: httpx.AsyncBaseTransport | None = None,
        retry_delay: float = 0.2,
    ) -> None:
        self._queue = queue
        self._now = now
        self._on_delivery = on_delivery
        self._transport = transport
        self._retry_delay = retry_delay

    async def run(self) -> None:
        """Deliver until cancelled or the queue closes."""
        async with httpx.AsyncClient(transport=self._transport, timeout=10.0) as client:
            while not self._queue.closed:
                changed = self._queue.changed
                webhook = self._queue.webhook
                pending = self._queue.pending
                if webhook is None or not pending:
                    await changed.wait()
                    continue
                if not await self._push(client, webhook, pending[0]):
                    # Telegram backs off after a failure; a new update or webhook retries sooner.
                    with contextlib.suppress(TimeoutError):
                        async with asyncio.timeout(self._retry_delay):
                            await changed.wait()

    async def _push(self, client: httpx.AsyncClient, webhook: Webhook, update: JSONDict) -> bool:
        headers = {"Content-Type": "application/json"}
        if webhook.secret_token:
            headers[SECRET_TOKEN_HEADER] = webhook.secret_token
        update_id = update["update_id"]
        try:
            response = await client.post(webhook.url, content=json.dumps(update), headers=headers)
        except httpx.HTTPError as exc:
            delivery = WebhookDelivery(update_id, None, f"Connection failed: {type(exc).__name__}")
        else:
            delivery = WebhookDelivery(
                update_id,
                response.status_code,
                None
                if response.is_success
                else f"Wrong response from the webhook: {response.status_code} "
                f"{response.reason_phrase}",
            )
        if delivery.delivered:
            self._queue.remove(update_id)
        else:
            webhook.last_error_date = self._now()
            webhook.last_error_message = delivery.error
        await self._on_delivery(delivery)
        return delivery.delivered
