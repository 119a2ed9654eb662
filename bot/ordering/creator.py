"""``PartnerCreator``: the flows' ``DeliveryCreator`` over the Partner client.

Every ``PartnerError`` of a create is classified here, once, into one refusal reason; what
happens for each reason (asked again, refreshed, key kept, operators told) is decided by
``conversations.refusals.decide``, whose table docs/flows.md shows:

==========================================  ======================
Partner API answer                          reason
==========================================  ======================
429 longer than the client waits            ``rate_limited``
400 ``validation_error``                    ``validation``
  ... naming only payment / POD fields      ``payment``
403 ``service_disabled``                    ``service_disabled``
400 ``image_host_rejected``, photos the     ``image_host``
  bot re-hosted only
400 ``image_host_rejected``, a photo the     ``photo_link``
  customer gave as a link
400 ``image_host_rejected``, the bot's own   ``photos_expired``
  photos no longer stored
not sent: the bot's own photos no longer    ``photos_expired``
  stored (or about to expire)
403 other, about money                      ``payment``
403 other (coverage, trust)                 ``coverage``
503, 5xx, time-outs, dropped connections    ``unavailable``
anything else (key, scope, billing)         ``other``
==========================================  ======================

Before an error reaches this module the client has waited out short rate limits and re-sent a
create that surely never left (the connection could not be opened), with the same idempotency
key; it never repeats one that may have landed. Any failure after which the delivery *may*
exist (a 5xx, a time-out, a broken connection, an answer that cannot be read) is
``unavailable``: its outcome is unknown, so the order ends as "being checked" and
``bot.ordering.unconfirmed_worker`` reads back and finishes it with the same key in the
background, seconds later (it classifies its own retries here too).

Each create this module sends is recorded first (``recorded_creates.CreateRecorder``): the
intent is committed before the request leaves and settled by its answer, so a process killed
with the create in flight leaves what another instance needs to finish it.

Whose photos were refused is read from the request's ``packageImages`` by ``RehostedPhotos``
(``photo_origin``): the bot's own media URLs, or links the customer gave. Whether the bot's own
are still stored is asked of ``KeptPhotos`` (``kept_photos``), before the create is sent and
after a refusal of the photos.
"""

from __future__ import annotations

import logging
import re

from bot.ordering.kept_photos import EXPIRY_MARGIN_SECONDS, KeptPhotos
from bot.ordering.photo_origin import RehostedPhotos
from bot.ordering.recorded_creates import CreateRecorder, save_before_unrecorded_create
from bot.ordering.turn_creates import TurnCreates, of_turn
from bot.partner import errors
from bot.partner.client import PartnerClient
from bot.partner.models import COORDINATE_FIELDS, PAYMENT_FIELDS, CreateDeliveryRequest
from conversations.outcome import Created, CreateOutcome, RefusalReason, Refused
from conversations.refusals import decide, field_base

logger = logging.getLogger(__name__)

_MONEY_WORDS = re.compile(r"\b(payment|pay|paid|cash|checkout|money|collection|pod)\b", re.I)


def _fields(error: errors.PartnerError) -> set[str]:
    return {field_base(name) for name in error.field_errors}


def _about_money(error: errors.PartnerError) -> bool:
    said = " ".join([error.code or "", error.message, *error.field_errors])
    return bool(_fields(error) & PAYMENT_FIELDS) or bool(_MONEY_WORDS.search(said))


def reason_for(
    error: errors.PartnerError, *, given_photos: bool = False, gone_photos: bool = False
) -> RefusalReason:
    """The refusal reason a create that failed with ``error`` comes to; ``given_photos``
    says the request held photos the customer gave as links (not re-hosted by the bot),
    ``gone_photos`` that some of the bot's own are no longer stored."""
    if isinstance(error, errors.RateLimited):
        return "rate_limited"
    if isinstance(error, errors.InvalidFields):
        only_money = bool(error.field_errors) and _fields(error) <= PAYMENT_FIELDS
        return "payment" if only_money else "validation"
    if isinstance(error, errors.ServiceDisabled):
        return "service_disabled"
    if isinstance(error, errors.ImageHostRejected):
        if gone_photos:  # nobody's mistake: the photos outlived their keeping
            return "photos_expired"
        return "photo_link" if given_photos else "image_host"
    if isinstance(error, errors.CreateRejected):
        money = _about_money(error) and not _fields(error) & COORDINATE_FIELDS
        return "payment" if money else "coverage"
    if (
        isinstance(error, errors.ServerError | errors.PartnerUnreachable)
        or 200 <= error.status < 300
    ):
        return "unavailable"
    # A refused key, a missing scope, terminated billing: the business must act.
    return "other"


