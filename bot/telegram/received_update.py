"""An update as the webhook door takes it: its id, chat and kind read off the JSON, and the JSON
kept for PTB to parse when the update is handled.

::

    door:     json.loads ─> received_update(data, bot) ─> inbox.add(id, chat, body) ─> queue
    handling: ChatOrderedProcessor, under the chat's lock ─> handle_received(application, ...)
                  Update.de_json ─> application.process_update (or one warning, and done)

PTB's parse (``Update.de_json``) is most of the CPU time an update costs at the door, and the
door only needs what the inbox stores: the update's id and its chat. Both are read here off
the dict, after the door's checks (``update_check.update_flaw``); the chat is the one PTB's
``Update.effective_chat`` would give (``chat_id_of``, following it kind by kind). An update
whose chat cannot be read that surely (a kind's object that is not a JSON object, a chat id
that is not a 64-bit integer: never from Telegram) is parsed by PTB at the door, as before.

An update PTB cannot parse when it is handled is dropped with one warning, and recorded as
handled (``store.updates``), so the inbox's sweep never hands it round again.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from telegram import Bot, Update
from telegram.ext import Application

from bot.store import SeenUpdates
from bot.telegram.telegram_errors import TelegramAdapterError
from bot.telegram.update_check import INT64_MAX, INT64_MIN, Flaw, parsed_update, update_flaw

log = logging.getLogger(__name__)

# Where PTB's ``effective_chat`` looks, in its order: first the kinds whose object carries the
# chat itself (a message in all its forms), then a tap's message, then the rest.
MESSAGE_KINDS: Final = (
    "message",
    "edited_message",
    "channel_post",
    "edited_channel_post",
    "business_message",
    "edited_business_message",
    "deleted_business_messages",
    "guest_message",
)
TAP_KIND: Final = "callback_query"
OTHER_CHAT_KINDS: Final = (
    "my_chat_member",
    "chat_member",
    "chat_join_request",
    "chat_boost",
    "removed_chat_boost",
    "message_reaction",
    "message_reaction_count",
)


@dataclass(frozen=True)
class ReceivedUpdate:
    """A pushed update, not parsed yet: what PTB's queue carries in webhook mode.

    ``chat_id`` is the chat PTB's ``effective_chat`` names (None: no chat); ``kind`` the
    metrics label (``bot.metrics.update_kinds``). The JSON is left out of the repr: PTB logs
    the queued object (``Processing update ...``), and the JSON is a customer's message.
    """

    update_id: int
    chat_id: int | None
    kind: str
    data: dict[str, Any] = field(repr=False, compare=False)


class UnmappedChat(TelegramAdapterError):
    """The update's chat cannot be read off its JSON as surely as PTB would read it."""


def chat_id_of(data: Mapping[str, object]) -> int | None:
    """The id of the chat PTB's ``Update.effective_chat`` gives for the update JSON ``data``
    (None when it gives none); ``UnmappedChat`` when the JSON is not shaped as Telegram
    sends it there."""
    for kind in MESSAGE_KINDS:
        if data.get(kind) is not None:
            return _chat_in(data[kind])
    tap = data.get(TAP_KIND)
    if tap is not None:
        message = _json_object(tap).get("message")
        if message is not None:  # a tap on an inline message has none: the kinds below
            return _chat_in(message)
    for kind in OTHER_CHAT_KINDS:
        if data.get(kind) is not None:
            return _chat_in(data[kind])
    return None


def _json_object(value: object) -> Mapping[str, object]:
    if not isinstance(value, dict):
        raise UnmappedChat
    return value


def _chat_in(carrier: object) -> int | None:
    chat = _json_object(carrier).get("chat")
    if chat is None:
        return None  # PTB reads the missing chat as None
    chat_id = _json_object(chat).get("id")
    if type(chat_id) is not int or not INT64_MIN <= chat_id <= INT64_MAX:
        raise UnmappedChat
    return chat_id


def kind_of_data(data: Mapping[str, object]) -> str:
    """The metrics label ``bot.metrics.update_kinds.kind_of`` gives the parsed update, read off
    its JSON: callback, command, text, photo, contact, location, or other."""
    if data.get(TAP_KIND) is not None:
        return "callback"
    message = data.get("message")
    if not isinstance(message, dict):
        return "other"
    text = message.get("text")
    if text:
        return "command" if isinstance(text, str) and text.startswith("/") else "text"
    return next((kind for kind in ("photo", "contact", "location") if message.get(kind)), "other")


def received_update(data: object, bot: Bot | None) -> ReceivedUpdate | Update | Flaw:
    """What the door queues for the update JSON ``data``: the flaw that keeps it out
    (``update_flaw``), or the update with its chat read off the JSON, or, for the rare one
    whose chat cannot be read that way, PTB's Update (or the flaw PTB's parse found)."""
    flaw = update_flaw(data)
    if flaw is not None:
        return flaw
    assert isinstance(data, dict)  # update_flaw checked it
    try:
        chat_id = chat_id_of(data)
    except UnmappedChat:
        return parsed_update(data, bot)
    return ReceivedUpdate(data["update_id"], chat_id, kind_of_data(data), data)


def chat_of(update: object) -> int | None:
    """The chat an update belongs to (for a tap, the chat of the tapped message), or None;
    ``update`` is PTB's Update or a ``ReceivedUpdate``."""
    if isinstance(update, ReceivedUpdate):
        return update.chat_id
    if isinstance(update, Update) and update.effective_chat is not None:
        return update.effective_chat.id
    return None


def language_of(update: object) -> str | None:
    """The language of the user who sent ``update`` (their app's ``language_code``), if given."""
    if isinstance(update, Update) and update.effective_user is not None:
        return update.effective_user.language_code
    return None


def readable(update: object) -> object:
    """``update`` as PTB's Update when it is a ``ReceivedUpdate`` PTB can parse, else as it
    is: for the error handler, which PTB calls with the queued object when processing it
    failed before its handlers ran."""
    if not isinstance(update, ReceivedUpdate):
        return update
    parsed = parsed_update(update.data, None)
    return update if isinstance(parsed, Flaw) else parsed


async def handle_received(
    application: Application[Any, Any, Any, Any, Any, Any],
    update: ReceivedUpdate,
    seen: SeenUpdates | None,
) -> None:
    """Parse ``update`` and have ``application`` handle it (each handler says its words in
    the language of the update's sender: ``language_of``).

    One PTB cannot parse is dropped with one warning (its id and PTB's error, never the body)
    and, with ``seen``, recorded as handled: the inbox's sweep would hand it round again."""
    parsed = parsed_update(update.data, application.bot)
    if isinstance(parsed, Flaw):
        log.warning("update dropped: %s", parsed)
        if seen is not None:
            await seen.seen(update.update_id)
        return
    await application.process_update(parsed)
