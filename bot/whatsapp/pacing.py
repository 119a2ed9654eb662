"""WhatsApp's sending limits, kept before each send (Telegram's machinery, WhatsApp's numbers).

The Cloud API refuses a business number more than about 80 messages a second in all (130429)
and one person more than about one message every 6 seconds beyond a short burst (131056, the
"pair rate"). Both are kept as sliding windows by ``bot.telegram.limits.RateLimiter``, whose
booking, judging and sharing are the same for any messenger: ``WHATSAPP_LIMITS`` gives the
numbers. A chat's window is keyed by the customer's number (``ChatRef.id``, the ``wa_id``);
processes sharing a store share the windows and holds through ``store.whatsapp_send_budget``,
a ledger of its own (``bot.store.pg_send_limits.WHATSAPP_LEDGER``), so WhatsApp's numbers
never meet Telegram's chat ids and neither messenger's overall window counts the other's sends.

Meta gives no ``retry_after``; a refusal names its limit by its code, so ``hold_customer``
(131056) and ``hold_number`` (130429, and the Graph API's call limits 4 and 80007) hold what
it names, here and for every process, for the time ``WhatsAppLimits`` says.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import Final

from bot.chat_ref import WHATSAPP, ChatRef
from bot.clocks import Clock, Sleep
from bot.store.send_limits import UNSHARED_SEND_BUDGET, SendBudget
from bot.telegram.limits import RateLimiter, SendLimits, Window

log = logging.getLogger(__name__)

PAIR_RATE_SECONDS: Final = 6.0
"""Meta's pace to one person: about one message every 6 seconds, beyond a short burst."""
CUSTOMER_BURST: Final = 45
"""Messages to one customer within ``CUSTOMER_BURST * PAIR_RATE_SECONDS`` (270 s): Meta's
documented burst (up to 45 messages in 6 seconds, then the wait they would have taken at one
every 6 s). A sliding window of 45 in 270 s never sends more than that bucket allows, and a
customer ordering at a person's pace (an order is about 20 messages) is never held; a window of
6 in 36 s held a quick customer's seventh message for half a minute."""
NUMBER_PER_SECOND: Final = 80
"""The business number's throughput, messages a second (Meta's default)."""


@dataclass(frozen=True)
class WhatsAppLimits:
    """The windows kept (``per_number``, ``per_customer``) and how long a refusal holds:
    131056 the customer for ``customer_hold``, 130429 the number for ``number_hold``, the
    Graph API's call limits (4, 80007) the number for ``api_hold``. A refusal is retried up
    to ``max_attempts`` sends in all while its hold is at most ``longest_wait``."""

    per_number: Window = field(default_factory=lambda: Window(NUMBER_PER_SECOND, 1.0))
    per_customer: Window = field(
        default_factory=lambda: Window(CUSTOMER_BURST, CUSTOMER_BURST * PAIR_RATE_SECONDS)
    )
    customer_hold: float = PAIR_RATE_SECONDS
    number_hold: float = 1.0
    api_hold: float = 60.0
    max_attempts: int = 3
    longest_wait: float = 10.0

    def send_limits(self) -> SendLimits:
        """The same windows as ``RateLimiter`` keeps them (WhatsApp has no group chats)."""
        return SendLimits(
            overall=self.per_number,
            private_chat=self.per_customer,
            max_attempts=self.max_attempts,
            longest_wait=self.longest_wait,
        )


WHATSAPP_LIMITS: Final = WhatsAppLimits()


def _key(chat: ChatRef) -> int:
    if chat.channel != WHATSAPP or chat.id <= 0:
        raise ValueError(f"{chat} is not a WhatsApp customer's chat")
    return chat.id


class WhatsAppPacing:
    """WhatsApp's limits for one business number: the sender's turns (``acquire``), the
    relay's ``ChatTurns`` (``reserve``, ``release``) and backlog (``send_delay``), and the
    holds a refusal asks for."""

    def __init__(
        self,
        limits: WhatsAppLimits = WHATSAPP_LIMITS,
        *,
        budget: SendBudget = UNSHARED_SEND_BUDGET,
        clock: Clock = time.monotonic,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self.limits = limits
        self._budget = budget
        self._limiter = RateLimiter(limits.send_limits(), clock=clock, sleep=sleep, budget=budget)

    async def acquire(self, chat: ChatRef) -> None:
        """Wait until a message may go to ``chat`` (every process's sends counted), and count
        it as sent; a turn ``reserve`` kept is used instead."""
        await self._limiter.acquire(_key(chat))

    async def reserve(self, chat: ChatRef) -> float:
        """Wait for ``chat``'s turn and keep it for its next send; the seconds waited."""
        return await self._limiter.reserve(_key(chat))

    def release(self, chat: ChatRef) -> None:
        """Give back a turn ``reserve`` kept and no send used."""
        self._limiter.release(_key(chat))

    def send_delay(self, chat: ChatRef) -> float:
        """Seconds a message to ``chat`` would wait if sent now (this process's windows)."""
        return self._limiter.delay_for(_key(chat))

    def held_for(self, chat: ChatRef) -> float:
        """Seconds until ``chat`` may be sent to again because of a hold (0: none)."""
        return self._limiter.held_for(_key(chat))

    async def hold_customer(self, chat: ChatRef) -> float:
        """WhatsApp refused ``chat``'s pair rate (131056): hold it; the seconds held."""
        seconds = self.limits.customer_hold
        self._limiter.hold(_key(chat), seconds)
        await self._share(self._budget.hold(_key(chat), seconds))
        return seconds

    async def hold_number(self, *, api_limit: bool = False) -> float:
        """WhatsApp refused the number's throughput (130429), or the Graph API its calls
        (``api_limit``: 4, 80007): hold every chat; the seconds held."""
        seconds = self.limits.api_hold if api_limit else self.limits.number_hold
        self._limiter.hold_every_chat(seconds)
        await self._share(self._budget.hold_every_chat(seconds))
        return seconds

    @staticmethod
    async def _share(holding: Awaitable[None]) -> None:
        try:
            await holding
        except Exception:
            log.warning("could not share WhatsApp's hold with the other processes")
