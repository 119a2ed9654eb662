"""The receiver's side of a drop-off code hand-off, in Telegram.

The relay gives the customer ``https://t.me/<bot>?start=otp_<token>`` to forward; whoever opens
it (``start_otp_handoff``) is asked to share their *own* contact with the reply keyboard's
contact button, and a contact that arrives (``contact_shared``) may answer it. What happens is
decided by ``ctx.desk`` (``bot.ordering.receiver_handoff`` tells the whole story); this module
only draws its replies and hands each code over, telling the desk once Telegram took it, so a
code that did not go out stays claimable.

Codes are handed over in private chats only: in a group, everyone would read them. A contact is
the sender's own (Telegram vouches for the number only then) when its ``user_id`` is the
sender's.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from telegram import ReplyKeyboardRemove, Update
from telegram.constants import ChatType

from bot.ordering.desk_replies import HandoffCode, HandoffReply
from bot.ordering.receiver_handoff import handoff_token
from bot.telegram.bot_context import BotContext
from bot.telegram.message_sender import Delivered
from bot.telegram.refs import telegram_chat, telegram_user
from bot.telegram.text import escape
from bot.telegram.turn_messages import Markup, OutgoingMessage, share_keyboard
from conversations.texts import handoff_texts
from conversations.texts.catalogue import Catalogue

log = logging.getLogger(__name__)


async def start_otp_handoff(ctx: BotContext, update: Update, token: str) -> None:
    """The receiver opened ``/start otp_<token>``: ask for their own contact (or say why not)."""
    message, user = update.effective_message, update.effective_user
    if message is None or user is None:
        return
    catalogue = ctx.catalogue_for(user.language_code)
    if message.chat.type != ChatType.PRIVATE:
        return await _say(
            ctx, message.chat_id, handoff_texts.HANDOFF_PRIVATE_ONLY.render(catalogue)
        )
    reply = await ctx.desk.open_handoff(
        catalogue, telegram_chat(message.chat_id), telegram_user(user.id), token
    )
    await _draw(ctx, catalogue, message.chat_id, reply)


async def contact_shared(ctx: BotContext, update: Update) -> bool:
    """A contact arrived. True when it was the hand-off's alone to answer, False when the order
    conversation should have it (also after codes were handed over for it)."""
    message, user = update.effective_message, update.effective_user
    if message is None or message.contact is None or user is None:
        return False
    if message.chat.type != ChatType.PRIVATE:
        return False
    contact = message.contact
    owner = None if contact.user_id is None else telegram_user(contact.user_id)
    catalogue = ctx.catalogue_for(user.language_code)
    reply = await ctx.desk.share_contact(
        catalogue,
        telegram_chat(message.chat_id),
        telegram_user(user.id),
        contact.phone_number,
        contact_user=owner,
    )
    await _draw(ctx, catalogue, message.chat_id, reply)
    return reply.answered


def otp_token(payload: str) -> str | None:
    """The token of a ``/start`` payload that is a hand-off link (``otp_<token>``), else None."""
    return handoff_token(payload)


async def _draw(ctx: BotContext, catalogue: Catalogue, chat_id: int, reply: HandoffReply) -> None:
    await _hand_over(ctx, chat_id, reply.codes)
    if reply.text is None:
        return
    # The contact button while a contact is wanted; once the hand-off is over, take it away.
    markup: Markup | None = None
    if reply.wants_contact:
        markup = share_keyboard(catalogue, ("contact",))
    elif reply.ended:
        markup = ReplyKeyboardRemove()
    await _say(ctx, chat_id, reply.text, markup)


async def _hand_over(ctx: BotContext, chat_id: int, codes: Sequence[HandoffCode]) -> None:
    """Send each code to ``chat_id``; the desk erases each one Telegram took."""
    for code in codes:
        result = await ctx.sender.send_message(
            chat_id, OutgoingMessage(escape(code.text), ReplyKeyboardRemove())
        )
        if not isinstance(result, Delivered):
            # Kept in the store: the receiver can share their contact again later.
            log.warning("drop-off code of %s not delivered to its receiver", code.delivery_id)
            return
        await ctx.desk.code_handed_over(telegram_chat(chat_id), code)


async def _say(ctx: BotContext, chat_id: int, text: str, markup: Markup | None = None) -> None:
    await ctx.sender.send_message(chat_id, OutgoingMessage(escape(text), markup))
