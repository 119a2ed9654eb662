"""Errors the fake answers on demand: flood control, a server hiccup, anything Telegram says."""

from __future__ import annotations

from dataclasses import dataclass

from .telegram_wire import BotApiError, JSONDict

_DESCRIPTIONS = {
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden: bot was blocked by the user",
    404: "Not Found",
    409: "Conflict",
    500: "Internal Server Error",
    502: "Bad Gateway",
}


@dataclass
class _Failure:
    method: str
    chat_id: int | str | None
    error: BotApiError
    remaining: int


class FailurePlan:
    """Scheduled failures, consumed in the order they were planned."""

    def __init__(self) -> None:
        self._failures: list[_Failure] = []

    def add(
        self,
        method: str,
        *,
        error_code: int,
        retry_after: int | None,
        description: str | None,
        count: int,
        chat_id: int | str | None,
    ) -> None:
        """Plan ``count`` failures of ``method``; see ``FakeTelegram.fail_next``."""
        if error_code == 429:
            wait = 1 if retry_after is None else retry_after
            if wait < 1:
                raise ValueError("retry_after must be at least 1 (PTB ignores 0)")
            error = BotApiError(
                429, description or f"Too Many Requests: retry after {wait}", {"retry_after": wait}
            )
        else:
            if retry_after is not None:
                raise ValueError("retry_after belongs to 429 answers")
            error = BotApiError(error_code, description or _DESCRIPTIONS.get(error_code, "Error"))
        self._failures.append(_Failure(method, chat_id, error, count))

    def take(self, method: str, params: JSONDict) -> BotApiError | None:
        """The error planned for this call, if any (and count it as used)."""
        for failure in self._failures:
            if failure.method == method and failure.chat_id in (None, params.get("chat_id")):
                failure.remaining -= 1
                if failure.remaining <= 0:
                    self._failures.remove(failure)
                return failure.error
        return None
