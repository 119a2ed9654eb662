"""What a customer's message means to the conversation: a Telegram ``Update`` -> ``Answer``.

Typed text, a shared contact, a location or venue, and the navigation commands (/back,
/cancel, /help, /skip, /done) become answers. None of them carries a step or version: what a
customer types answers whatever is asked now (buttons carry both; see ``callbacks``). A
picture becomes an ``IncomingPhoto`` for ``photo_receiver`` to fetch and re-host; only its https URL
may reach the engine, as a ``PhotosAnswer``.

Everything else gives None: edits, stickers and voice notes, callback queries (``callbacks``
reads those), and commands that are not navigation (/start, /status ... have their own
handlers), including commands addressed to another bot in a group.
"""

from __future__ import annotations

from typing import Final

from telegram import Message, MessageEntity, Update

from bot.telegram.photo_receiver import IncomingPhoto
from conversations import (
    Answer,
    CommandAnswer,
    CommandName,
    ContactAnswer,
    LocationAnswer,
    TextAnswer,
)
from conversations.keywords import keyword_named
from conversations.texts.catalogue import Catalogue

NAVIGATION: Final[dict[str, CommandName]] = {
    "back": "back",
    "cancel": "cancel",
    "help": "help",
    "skip": "skip",
    "done": "done",
}


def answer_from_update(
    catalogue: Catalogue, update: Update, *, bot_username: str | None = None
) -> Answer | IncomingPhoto | None:
    """The answer ``update`` gives to the open question, a picture to fetch, or None; a
    command is read in ``catalogue``'s words (the update's: ``/retour`` as ``/back``).

    ``bot_username`` (without "@") lets a group's ``/done@otherbot`` be told apart; when None,
    any addressed command is taken.
    """
    message = update.message
    if message is None:
        return None
    if message.text is not None:
        command = command_in(message)
        if command is None:
            return TextAnswer(text=message.text)
        name, addressee = command
        if not _addressed_to(addressee, bot_username):
            return None
        navigation = NAVIGATION.get(keyword_named(catalogue, name) or "")  # /retour as /back
        return CommandAnswer(name=navigation) if navigation else None
    if message.contact is not None:
        contact = message.contact
        return ContactAnswer(
            phone=contact.phone_number,
            first_name=contact.first_name,
            last_name=contact.last_name or "",
            user_id=contact.user_id,
        )
    if message.venue is not None:  # checked before location: a venue message carries both
        venue = message.venue
        return LocationAnswer(
            lat=venue.location.latitude,
            lng=venue.location.longitude,
            address=venue_address(venue.title, venue.address),
        )
    if message.location is not None:
        return LocationAnswer(lat=message.location.latitude, lng=message.location.longitude)
    return IncomingPhoto.from_message(message)


def command_in(message: Message) -> tuple[str, str | None] | None:
    """``(command, addressee)`` when ``message`` starts with a bot command, else None.

    Telegram marks commands with a ``bot_command`` entity; text that merely starts with "/"
    without one (the customer typed "/ 12 Main St") stays text.

    ``/Done@SomeBot now`` gives ``("done", "SomeBot")``; ``/back`` gives ``("back", None)``.
    """
    for entity in message.entities:
        if entity.type == MessageEntity.BOT_COMMAND and entity.offset == 0:
            head = message.parse_entity(entity).removeprefix("/")
            name, _, addressee = head.partition("@")
            return name.casefold(), addressee or None
    return None


def is_own_contact(update: Update) -> bool:
    """True when the message shares the sender's own contact (its user id is the sender's).

    This is what lets the phone on it count as proved, e.g. for sending a receiver their OTP.
    """
    message = update.message
    if message is None or message.contact is None or message.from_user is None:
        return False
    return message.contact.user_id == message.from_user.id


def _addressed_to(addressee: str | None, bot_username: str | None) -> bool:
    if addressee is None or bot_username is None:
        return True
    return addressee.casefold() == bot_username.casefold()


def venue_address(title: str, address: str) -> str:
    """A venue as one address line: its name first when the address does not already say it."""
    title, address = " ".join(title.split()), " ".join(address.split())
    if not title or title.casefold() in address.casefold():
        return address
    return f"{title}, {address}" if address else title
