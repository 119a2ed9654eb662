"""The fake's memory of the bot's calls and of webhook pushes, and waiting on it without sleeps.

Every record notifies one asyncio.Condition, so a test awaits "the reply to chat 42" or "the
second editMessageText" directly instead of polling.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TypeVar, cast

from .telegram_delivery import WebhookDelivery
from .telegram_records import RecordedCall, SentMessage
from .telegram_wire import JSONDict, ParsedRequest

_SENDING_METHODS = frozenset({"sendMessage", "sendPhoto", "sendDocument", "sendLocation"})
_T = TypeVar("_T")


class CallLog:
    """Calls received, messages sent, webhook pushes made; FakeTelegram's recording half."""

    def __init__(self) -> None:
        self._calls: list[RecordedCall] = []
        self._sent: list[SentMessage] = []
        self._deliveries: list[WebhookDelivery] = []
        self._activity = asyncio.Condition()

    def calls(self, method: str | None = None) -> list[RecordedCall]:
        """Every call received, optionally of one method (any case), in order."""
        wanted = method.lower() if method else None
        return [c for c in self._calls if wanted is None or c.method.lower() == wanted]

    def sent_messages(self, chat_id: int | None = None) -> list[SentMessage]:
        """Messages the bot sent successfully, optionally to one chat, in order."""
        return [m for m in self._sent if chat_id is None or m.chat_id == chat_id]

    @property
    def webhook_deliveries(self) -> list[WebhookDelivery]:
        """Every attempt to push an update to the webhook, in order."""
        return list(self._deliveries)

    async def wait_for_message(
        self,
        chat_id: int,
        predicate: Callable[[SentMessage], bool] | None = None,
        *,
        after: int = 0,
        timeout: float = 5.0,
    ) -> SentMessage:
        """The first message to ``chat_id`` at index >= ``after`` matching ``predicate``.

        ``after=len(tg.sent_messages(chat))`` taken before pushing an update waits for the
        reply to it. TimeoutError (listing what was sent) if none arrives in time.
        """

        def find() -> SentMessage | None:
            candidates = self.sent_messages(chat_id)[after:]
            return next((m for m in candidates if predicate is None or predicate(m)), None)

        def describe() -> str:
            texts = [m.text for m in self.sent_messages(chat_id)]
            return f"message to chat {chat_id} (sent so far: {texts})"

        return await self._wait(find, timeout, describe)

    async def wait_for_call(
        self,
        method: str,
        predicate: Callable[[RecordedCall], bool] | None = None,
        *,
        after: int = 0,
        timeout: float = 5.0,
    ) -> RecordedCall:
        """The first call of ``method`` at index >= ``after`` (within ``calls(method)``)
        matching ``predicate``; failed calls count too (check ``.ok``)."""

        def find() -> RecordedCall | None:
            candidates = self.calls(method)[after:]
            return next((c for c in candidates if predicate is None or predicate(c)), None)

        def describe() -> str:
            return f"{method} call (calls so far: {[c.method for c in self._calls]})"

        return await self._wait(find, timeout, describe)

    async def wait_for_delivery(
        self, update_id: int, *, delivered: bool | None = True, timeout: float = 5.0
    ) -> WebhookDelivery:
        """The first webhook push of an update that the webhook accepted (``delivered=True``),
        refused or could not be reached for (``False``), or either (``None``)."""

        def find() -> WebhookDelivery | None:
            matching = (
                d
                for d in self._deliveries
                if d.update_id == update_id and delivered in (None, d.delivered)
            )
            return next(matching, None)

        return await self._wait(find, timeout, lambda: f"webhook delivery of {update_id}")

    async def _wait(
        self, find: Callable[[], _T | None], timeout: float, describe: Callable[[], str]
    ) -> _T:
        async with self._activity:
            try:
                async with asyncio.timeout(timeout):
                    return cast("_T", await self._activity.wait_for(find))
            except TimeoutError:
                raise TimeoutError(f"no {describe()} within {timeout}s") from None

    async def _record_call(
        self, method: str, parsed: ParsedRequest, status: int, body: JSONDict
    ) -> None:
        async with self._activity:
            call = RecordedCall(
                len(self._calls) + 1, method, parsed.params, parsed.files, status, body
            )
            self._calls.append(call)
            if call.ok and call.method in _SENDING_METHODS:
                message = call.result
                self._sent.append(
                    SentMessage(
                        method=call.method,
                        chat_id=message["chat"]["id"],
                        message_id=message["message_id"],
                        text=message.get("text", message.get("caption")),
                        params=call.params,
                        message=message,
                    )
                )
            self._activity.notify_all()

    async def _record_delivery(self, delivery: WebhookDelivery) -> None:
        async with self._activity:
            self._deliveries.append(delivery)
            self._activity.notify_all()
