"""``CustomerDesk``: what a customer can ask about the deliveries they ordered, for every channel.

Beside ``ChatService`` (which takes orders), the desk answers the rest: one delivery's status,
the customer's deliveries page by page, cancelling one with a reason, and the receiver's side
of a drop-off code hand-off (``receiver_handoff``). Channels (Telegram, the console, a JSON
API, an agent's tools) parse their input, call it with plain values and draw the plain reply
(``desk_replies``); every sentence in a reply comes from ``conversations.texts``.

Ownership is the ``store.deliveries`` link made when the bot created the delivery, keyed by the
customer's user id. Every lookup a customer can trigger goes through it first, and anything
they do not own gets exactly the answer an unknown reference gets, without a Partner API call,
so ids cannot be probed. A customer may give the full id or the short reference chats use
(``3F2A9C1E``); a reference is matched only against their own deliveries.

Refusals of the Partner API are said in plain words: no service text, error code or enum value
reaches a customer (the error goes to the log).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Final, Literal

from bot.chat_ref import ChatRef, UserRef
from bot.ordering.chats import ChatService
from bot.ordering.desk_replies import (
    CancelReply,
    DeliveryEntry,
    DeliveryPage,
    HandoffCode,
    HandoffReply,
    StatusReply,
)
from bot.ordering.receiver_handoff import ReceiverHandoffs
from bot.partner import errors
from bot.partner.client import PartnerClient
from bot.partner.models import CANCEL_REASON_LENGTH
from bot.store import DeliveryLink, Store
from conversations.texts import desk_texts as texts
from conversations.texts.business_texts import BusinessTexts
from conversations.texts.catalogue import DEFAULT_TEXTS, Catalogue
from conversations.texts.deliveries_texts import short_ref, status_label
from conversations.texts.desk_texts import ChannelWords

log = logging.getLogger(__name__)

PAGE_SIZE: Final = 5
_MIN_REF: Final = 6  # shorter prefixes would match too much to mean anything
_REF_SEARCH: Final = 200  # a reference is looked for among the customer's newest deliveries

Trouble = Literal["busy", "refused", "unreachable"]


class CustomerDesk:
    """The customer's own deliveries over ``store`` and ``client``, worded with ``words``.

    ``chats``, when given, tells the hand-off whether an order is open in a chat (a contact
    shared there belongs to the order too). ``phone_region`` reads numbers without a country
    code.
    """

    def __init__(
        self,
        store: Store,
        client: PartnerClient,
        words: ChannelWords,
        *,
        phone_region: str,
        chats: ChatService | None = None,
        page_size: int = PAGE_SIZE,
        texts: BusinessTexts | None = None,
    ) -> None:
        self.store = store
        self.texts = texts or BusinessTexts(DEFAULT_TEXTS)
        self.client = client
        self.words = words
        self.page_size = page_size
        self._chats = chats
        self.handoffs = ReceiverHandoffs(
            store,
            words,
            phone_region=phone_region,
            order_open=self._order_open,
        )

    # --- one delivery ---------------------------------------------------------------------------

    async def status(self, catalogue: Catalogue, user: UserRef, ref: str = "") -> StatusReply:
        """The delivery ``ref`` (full id or short reference) as the service has it now; with no
        ``ref``, the customer's latest. The chat's last view when the service cannot answer."""
        typed = ref.strip()
        link = await self.find(user, typed) if typed else await self._latest(user)
        if link is None:
            if typed:
                return StatusReply(
                    outcome="unknown", text=texts.unknown_delivery(catalogue, typed, self.words)
                )
            return StatusReply(outcome="none_yet", text=texts.none_yet(catalogue, self.words))
        try:
            delivery = await self.client.get_delivery(link.delivery_id)
        except errors.NotFound:
            shown = typed or short_ref(link.delivery_id)
            return StatusReply(
                outcome="unknown", text=texts.unknown_delivery(catalogue, shown, self.words)
            )
        except errors.PartnerError as error:
            log.info("status of %s not read: %r", link.delivery_id, error)
            trouble = _trouble(catalogue, error)
            return StatusReply(
                outcome="last_known",
                text=texts.last_known(
                    catalogue, link.delivery_id, link.status, link.tracking_url, trouble
                ),
                delivery=_entry(catalogue, link),
            )
        tracking = delivery.tracking_url or link.tracking_url
        return StatusReply(
            outcome="found",
            text=texts.delivery_details(catalogue, delivery, link.tracking_url),
            delivery=_entry(catalogue, link, status=delivery.status, tracking_url=tracking),
        )

    # --- the list -------------------------------------------------------------------------------

    async def deliveries(self, catalogue: Catalogue, user: UserRef, page: int = 0) -> DeliveryPage:
        """Page ``page`` (from 0, clamped to the last) of the customer's deliveries, newest
        first. Read from the store only: the list never asks the service."""
        total = await self.store.deliveries.count_for_user(user)
        if total == 0:
            text = texts.none_yet(catalogue, self.words)
            return DeliveryPage(page=0, pages=0, total=0, title=text, text=text)
        pages = math.ceil(total / self.page_size)
        page = min(max(page, 0), pages - 1)
        links = await self.store.deliveries.for_user(user, self.page_size, page * self.page_size)
        entries = tuple(_entry(catalogue, link) for link in links)
        title = texts.list_title(catalogue, page, pages)
        hint = texts.details_hint(catalogue, entries[0].ref, self.words) if entries else None
        lines = [title, *(entry.line for entry in entries)]
        if hint is not None:
            lines += ["", hint]
        return DeliveryPage(
            page=page,
            pages=pages,
            total=total,
            entries=entries,
            title=title,
            hint=hint,
            text="\n".join(lines),
        )

    # --- cancelling -----------------------------------------------------------------------------

    async def cancel(
        self, catalogue: Catalogue, user: UserRef, ref: str, reason: str
    ) -> CancelReply:
        """Cancel the customer's delivery ``ref`` for ``reason`` (3 to 500 characters)."""
        typed, reason = ref.strip(), reason.strip()
        if not typed:
            return CancelReply(outcome="usage", text=texts.cancel_usage(catalogue, self.words))
        low, high = CANCEL_REASON_LENGTH
        if not low <= len(reason) <= high:
            return CancelReply(
                outcome="bad_reason", text=texts.bad_reason(catalogue, len(reason), self.words)
            )
        link = await self.find(user, typed)
        if link is None:
            return CancelReply(
                outcome="unknown", text=texts.unknown_delivery(catalogue, typed, self.words)
            )
        delivery_id = link.delivery_id
        try:
            await self.client.cancel_delivery(delivery_id, reason)
        except errors.CancelNotAllowed:
            text = texts.not_cancellable(catalogue, delivery_id, await self.status_now(link))
            return CancelReply(outcome="not_allowed", text=text, delivery_id=delivery_id)
        except errors.NotFound:
            return CancelReply(
                outcome="unknown", text=texts.unknown_delivery(catalogue, typed, self.words)
            )
        except errors.PartnerError as error:
            log.info("cancel of %s failed: %r", delivery_id, error)
            outcome = _trouble_kind(error)
            return CancelReply(
                outcome=outcome, text=_trouble(catalogue, error), delivery_id=delivery_id
            )
        # The customer is told here: the relay's cancelled event is then no news to them.
        await self.store.deliveries.note_status(delivery_id, "cancelled")
        return CancelReply(
            outcome="cancelled",
            text=texts.cancelled(catalogue, delivery_id),
            delivery_id=delivery_id,
        )

    # --- the drop-off code hand-off ---------------------------------------------------------------

    async def open_handoff(
        self, catalogue: Catalogue, chat: ChatRef, user: UserRef, token: str
    ) -> HandoffReply:
        """``user`` opened a hand-off link (its ``token``) in ``chat``: ask for their own
        contact, hand the code over at once to a phone they proved before, or say why not."""
        return await self.handoffs.open(catalogue, chat, user, token)

    async def share_contact(
        self,
        catalogue: Catalogue,
        chat: ChatRef,
        user: UserRef,
        phone: str,
        *,
        contact_user: UserRef | None,
    ) -> HandoffReply:
        """A contact (``phone``, belonging to ``contact_user``) shared in ``chat``: the
        codes waiting for the sharer's own proven number, a refusal, or ``not_for_handoff``."""
        return await self.handoffs.share_contact(catalogue, chat, user, phone, contact_user)

    async def code_handed_over(self, chat: ChatRef, code: HandoffCode) -> bool:
        """``code`` reached ``chat``: erase it from the store."""
        return await self.handoffs.handed_over(chat, code)

    # --- lookups that only ever see the customer's own deliveries -------------------------------

    async def find(self, user: UserRef, typed: str) -> DeliveryLink | None:
        """The customer's delivery with this full id, or whose id starts with this reference."""
        deliveries = self.store.deliveries
        if await deliveries.owned_by(typed, user):
            return await deliveries.get(typed)
        ref = typed.casefold()
        if len(ref) < _MIN_REF:
            return None
        newest = await deliveries.for_user(user, _REF_SEARCH)
        return _starting_with(newest, ref)

    async def status_now(self, link: DeliveryLink) -> str:
        """The status as the service has it (the chat's view may lag behind), to say why."""
        try:
            return (await self.client.get_delivery(link.delivery_id)).status
        except errors.PartnerError:
            return link.status

    async def _latest(self, user: UserRef) -> DeliveryLink | None:
        newest = await self.store.deliveries.for_user(user, 1)
        return newest[0] if newest else None

    async def _order_open(self, chat: ChatRef) -> bool:
        if self._chats is None:
            return False
        session = await self._chats.session(chat)
        return session is not None and not session.finished


