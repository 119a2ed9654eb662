"""Replies owed: a create answered with a delivery is told to its customer exactly once.

``ChatService`` runs each turn that may create inside ``replies_owed``, and hands the
``RepliesOwed`` it yields to the turn's creates (``TurnCreates.owed``). A create of the turn
answered with a delivery (``recorded_creates.Sending.created``) links it to the chat and, in
the same commit, keeps its intent *answered* with the notice its customer would get instead
(``store.create_intents``), its lease still renewed. Once the turn's reply went out,
``TurnEffects`` calls ``told`` and those intents end. A turn that ends otherwise stops renewing
them; so does a kill: a lease later the follow-up (``bot.ordering.unconfirmed_worker``, any
instance) sends the notice instead, under a sent marker. Told once in the normal case; after a
crash between the answer and the reply, told by the follow-up (twice only if the crash fell
between the reply going out and the intent's end).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

from bot.store.create_intents import CreateIntents

logger = logging.getLogger(__name__)


class RepliesOwed:
    """The creates of one turn answered with a delivery, their customer not told yet.

    Each one's intent stays answered (with the notice to send instead), its lease renewed,
    until the turn's reply went out (``told``). A turn that ends otherwise (an error, a
    cancelled task) stops renewing them (``close``): a lease later the follow-up tells the
    customer. A kill leaves the same."""

    def __init__(self, intents: CreateIntents) -> None:
        self._intents = intents
        self._renewing: dict[str, asyncio.Task[None]] = {}

    def keep(self, key: str, renewing: asyncio.Task[None]) -> None:
        """Keep renewing the answered intent ``key`` until its customer is told."""
        self._renewing[key] = renewing

    async def told(self) -> None:
        """The turn's reply went out: its answered intents are done."""
        while self._renewing:
            key, renewing = self._renewing.popitem()
            await _stopped(renewing)
            try:
                await self._intents.told(key)
            except Exception:
                # The customer has their reply; failing the turn now would tell them something
                # went wrong. The worst left is the follow-up's notice, a lease later.
                logger.warning("create %s: its record was not closed after the reply", key,
                               exc_info=True)  # fmt: skip

    async def close(self) -> None:
        """Stop renewing what was not told (the follow-up tells it after the lease)."""
        while self._renewing:
            await _stopped(self._renewing.popitem()[1])


@contextlib.asynccontextmanager
async def replies_owed(intents: CreateIntents) -> AsyncIterator[RepliesOwed]:
    """Around a turn that may create: the replies it owes, for its creates to keep and its
    effects to settle (see ``RepliesOwed``); what was not told stops renewing at the end."""
    owed = RepliesOwed(intents)
    try:
        yield owed
    finally:
        await owed.close()


async def _stopped(task: asyncio.Task[None]) -> None:
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
