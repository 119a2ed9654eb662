"""One user per private chat: an update in a private chat must come from the chat's own user.

::

    foreign = foreign_sender(update)
    if foreign is not None:  # logged by the gatekeeper: "user 1003 in user 1001's chat"
        refuse(foreign)

Telegram names a private chat by its user: the chat's id is the user's id, and only that user
writes or taps in it. An update that says otherwise (user B's tap on A's summary, a message
"from" B in A's chat) was forged by someone holding the webhook secret or the bot token. It is
refused before any handler runs (``application.gatekeeper``): had it reached the conversation,
the turn would act in A's chat for B, and a confirmed order would be linked to B, who could
then read A's addresses and fee, and B's memory would be filled with A's places.

Groups are not checked here: many users write in one, and the bot answers only its operator
commands there (each checks that the group is an operators' chat).
"""

from __future__ import annotations

from dataclasses import dataclass

from telegram import Chat, Update


@dataclass(frozen=True)
class ForeignSender:
    """An update sent in ``chat_id``'s private chat by ``user_id``, who is someone else."""

    update_id: int
    chat_id: int
    user_id: int


def foreign_sender(update: Update) -> ForeignSender | None:
    """The mismatch when ``update`` is a message or tap in a private chat from a user who is
    not that chat's user; None for any other update (a group's, a channel's, or a sound one)."""
    user = update.effective_user
    chat = _chat_of(update)
    if user is None or chat is None or chat.type != Chat.PRIVATE or chat.id == user.id:
        return None
    return ForeignSender(update.update_id, chat.id, user.id)


def _chat_of(update: Update) -> Chat | None:
    # A tap's chat is its message's: PTB's ``effective_chat`` says so too, but an inaccessible
    # message (an old one) still names its chat, and that chat is what a handler would act in.
    query = update.callback_query
    if query is not None:
        return query.message.chat if query.message is not None else None
    return update.effective_chat
