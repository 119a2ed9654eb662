"""Creates recorded before they are sent: the ordering side of ``store.create_intents``.

::

    async with replies_owed(store.create_intents) as owed:        # ChatService, a turn
        creates = TurnCreates(catalogue, CreateFor(chat, user_id, saved_order), owed)
        ... engine.handle(..., creates=creates) ->  PartnerCreator.create(request, creates)
                                        async with recorder.sending(request, creates) as sending:
                                            POST /deliveries
                                            await sending.created(delivery)  # or .refused()
        ... the turn's session written, its reply sent ...
        await owed.told()

``PartnerCreator`` knows the request, not the chat; ``ChatService`` knows the chat, not the
request. The chat reaches the creator with the turn's ``TurnCreates`` (``turn_creates``),
which the engine hands it with each create.

Before the request leaves, ``CreateRecorder.sending`` commits the intent (request with its key,
chat, customer, saved order, language) as this process's (``store.holder``), in the same
commit as the session's move to "creating" when the turn made a new key (the engine's
``before_create`` only hands that session over: ``CreatingSession``), with a lease of
``LEASE_SECONDS`` renewed every ``RENEW_SECONDS`` while the request is in flight (the client's
wait for the rate budget included). The answer settles it: a delivery is linked to the chat in
the intent's own commit, a definite refusal drops it, an unknown outcome is left for
``ChatService`` to keep in ``store.unconfirmed``. Within ``replies_owed`` (``ChatService``,
around a turn) a delivery's intent is not dropped but kept *answered*, with the notice its
customer would get instead of the turn's reply, and renewed until that reply went out
(``RepliesOwed.told``): a process killed in between leaves it to the follow-up, which sends the
notice, once. A process killed meanwhile renews nothing: a
lease later any instance's follow-up (``CreateFollowUp``) takes the intent over, reads back,
sends it again with the same key, links the delivery and tells the customer.

A create sent outside a chat's turn (no ``TurnCreates.who``), or by a creator without a store
to record it in, is sent unrecorded (the session of a new key is then saved alone, before it).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Final

from bot.clocks import Clock
from bot.ordering.duplicate_hold import content_fingerprint
from bot.ordering.owed_replies import RepliesOwed
from bot.ordering.settled_links import settled_link
from bot.ordering.turn_creates import TurnCreates
from bot.partner.models import CreateDeliveryRequest, Delivery
from bot.store.create_intents import CreateIntent, CreateIntents
from conversations.texts import dialogue
from conversations.texts.catalogue import Catalogue

logger = logging.getLogger(__name__)

#: How long an intent outlives a sender that stopped renewing it: a killed sender's customer
#: is told about this long after the kill (plus the follow-up's look and read-back), well
#: inside a minute; a live sender renews it every ``RENEW_SECONDS``, so a slow answer or a
#: long wait for the rate budget never looks like a dead sender.
LEASE_SECONDS: Final = 15.0
RENEW_SECONDS: Final = LEASE_SECONDS / 3


async def save_before_unrecorded_create(creates: TurnCreates | None) -> None:
    """Save the session of the turn's new key (if not yet): a create is about to be sent
    without being recorded (no store to record it in)."""
    who = None if creates is None else creates.who
    creating = None if who is None else who.creating
    if creating is not None and creating.take() is not None:
        await creating.save_alone()


async def _stopped(task: asyncio.Task[None]) -> None:
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)


class Sending:
    """One recorded create in flight; its answer settles it."""

    def __init__(
        self,
        intent: CreateIntent,
        intents: CreateIntents,
        owed: RepliesOwed | None,
        catalogue: Catalogue,
    ) -> None:
        self.intent = intent
        self._intents = intents
        self._owed = owed
        self._catalogue = catalogue
        self.answered = False  # linked, its customer still to be told by the turn

    async def created(self, delivery: Delivery) -> None:
        """Link ``delivery`` to the intent's chat in one commit with the intent's end: the
        intent is dropped, or when the turn owes its reply (``replies_owed``) kept answered
        with the notice its customer gets should the turn's reply not go out (its own words,
        in its language)."""
        link = settled_link(delivery, sent_at=self.intent.created_at)
        notice = None if self._owed is None else dialogue.went_through(self._catalogue, delivery)
        await self._intents.settle_created(self.intent, link, notice=notice)
        self.answered = notice is not None

    async def refused(self) -> None:
        """The service refused for certain: nothing was made."""
        await self._intents.drop(self.intent.idempotency_key)


class CreateRecorder:
    """Records each create before it is sent; see the module docstring. ``owner`` is this
    process's ``store.holder``."""

    def __init__(
        self,
        intents: CreateIntents,
        owner: str,
        clock: Clock,
        *,
        lease_seconds: float = LEASE_SECONDS,
        renew_seconds: float = RENEW_SECONDS,
    ) -> None:
        self._intents = intents
        self._owner = owner
        self._clock = clock
        self._lease = lease_seconds
        self._renew_every = renew_seconds

    @contextlib.asynccontextmanager
    async def sending(
        self, request: CreateDeliveryRequest, creates: TurnCreates | None
    ) -> AsyncIterator[Sending | None]:
        """Commit the intent of ``request`` (a create of the turn whose ``creates`` these are)
        before the block sends it, and renew its lease until the block ends; None (nothing
        recorded) outside a chat's turn."""
        who = None if creates is None else creates.who
        key = request.idempotencyKey
        if creates is None or who is None or key is None:
            await save_before_unrecorded_create(creates)
            yield None
            return
        now = self._clock()
        intent = CreateIntent(
            idempotency_key=key,
            chat=who.chat,
            user_id=who.user_id,
            request=request.model_dump_json(),
            saved_order=who.saved_order(),
            fingerprint=content_fingerprint(request),
            language=creates.catalogue.chosen,
            created_at=now,
        )
        session = None if who.creating is None else who.creating.take()
        await self._intents.record(intent, self._owner, now + self._lease, session=session)
        renewing = asyncio.create_task(self._renew(key), name=f"create-intent-{key[:8]}")
        owed = creates.owed
        sending = Sending(intent, self._intents, owed, creates.catalogue)
        try:
            yield sending
        finally:
            if sending.answered and owed is not None:
                owed.keep(key, renewing)
            else:
                await _stopped(renewing)

    async def _renew(self, key: str) -> None:
        while True:
            await asyncio.sleep(self._renew_every)
            try:
                if not await self._intents.renew(key, self._owner, self._clock() + self._lease):
                    return  # settled, or taken over after a stall
            except Exception:
                # The next renewal may pass; a lease lost meanwhile only means the follow-up
                # reads back a create that is still in flight, with the same key.
                logger.warning("the lease of create %s was not renewed", key, exc_info=True)
