"""The receiver's side of a drop-off code hand-off: open the link, prove the phone, get the code.

When the customer is not (or not provably) the receiver, the relay keeps the code in
``store.otp`` and gives the customer a link, ``https://t.me/<bot>?start=otp_<token>``, to
forward. Whoever opens it (``start_otp_handoff``) is asked to share their *own* contact with
the reply keyboard's contact button. The code is sent only when that contact is the sender's
own (Telegram vouches for the number only then) and its number equals the hand-off's
``receiver_phone``; the text comes from ``conversations.texts.deliveries_texts`` and the code
only from what the relay stored from ``data.otp.code``. Codes are handed over in private chats
only: in a group, everyone would read them.

The phone match is the whole proof; the link is only an invitation. That is why "who opened
which link" (``HandoffInvitations``) is kept in memory and need not survive a restart: it
decides only whether a contact that does *not* match gets a plain refusal rather than going
to the order conversation. After a restart the receiver's matching contact still gets the
code (``contact_shared`` looks hand-offs up by phone), and opening the link again restores the
rest. A verified receiver who shares their contact for any reason gets every code waiting
for their number.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Sequence
from typing import Final
from weakref import WeakKeyDictionary

from telegram import ReplyKeyboardRemove, Update
from telegram.constants import ChatType

from bot.store import OtpHandoff, Store
from bot.telegram.answers import is_own_contact
from bot.telegram.context import BotContext
from bot.telegram.render import Markup, OutgoingMessage, share_keyboard
from bot.telegram.sender import Delivered
from bot.telegram.text import escape
from conversations.phones import normalise_phone
from conversations.texts import deliveries_texts as wording

log = logging.getLogger(__name__)

PAYLOAD_PREFIX: Final = "otp_"
_TOKEN: Final = re.compile(r"[A-Za-z0-9_-]{16,64}")

UNKNOWN_LINK = (
    "This drop-off code link is not valid any more: the delivery may be finished, or the "
    "link was copied incompletely. Please ask the sender for a new one."
)
ALREADY_SENT = "The drop-off code for this delivery was already sent to its receiver."
PRIVATE_ONLY = "Please open the link in a private chat with me: codes are never sent to groups."
ASK_FOR_CONTACT = (
    "You were sent this link to receive the drop-off code for delivery {ref}.\n"
    "The code may only go to the receiver, so please share your own phone number with the "
    "button below. I use it only to check that it is the receiver's number."
)
NOT_OWN_CONTACT = (
    "That is someone else's contact. To get the code, share your own number with the "
    "“Share my contact” button below."
)
UNREADABLE_PHONE = "I couldn't read a phone number from that contact. Please try the button below."
WRONG_PHONE = (
    "Sorry, your number is not the receiver's number for this delivery, so I can't send the "
    "code to you. If you are the receiver, ask the sender to check the receiver's number."
)


class HandoffInvitations:
    """Which private chat opened which hand-off link, for ``ttl`` seconds (memory only)."""

    def __init__(self, ttl: float = 1800.0, clock: Callable[[], float] = time.monotonic) -> None:
        self._ttl = ttl
        self._clock = clock
        self._opened: dict[int, tuple[str, float]] = {}

    def open(self, chat_id: int, token: str) -> None:
        """``chat_id`` opened the link of ``token``; a later link replaces an earlier one."""
        now = self._clock()
        # Forget expired invitations now and then, so the map stays as small as the traffic.
        self._opened = {c: v for c, v in self._opened.items() if v[1] > now}
        self._opened[chat_id] = (token, now + self._ttl)

    def token_for(self, chat_id: int) -> str | None:
        """The token of the link ``chat_id`` opened and has not finished with, if any."""
        opened = self._opened.get(chat_id)
        if opened is None or opened[1] <= self._clock():
            return None
        return opened[0]

    def close(self, chat_id: int) -> None:
        """The hand-off in ``chat_id`` is over (code sent, or refused for good)."""
        self._opened.pop(chat_id, None)


# One memory per store, i.e. per bot process; a test's bot gets its own.
_INVITATIONS: WeakKeyDictionary[Store, HandoffInvitations] = WeakKeyDictionary()


def invitations(ctx: BotContext) -> HandoffInvitations:
    """The invitations of the bot that ``ctx`` belongs to."""
    return _INVITATIONS.setdefault(ctx.store, HandoffInvitations())


async def start_otp_handoff(ctx: BotContext, update: Update, token: str) -> None:
    """The receiver opened ``/start otp_<token>``: ask for their own contact (or say why not)."""
    message, user = update.effective_message, update.effective_user
    if message is None or user is None:
        return
    if message.chat.type != ChatType.PRIVATE:
        return await _say(ctx, message.chat_id, PRIVATE_ONLY)
    handoff = await ctx.store.otp.get_by_token(token) if _TOKEN.fullmatch(token) else None
    if handoff is None:
        return await _say(ctx, message.chat_id, UNKNOWN_LINK)
    if not handoff.pending:
        return await _say(ctx, message.chat_id, ALREADY_SENT)
    known = await ctx.store.contacts.phone_for(user.id)
    if known is not None and known == _receiver(ctx, handoff):
        # This user proved this very number before: no need to ask again.
        return await _hand_over(ctx, message.chat_id, [handoff])
    invitations(ctx).open(message.chat_id, token)
    ask = ASK_FOR_CONTACT.format(ref=wording.short_ref(handoff.delivery_id))
    await _say(ctx, message.chat_id, ask, share_keyboard(("contact",)))


async def contact_shared(ctx: BotContext, update: Update) -> bool:
    """A contact arrived. True when it was the hand-off's to answer, False for the conversation.

    The sender's own contact is recorded in ``store.contacts``; every code waiting for its
    number is sent to this chat. A chat in the middle of a hand-off is told plainly why a
    contact that is not their own, or not the receiver's number, gets no code. Outside a
    hand-off the contact stays the conversation's when an order is open in the chat, even if
    codes were sent for it.
    """
    message, user = update.effective_message, update.effective_user
    if message is None or message.contact is None or user is None:
        return False
    if message.chat.type != ChatType.PRIVATE:
        return False
    chat_id = message.chat_id
    own = is_own_contact(update)
    phone = normalise_phone(message.contact.phone_number, ctx.phone_region) if own else None
    if phone is not None:
        await ctx.store.contacts.record(user.id, phone, contact_user_id=message.contact.user_id)
    token = invitations(ctx).token_for(chat_id)
    invited = await ctx.store.otp.get_by_token(token) if token else None
    waiting = await ctx.store.otp.pending_for_phone(phone) if phone else []
    if (
        invited is not None
        and invited.pending
        and phone is not None
        and _receiver(ctx, invited) == phone
        and invited.delivery_id not in {handoff.delivery_id for handoff in waiting}
    ):
        waiting.append(invited)  # a receiver phone the relay could not normalise
    if waiting:
        invitations(ctx).close(chat_id)
        await _hand_over(ctx, chat_id, waiting)
        # Without a link opened, the contact may also answer the chat's open order (its phone
        # question): the receiver got the codes either way, so let the order have it too.
        return token is not None or not await _order_open(ctx, chat_id)
    if token is None:
        return False
    if not own:
        await _say(ctx, chat_id, NOT_OWN_CONTACT, share_keyboard(("contact",)))
    elif phone is None:
        await _say(ctx, chat_id, UNREADABLE_PHONE, share_keyboard(("contact",)))
    else:
        invitations(ctx).close(chat_id)
        gone = invited is None or not invited.pending
        await _say(ctx, chat_id, ALREADY_SENT if gone else WRONG_PHONE, ReplyKeyboardRemove())
    return True


async def _order_open(ctx: BotContext, chat_id: int) -> bool:
    session = await ctx.chats.session(chat_id)
    return session is not None and not session.finished


def _receiver(ctx: BotContext, handoff: OtpHandoff) -> str | None:
    return normalise_phone(handoff.receiver_phone, ctx.phone_region)


async def _hand_over(ctx: BotContext, chat_id: int, handoffs: Sequence[OtpHandoff]) -> None:
    """Send each waiting code to ``chat_id``, then erase it from the store."""
    for handoff in handoffs:
        code = handoff.code
        if code is None:
            continue
        text = wording.otp_for_receiver(handoff.delivery_id, code)
        result = await ctx.sender.send_message(
            chat_id, OutgoingMessage(escape(text), ReplyKeyboardRemove())
        )
        if not isinstance(result, Delivered):
            # Kept in the store: the receiver can share their contact again later.
            log.warning("drop-off code of %s not delivered to its receiver", handoff.delivery_id)
            return
        await ctx.store.otp.mark_delivered(handoff.delivery_id, code, chat_id)


async def _say(ctx: BotContext, chat_id: int, text: str, markup: Markup | None = None) -> None:
    await ctx.sender.send_message(chat_id, OutgoingMessage(escape(text), markup))


def otp_token(payload: str) -> str | None:
    """The token of a ``/start`` payload that is a hand-off link (``otp_<token>``), else None."""
    return payload.removeprefix(PAYLOAD_PREFIX) if payload.startswith(PAYLOAD_PREFIX) else None
