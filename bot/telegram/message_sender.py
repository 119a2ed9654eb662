"""Sending to Telegram within its limits, and turning its refusals into results, not crashes.

Every send and edit waits for its turn (``limits.RateLimiter``) and holds its chat's lock
while it is tried (a turn's messages hold it until the last is sent), so one chat's messages
go out in order and together while other chats are served meanwhile. Telegram's answers
become results:

* ``RetryAfter`` (429): that chat, or every chat when the 429 is judged to be about the whole
  bot (``limits``), is held for the time Telegram asks (by every process that shares the
  store), then the send is tried again, a bounded number of times.
* ``Forbidden`` (the user blocked the bot, left, or deleted the account) and "chat not found":
  the chat is recorded in ``store.blocked`` and the result is ``Blocked``.
* anything else (a bad request, the network): ``NotDelivered``, with Telegram's reason for
  the log. Network errors are not retried here: a timed-out send may have arrived, and a
  duplicate is worse than a resend decided by the caller.

``TelegramSender`` is also the relay's ``Channel`` (and ``PacedChannel``: ``send_delay`` tells
the relay when a chat has a backlog): ``send`` raises ``ChatUnreachable`` for a blocked chat
and ``SendFailed`` for anything to try again later.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from telegram import Bot, CallbackQuery, InlineKeyboardMarkup
from telegram.constants import ParseMode
from telegram.error import BadRequest, ChatMigrated, Forbidden, RetryAfter, TelegramError

from bot.chat_ref import TELEGRAM, ChatRef
from bot.chatlocks import ChatLocks
from bot.metrics.business_metrics import NO_METRICS, Metrics
from bot.relay.channel_protocol import ChatUnreachable, SendFailed
from bot.store import Store
from bot.telegram.limits import RateLimiter
from bot.telegram.text import split
from bot.telegram.turn_messages import OutgoingMessage
from bot.telegram.wire_markup import wire_markup

log = logging.getLogger(__name__)

_NOT_MODIFIED = "message is not modified"
_CHAT_NOT_FOUND = "chat not found"


@dataclass(frozen=True)
class Delivered:
    """Telegram took the message; ``message_id`` is its id in the chat."""

    message_id: int


@dataclass(frozen=True)
class Blocked:
    """The chat cannot be messaged (recorded in ``store.blocked``)."""

    chat_id: int
    reason: str


@dataclass(frozen=True)
class NotDelivered:
    """Telegram did not take the message; ``retry_after`` is set when it asked to wait."""

    reason: str
    retry_after: float | None = None


SendResult = Delivered | Blocked | NotDelivered
# Telegram's JSON answer to a send (the message) or an edit (the message, or true).
Posted = dict[str, Any] | bool


class TelegramSender:
    """Sends messages and edits for the bot: ``TelegramSender(bot, store, limiter=...)``."""

    def __init__(
        self,
        bot: Bot,
        store: Store,
        *,
        limiter: RateLimiter | None = None,
        metrics: Metrics = NO_METRICS,
    ) -> None:
        self._bot = bot
        self._store = store
        self._metrics = metrics  # the business's: counts Telegram's 429 answers
        # Paced with every process sharing the store (its send budget).
        self.limiter = limiter or RateLimiter(budget=store.send_budget)
        self._locks = ChatLocks()

    async def send_message(self, chat_id: int, message: OutgoingMessage) -> SendResult:
        """Send one rendered message (HTML) to ``chat_id``."""
        return (await self.send_messages(chat_id, [message]))[0]

    async def send_messages(
        self, chat_id: int, messages: Sequence[OutgoingMessage]
    ) -> list[SendResult]:
        """Send ``messages`` in order and together (nothing else reaches the chat between
        them), stopping after the first that is not delivered: the rest would read out of
        context. Returns one result per message tried."""
        results: list[SendResult] = []
        async with self._chat_turn(chat_id):
            for message in messages:
                sending = self._sending(chat_id, message)
                result = await self._attempt(chat_id, sending)
                results.append(result)
                if not isinstance(result, Delivered):
                    break
        return results

    async def edit_message(
        self, chat_id: int, message_id: int, message: OutgoingMessage
    ) -> SendResult:
        """Redraw a message the bot sent (a prompt: its page, or its answer) in place.

        Only inline keyboards can be edited in (ValueError otherwise). An edit that changes
        nothing counts as delivered; a message that can no longer be edited (deleted, too old)
        is ``NotDelivered``, and the caller sends a new one instead.
        """
        markup = message.markup
        if markup is not None and not isinstance(markup, InlineKeyboardMarkup):
            raise ValueError("only an inline keyboard can be edited into a message")

        params = {"chat_id": chat_id, "message_id": message_id, "text": message.text}
        wired = None if markup is None else wire_markup(markup)

        async def call() -> Posted:
            return await self._post("editMessageText", {**params, "reply_markup": wired})

        async with self._chat_turn(chat_id):
            return await self._attempt(chat_id, call, edited=message_id)

    async def call(
        self,
        chat_id: int,
        endpoint: str,
        params: dict[str, object],
        *,
        edited: int | None = None,
    ) -> SendResult:
        """Any other send to ``chat_id`` (``sendPhoto``, ``sendLocation``; ``params`` without
        ``chat_id``), within the same limits and turn as messages, its answer a result.
        ``edited``: the message an edit (``editMessageLiveLocation``) changes, so an edit that
        changes nothing is delivered, as for ``edit_message``."""

        async def call() -> Posted:
            return await self._bot_post(endpoint, {"chat_id": chat_id, **params})

        async with self._chat_turn(chat_id):
            return await self._attempt(chat_id, call, edited=edited)

    # --- the relay's Channel ---------------------------------------------------------------

    async def send(self, chat_id: int, text: str) -> int | None:
        """Send plain ``text`` (split if long); the id of its last message.

        Raises ``ChatUnreachable`` for a blocked chat, ``SendFailed`` for any other failure.
        """
        message_id: int | None = None
        async with self._chat_turn(chat_id):
            for piece in split(text):
                result = await self._attempt(chat_id, self._sending(chat_id, piece))
                if isinstance(result, Blocked):
                    raise ChatUnreachable(result.reason)
                if isinstance(result, NotDelivered):
                    raise SendFailed(result.reason)
                message_id = result.message_id
        return message_id

    def send_delay(self, chat_id: int) -> float:
        """Seconds a message to ``chat_id`` would wait for Telegram's limits if sent now."""
        return self.limiter.delay_for(chat_id)

    def otp_link(self, token: str) -> str:
        """The deep link that opens the bot with ``/start otp_<token>``.

        The bot must be initialized (PTB learns its username from getMe).
        """
        return f"https://t.me/{self._bot.username}?start=otp_{token}"

    # --- one send, tried within the limits --------------------------------------------------

    def _sending(
        self, chat_id: int, message: OutgoingMessage | str
    ) -> Callable[[], Awaitable[Posted]]:
        async def call() -> Posted:
            if isinstance(message, str):
                # No parse mode: the relay's text is plain, "<" and all.
                return await self._bot_post("sendMessage", {"chat_id": chat_id, "text": message})
            markup = None if message.markup is None else wire_markup(message.markup)
            params = {"chat_id": chat_id, "text": message.text, "reply_markup": markup}
            return await self._post("sendMessage", params)

        return call

    async def _post(self, endpoint: str, params: dict[str, object]) -> Posted:
        """Call ``endpoint`` with an HTML text; see ``_bot_post``."""
        return await self._bot_post(endpoint, {**params, "parse_mode": ParseMode.HTML})

    async def _bot_post(self, endpoint: str, params: dict[str, object]) -> Posted:
        """Call ``endpoint`` through PTB's request layer, leaving Telegram's answer unparsed.

        Telegram answers a send or an edit with the whole message, keyboard and all, and PTB's
        ``send_message`` would build a ``Message`` of it, object by object: about a sixth of a
        turn's CPU, when only the id is read. ``Bot._post`` is the one call PTB's own methods
        make (with the same defaults, request layer and error mapping), minus that parsing;
        ``do_api_request``, its public twin, warns for methods PTB has.
        """
        posted: Posted = await self._bot._post(endpoint, params)
        return posted

    async def _attempt(
        self,
        chat_id: int,
        call: Callable[[], Awaitable[Posted]],
        *,
        edited: int | None = None,
    ) -> SendResult:
        """Try ``call`` within the limits, waiting out 429s; the caller holds the chat's turn."""
        limits = self.limiter.limits
        for attempt in range(1, limits.max_attempts + 1):
            await self.limiter.acquire(chat_id)
            try:
                sent = await call()
            except TelegramError as error:
                if not isinstance(error, RetryAfter):
                    return await self._refused(chat_id, error, edited)
                # Asked to wait: the chat (or every chat) is held, and the next attempt waits.
                self._metrics.count_telegram_rate_limited()
                wait = retry_after_seconds(error)
                if await self.limiter.share_hold(chat_id, wait):
                    log.info("Telegram asked to wait %.0fs: every chat is held", wait)
                else:
                    log.info(
                        "Telegram asked to wait %.0fs for chat %s",
                        wait,
                        ChatRef(TELEGRAM, chat_id).for_log,
                    )
                if attempt == limits.max_attempts or wait > limits.longest_wait:
                    return NotDelivered("rate limited", retry_after=wait)
                continue
            if isinstance(sent, dict) and isinstance(sent.get("message_id"), int):
                return Delivered(sent["message_id"])
            return Delivered(edited if edited is not None else 0)
        raise AssertionError("unreachable: max_attempts is at least 1")

    async def _refused(self, chat_id: int, error: TelegramError, edited: int | None) -> SendResult:
        # Telegram's own descriptions are safe to keep; a network error's text comes from the
        # HTTP stack and is reduced to its type, so no request URL (token included) can leak.
        told = isinstance(error, BadRequest | Forbidden | ChatMigrated)
        reason = error.message if told else type(error).__name__
        if isinstance(error, Forbidden) or (
            isinstance(error, BadRequest) and _CHAT_NOT_FOUND in reason.lower()
        ):
            await self._store.blocked.mark(ChatRef(TELEGRAM, chat_id))
            log.info(
                "chat %s cannot be messaged (%s); marked blocked",
                ChatRef(TELEGRAM, chat_id).for_log,
                reason,
            )
            return Blocked(chat_id, reason)
        if edited is not None and isinstance(error, BadRequest) and _NOT_MODIFIED in reason.lower():
            return Delivered(edited)
        if isinstance(error, ChatMigrated):
            reason = f"the group moved to chat {error.new_chat_id}"
        log.warning(
            "Telegram refused a message to chat %s: %s", ChatRef(TELEGRAM, chat_id).for_log, reason
        )
        return NotDelivered(reason)

    def _chat_turn(self, chat_id: int) -> AbstractAsyncContextManager[None]:
        """Hold ``chat_id``'s lock: its sends go one at a time, in the order they came."""
        return self._locks.hold(ChatRef(TELEGRAM, chat_id))


async def answer_tap(query: CallbackQuery, text: str | None = None) -> None:
    """Answer a button tap (stops the client's spinner; ``text`` shows as a toast).

    A query too old to answer, or a network error, is logged and dropped: the tap itself is
    still handled, and the customer has no use for an apology about a spinner.
    """
    try:
        await query.answer(text)
    except TelegramError as error:
        log.info("callback query not answered (%s)", type(error).__name__)


def retry_after_seconds(error: RetryAfter) -> float:
    """The seconds Telegram asked to wait, whichever way PTB 22 hands them over.

    ``retry_after`` is a ``timedelta`` when the process opted in with ``PTB_TIMEDELTA=true``
    (``deliverybot run`` does; PTB 23 will by default) and int seconds otherwise, with a
    ``PTBDeprecationWarning`` on each read.
    """
    wait: float | timedelta = error.retry_after
    return wait.total_seconds() if isinstance(wait, timedelta) else float(wait)