def _starting_with(links: Sequence[DeliveryLink], ref: str) -> DeliveryLink | None:
    return next((link for link in links if link.delivery_id.casefold().startswith(ref)), None)


def _entry(
    catalogue: Catalogue,
    link: DeliveryLink,
    *,
    status: str | None = None,
    tracking_url: str | None = None,
) -> DeliveryEntry:
    status = status or link.status
    ref = short_ref(link.delivery_id)
    return DeliveryEntry(
        delivery_id=link.delivery_id,
        ref=ref,
        status=status,
        status_text=status_label(catalogue, status),
        ordered_at=datetime.fromtimestamp(link.created_at, UTC),
        ordered_on=texts.ordered_on(catalogue, link.created_at),
        tracking_url=tracking_url or link.tracking_url,
        line=texts.list_entry(catalogue, ref, status, link.created_at),
    )


def _trouble_kind(error: errors.PartnerError) -> Trouble:
    if isinstance(error, errors.RateLimited):
        return "busy"
    if isinstance(error, errors.InvalidRequest):
        return "refused"
    return "unreachable"  # the service failed, or cannot be used as configured (logged)


def _trouble(catalogue: Catalogue, error: errors.PartnerError) -> str:
    """A failed call in plain words; the error itself goes to the log, never to the customer."""
    return {
        "busy": texts.BUSY.render(catalogue),
        "refused": texts.NOT_ACCEPTED.render(catalogue),
        "unreachable": texts.UNREACHABLE.render(catalogue),
    }[_trouble_kind(error)]
