"""``LaterResends``: a create held back by a rate limit is sent again once the service allows it.

A turn whose create met a rate limit says so (``ResendAfter``); when the adapter gave
``deliver_later`` to show a turn that happens without a customer message, the summary's
Confirm is answered again after the wait, under the chat's lock, as that chat's turn. The
customer's moving on (or sending it again) meanwhile cancels it. Without ``deliver_later``
the customer re-sends from the summary.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Awaitable, Callable

from bot.chat_ref import ChatRef, UserRef
from bot.chatlocks import ChatTurnLocks
from bot.clocks import Sleep
from bot.ordering.turn_context import Reply
from conversations import CONFIRM, ChoiceAnswer, Session, Turn
from conversations.dialog import Answer
from conversations.texts.catalogue import Catalogue

#: Shows a turn that happens without a customer message, in ``chat`` (the adapter's).
DeliverLater = Callable[[ChatRef, Turn], Awaitable[None]]
#: The chat's open session, as saved after its last turn.
LoadSession = Callable[[ChatRef], Awaitable[Session | None]]
#: Runs one answer as the chat's turn, its reply shown by ``Reply``.
AnswerTurn = Callable[[ChatRef, UserRef, Catalogue, Session, Answer, Reply], Awaitable[Turn]]


class LaterResends:
    """The turns scheduled for later; ``load`` and ``answer`` are the turn-taker's."""

    def __init__(
        self,
        locks: ChatTurnLocks,
        *,
        load: LoadSession,
        answer: AnswerTurn,
        deliver_later: DeliverLater | None,
        sleep: Sleep,
    ) -> None:
        self._locks = locks
        self._load = load
        self._answer = answer
        self._deliver_later = deliver_later
        self._sleep = sleep
        self._later: set[asyncio.Task[None]] = set()

    def schedule(
        self, chat: ChatRef, user: UserRef, catalogue: Catalogue, session: Session, delay: float
    ) -> None:
        """Confirm ``session``'s summary again in ``delay`` seconds, if it still stands, in a
        turn said from ``catalogue`` (the one of the turn the service refused)."""
        deliver_later = self._deliver_later
        step, version, key = session.step, session.prompt_version, session.idempotency_key
        if deliver_later is None or step is None or key is None:
            return

        async def resend() -> None:
            await self._sleep(delay)
            async with self._locks.hold(chat):
                current = await self._load(chat)
                if current is None or (
                    (current.step, current.prompt_version, current.idempotency_key)
                    != (step, version, key)
                ):
                    return  # the customer moved on (or sent it again) meanwhile
                confirm = ChoiceAnswer(option=CONFIRM, step=step, version=version)
                # Shown as the reply of the turn: a delivery it made is told once, by it.
                await self._answer(
                    chat, user, catalogue, current, confirm, functools.partial(deliver_later, chat)
                )

        task = asyncio.create_task(resend())
        self._later.add(task)
        task.add_done_callback(self._later.discard)

    async def settle(self) -> None:
        """Return once every turn scheduled for later has run."""
        while self._later:
            await asyncio.gather(*self._later, return_exceptions=True)

    async def aclose(self) -> None:
        """Drop the turns scheduled for later (a restart resumes from the saved sessions)."""
        for task in list(self._later):
            task.cancel()
        await asyncio.gather(*self._later, return_exceptions=True)
