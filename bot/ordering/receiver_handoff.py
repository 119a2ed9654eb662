"""The receiver's side of a drop-off code hand-off: open the link, prove the phone, get the code.

When the customer is not (or not provably) the receiver, the relay keeps the code in
``store.otp`` and gives the customer a link carrying the hand-off's token to forward (in
Telegram ``https://t.me/<bot>?start=otp_<token>``: ``handoff_payload``). Whoever opens it
(``open``) is asked to share their *own* contact. The code goes out only when that contact is
the sharer's own (the channel vouches for the number only then: in Telegram, the contact's
user id is the sender's) and its number equals the hand-off's ``receiver_phone``. The code
comes only from what the relay stored from ``data.otp.code``; it is erased once the channel
says it reached the chat (``handed_over``).

The phone match is the whole proof; the link is only an invitation. "Who opened which link"
(``store.otp_invitations``, for ``INVITATION_SECONDS``) decides whether a contact that does
*not* match gets a plain refusal rather than going to the order conversation, and lets a
receiver phone the relay could not normalise still match; it is in the store because the
contact may reach another process sharing it than the link did. The receiver's matching
contact gets the code in any case (``share_contact`` looks hand-offs up by phone). A verified
receiver who shares their contact for any reason gets every code waiting for their number.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Final

from bot.chat_ref import ChatRef, UserRef
from bot.ordering.desk_replies import HandoffCode, HandoffReply
from bot.store import OtpHandoff, Store
from conversations.phones import normalise_phone
from conversations.texts import handoff_texts
from conversations.texts.catalogue import Catalogue
from conversations.texts.deliveries_texts import otp_for_receiver, short_ref
from conversations.texts.desk_texts import ChannelWords

PAYLOAD_PREFIX: Final = "otp_"
INVITATION_SECONDS: Final = 1800.0
"""How long an opened link waits for the chat's contact."""
_TOKEN: Final = re.compile(r"[A-Za-z0-9_-]{16,64}")

OrderOpen = Callable[[ChatRef], Awaitable[bool]]


def handoff_payload(token: str) -> str:
    """What a hand-off link carries (Telegram's ``/start`` payload): ``otp_<token>``."""
    return PAYLOAD_PREFIX + token


def handoff_token(payload: str) -> str | None:
    """The token of a payload that is a hand-off link (``otp_<token>``), else None."""
    return payload.removeprefix(PAYLOAD_PREFIX) if payload.startswith(PAYLOAD_PREFIX) else None


class ReceiverHandoffs:
    """The hand-off steps over ``store``; ``CustomerDesk`` offers them to the channels.

    ``order_open(chat)`` says whether an order is being filled in in the chat: a contact
    shared there without a link opened belongs to that order too.
    """

    def __init__(
        self,
        store: Store,
        words: ChannelWords,
        *,
        phone_region: str,
        order_open: OrderOpen | None = None,
    ) -> None:
        self._store = store
        self._words = words
        self._region = phone_region
        self._order_open = order_open
        self._invitations = store.otp_invitations

    async def open(
        self, catalogue: Catalogue, chat: ChatRef, user: UserRef, token: str
    ) -> HandoffReply:
        """``user`` opened the link of ``token`` in ``chat`` (answered from ``catalogue``)."""
        handoff = await self._store.otp.get_by_token(token) if _TOKEN.fullmatch(token) else None
        if handoff is None:
            return HandoffReply(
                outcome="unknown_link", text=handoff_texts.UNKNOWN_LINK.render(catalogue)
            )
        if not handoff.pending:
            return HandoffReply(
                outcome="already_sent", text=handoff_texts.ALREADY_SENT.render(catalogue)
            )
        known = await self._store.contacts.phone_for(user)
        if known is not None and known == self._receiver(handoff):
            # This user proved this very number before: no need to ask again.
            return HandoffReply(outcome="handed_over", codes=_codes(catalogue, [handoff]))
        await self._invitations.open(chat, token, ttl=INVITATION_SECONDS)
        return HandoffReply(
            outcome="ask_for_contact",
            text=handoff_texts.ask_for_contact(catalogue, handoff.delivery_id, self._words),
            wants_contact=True,
        )

    async def share_contact(
        self,
        catalogue: Catalogue,
        chat: ChatRef,
        user: UserRef,
        phone: str,
        contact_user: UserRef | None,
    ) -> HandoffReply:
        """A contact with ``phone`` arrived in ``chat``; ``contact_user`` is whose it is
        (answered from ``catalogue``).

        The sharer's own contact is recorded in ``store.contacts``; every code waiting for its
        number is for this chat. A chat in the middle of a hand-off is told plainly why a
        contact that is not their own, or not the receiver's number, gets no code. Outside a
        hand-off the contact stays the order conversation's when an order is open in the
        chat, even if codes were handed over for it.
        """
        own = contact_user == user
        verified = normalise_phone(phone, self._region) if own else None
        if verified is not None:
            await self._store.contacts.record(user, verified, contact_user_id=user.id)
        token = await self._invitations.token_for(chat)
        invited = await self._store.otp.get_by_token(token) if token else None
        waiting = await self._store.otp.pending_for_phone(verified) if verified else []
        if (
            invited is not None
            and invited.pending
            and verified is not None
            and self._receiver(invited) == verified
            and invited.delivery_id not in {handoff.delivery_id for handoff in waiting}
        ):
            waiting.append(invited)  # a receiver phone the relay could not normalise
        if waiting:
            await self._invitations.close(chat)
            # Without a link opened, the contact may also answer the chat's open order (its
            # phone question): the receiver gets the codes either way, so the order has it too.
            alone = token is not None or not await self._order_is_open(chat)
            return HandoffReply(
                outcome="handed_over", codes=_codes(catalogue, waiting), answered=alone
            )
        if token is None:
            return HandoffReply(outcome="not_for_handoff", answered=False)
        if not own:
            text = handoff_texts.not_own_contact(catalogue, self._words)
            return HandoffReply(outcome="not_own_contact", text=text, wants_contact=True)
        if verified is None:
            text = handoff_texts.unreadable_phone(catalogue, self._words)
            return HandoffReply(outcome="unreadable_phone", text=text, wants_contact=True)
        await self._invitations.close(chat)
        if invited is None or not invited.pending:
            text = handoff_texts.ALREADY_SENT.render(catalogue)
            return HandoffReply(outcome="already_sent", text=text, ended=True)
        return HandoffReply(
            outcome="wrong_phone", text=handoff_texts.WRONG_PHONE.render(catalogue), ended=True
        )

    async def handed_over(self, chat: ChatRef, code: HandoffCode) -> bool:
        """``code`` reached ``chat``: erase it (False when a resend replaced it meanwhile)."""
        return await self._store.otp.mark_delivered(code.delivery_id, code.code, chat)

    def _receiver(self, handoff: OtpHandoff) -> str | None:
        return normalise_phone(handoff.receiver_phone, self._region)

    async def _order_is_open(self, chat: ChatRef) -> bool:
        return self._order_open is not None and await self._order_open(chat)


def _codes(catalogue: Catalogue, handoffs: list[OtpHandoff]) -> tuple[HandoffCode, ...]:
    return tuple(
        HandoffCode(
            delivery_id=handoff.delivery_id,
            ref=short_ref(handoff.delivery_id),
            code=handoff.code,
            text=otp_for_receiver(catalogue, handoff.delivery_id, handoff.code),
        )
        for handoff in handoffs
        if handoff.code is not None
    )
