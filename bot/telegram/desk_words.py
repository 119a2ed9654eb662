"""The desk's words in a Telegram chat with no order open.

Once no order is open, "status", "cancel" or "where is my parcel?" (in any shipped language:
"statut", "annuler", "où est mon colis ?") are the customer desk's: the latest delivery, or how
to cancel one. While an order is open they are answers like any other text.
"""

from __future__ import annotations

from bot.telegram.bot_context import BotContext
from bot.telegram.refs import telegram_chat, telegram_user
from conversations.keywords import after_order
from conversations.texts.catalogue import Catalogue


async def desk_reply(
    ctx: BotContext, catalogue: Catalogue, chat_id: int, user_id: int, text: str
) -> str | None:
    """What the desk says to ``text`` (see the module docstring), from the update's
    ``catalogue``; None when it is not the desk's: anything else, or said while an order is
    open."""
    asked = after_order(catalogue, text)
    if asked is None:
        return None
    session = await ctx.chats.session(telegram_chat(chat_id))
    if session is not None and not session.finished:
        return None
    user = telegram_user(user_id)
    if asked == "cancel":
        return (await ctx.desk.cancel(catalogue, user, "", "")).text
    return (await ctx.desk.status(catalogue, user, "")).text