def refusal_for(
    error: errors.PartnerError, *, given_photos: bool = False, gone_photos: bool = False
) -> Refused:
    """The ``Refused`` value, with its decision, for a create that failed with ``error``
    (``given_photos`` and ``gone_photos`` as for ``reason_for``)."""
    return decide(
        reason_for(error, given_photos=given_photos, gone_photos=gone_photos),
        # The service's words, for the log and the operators' alert; a customer is told in the
        # bot's own words whatever they are (``conversations.texts.dialogue.refusal``).
        message=error.message,
        field_errors=error.field_errors,
        retry_after=error.retry_after,
    )


class PartnerCreator:
    """Creates deliveries (a ``RequestCreator``); refusals come back as values.

    ``rehosted`` knows the bot's own photo URLs; without it the bot re-hosts nothing, and every
    photo is one the customer gave. ``kept`` knows which of them are still stored: with it, a
    create whose own photos are gone (or about to go) is not sent, and the customer is asked
    for the photos again (``photos_expired``). ``recorder``, when given, records each create
    before it is sent and settles it by the answer (see the module docstring).
    """

    def __init__(
        self,
        client: PartnerClient,
        rehosted: RehostedPhotos | None = None,
        kept: KeptPhotos | None = None,
        recorder: CreateRecorder | None = None,
    ) -> None:
        self._client = client
        self._rehosted = rehosted or RehostedPhotos(None)
        self._kept = kept
        self._recorder = recorder

    async def create(self, request: CreateDeliveryRequest, turn: object = None) -> CreateOutcome:
        """Send ``request``, recorded as a create of ``turn`` (its ``TurnCreates``: whose
        create it is, the replies the turn owes, a watch on the rate budget's wait)."""
        creates = of_turn(turn)
        photos = request.packageImages
        if self._kept is not None and await self._kept.gone(photos, within=EXPIRY_MARGIN_SECONDS):
            logger.info("create not sent: the photos the bot re-hosted for it expired")
            return decide("photos_expired")
        if self._recorder is None:
            await save_before_unrecorded_create(creates)
            return await self._send(request, creates)
        async with self._recorder.sending(request, creates) as sending:
            outcome = await self._send(request, creates)
            if sending is not None:
                if isinstance(outcome, Created):
                    await sending.created(outcome.delivery)
                elif not outcome.outcome_unknown:
                    await sending.refused()
                # An unknown outcome stays recorded until ChatService keeps it as unconfirmed.
            return outcome

    async def _send(
        self, request: CreateDeliveryRequest, creates: TurnCreates | None
    ) -> CreateOutcome:
        held_back = None if creates is None else creates.held_back
        try:
            delivery = await self._client.create_delivery(request, held_back=held_back)
        except errors.PartnerError as error:
            photos = request.packageImages
            given = bool(self._rehosted.given(photos))
            gone = await self._gone_since(error, photos)
            refused = refusal_for(error, given_photos=given, gone_photos=gone)
            level = logging.ERROR if refused.alert_operators else logging.INFO
            logger.log(level, "create refused (%s): %s", refused.reason, error)
            return refused
        return Created(delivery=delivery)

    async def _gone_since(self, error: errors.PartnerError, photos: list[str]) -> bool:
        """After a refusal of the photos: whether some of the bot's own expired meanwhile."""
        if self._kept is None or not isinstance(error, errors.ImageHostRejected):
            return False
        return bool(await self._kept.gone(photos))
