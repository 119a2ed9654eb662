"""Realistic Update JSON, as Telegram would send it when a user writes, taps or shares.

The factory shares the fake's world: incoming messages take the chat's next message id, photos
become downloadable files, and a callback query carries the tapped message as it stands now
(after the bot's edits) with a query id the bot can answer once.
"""

from __future__ import annotations

import itertools
import json
import secrets
from collections.abc import Mapping, Sequence
from typing import Any, Literal

import httpx
from starlette.types import ASGIApp

from .telegram_delivery import SECRET_TOKEN_HEADER
from .telegram_keyboards import find_button
from .telegram_records import SentMessage
from .telegram_topics import place_in_topic
from .telegram_wire import JSONDict
from .telegram_world import TgChat, TgUser, World

# Telegram's usual photo widths, smallest thumbnail first.
_PHOTO_WIDTHS = (90, 320, 800, 1280, 2560)


class UpdateFactory:
    """Builds Update objects; push them with ``FakeTelegram.push_update``."""

    def __init__(self, world: World, *, first_update_id: int = 700_000_001) -> None:
        self._world = world
        self._update_ids = itertools.count(first_update_id)
        self._chat_instances: dict[int, str] = {}
        # Who has written, as they wrote: a tap in their private chat comes from the same user
        # (with their client's language_code), as Telegram sends it.
        self._senders: dict[int, TgUser] = {}

    def text(self, user: TgUser, text: str, *, chat: TgChat | None = None) -> JSONDict:
        """A plain text message."""
        return self._message(user, chat, text=text)

    def command(
        self,
        user: TgUser,
        command: str,
        payload: str | None = None,
        *,
        chat: TgChat | None = None,
        mention_bot: bool = False,
    ) -> JSONDict:
        """``/command [payload]`` with its bot_command entity (``/start <deep-link payload>``).

        ``mention_bot`` writes ``/command@botname``, as clients do in groups.
        """
        head = "/" + command.removeprefix("/")
        if mention_bot:
            head += f"@{self._world.bot.username}"
        text = head if payload is None else f"{head} {payload}"
        entity = {"type": "bot_command", "offset": 0, "length": len(head.encode("utf-16-le")) // 2}
        return self._message(user, chat, text=text, entities=[entity])

    def callback_query(
        self, user: TgUser, message: SentMessage | Mapping[str, Any], data: str
    ) -> JSONDict:
        """A tap on an inline button with ``data`` under ``message`` (as it stands now)."""
        current = self._current(message)
        query = {
            "id": self._world.issue_callback_query_id(),
            "from": user.to_json(),
            "message": current,
            "chat_instance": self._chat_instance(current["chat"]["id"]),
            "data": data,
        }
        return {"update_id": next(self._update_ids), "callback_query": query}

    def tap(
        self,
        message: SentMessage | Mapping[str, Any],
        button_text: str,
        *,
        user: TgUser | None = None,
    ) -> JSONDict:
        """A tap on the button labelled ``button_text`` of the message's current keyboard: a
        callback query for an inline button; for a plain reply-keyboard button, the text message
        with its label that Telegram sends.

        In a private chat the user defaults to the chat's owner. LookupError if the message is
        gone or has no such button (the keyboard may have been edited away), or the button
        requests a contact or location (send those with ``contact`` / ``location``).
        """
        current = self._current(message)
        # Telegram echoes inline keyboards only: a reply keyboard is read from the send.
        sent = message.reply_markup if isinstance(message, SentMessage) else None
        markup = current.get("reply_markup") or (sent if sent and "keyboard" in sent else {})
        button = find_button(markup, button_text)
        if user is None:
            chat = current["chat"]
            if chat["type"] != "private":
                raise ValueError("say which user taps in a group chat")
            user = self._senders.get(chat["id"]) or TgUser(
                chat["id"], chat.get("first_name", ""), username=chat.get("username")
            )
        if "keyboard" in markup and not any(key.startswith("request_") for key in button):
            return self.text(user, button_text)
        if "callback_data" not in button:
            raise LookupError(f"button {button_text!r} is not a callback button")
        return self.callback_query(user, current, button["callback_data"])

    def contact(
        self,
        user: TgUser,
        phone_number: str,
        *,
        first_name: str | None = None,
        last_name: str | None = None,
        user_id: int | Literal["sender"] | None = "sender",
        chat: TgChat | None = None,
    ) -> JSONDict:
        """A shared contact. By default the sender's own (``user_id`` = the sender's id, as a
        ``request_contact`` button sends it); pass another id, or None for a contact that is
        not a Telegram user. Telegram sends the number as the client gives it (often no "+").
        """
        own = user_id == "sender"
        contact: JSONDict = {
            "phone_number": phone_number,
            "first_name": first_name or (user.first_name if own else "Contact"),
        }
        surname = last_name or (user.last_name if own else None)
        if surname:
            contact["last_name"] = surname
        if own:
            contact["user_id"] = user.id
        elif user_id is not None:
            contact["user_id"] = user_id
        return self._message(user, chat, contact=contact)

    def location(
        self,
        user: TgUser,
        latitude: float,
        longitude: float,
        *,
        horizontal_accuracy: float | None = None,
        chat: TgChat | None = None,
    ) -> JSONDict:
        """A shared location (what a ``request_location`` button sends)."""
        location: JSONDict = {"latitude": latitude, "longitude": longitude}
        if horizontal_accuracy is not None:
            location["horizontal_accuracy"] = horizontal_accuracy
        return self._message(user, chat, location=location)

    def web_app_data(
        self, user: TgUser, data: str, *, button_text: str = "Pick on the map"
    ) -> JSONDict:
        """What a reply-keyboard ``web_app`` button's Mini App sends back (``sendData``)."""
        return self._message(user, None, web_app_data={"data": data, "button_text": button_text})

    def photo(
        self,
        user: TgUser,
        images: bytes | Sequence[bytes],
        *,
        caption: str | None = None,
        media_group_id: str | None = None,
        chat: TgChat | None = None,
    ) -> JSONDict:
        """A photo: one PhotoSize per image, smallest first, each downloadable via getFile.

        Pass the sizes' bytes smallest first; one bytes value gives a single 1280px size.
        Photos of one album share a ``media_group_id`` and arrive as separate updates.
        """
        sizes = [images] if isinstance(images, bytes) else list(images)
        if not 1 <= len(sizes) <= len(_PHOTO_WIDTHS):
            raise ValueError(f"a photo has 1 to {len(_PHOTO_WIDTHS)} sizes")
        widths = _PHOTO_WIDTHS if len(sizes) == 5 else _PHOTO_WIDTHS[4 - len(sizes) : 4]
        photo = []
        for width, data in zip(widths, sizes, strict=True):
            stored = self._world.register_file(data, folder="photos", suffix=".jpg")
            photo.append(
                {
                    "file_id": stored.file_id,
                    "file_unique_id": stored.file_unique_id,
                    "file_size": len(data),
                    "width": width,
                    "height": width * 3 // 4,
                }
            )
        content: JSONDict = {"photo": photo}
        if caption is not None:
            content["caption"] = caption
        if media_group_id is not None:
            content["media_group_id"] = media_group_id
        return self._message(user, chat, **content)

    def in_topic(self, update: JSONDict, thread_id: int) -> JSONDict:
        """``update``'s message, written in the forum topic ``thread_id`` of its chat: with
        the thread's id and ``is_topic_message``, and (unless it replies to another message)
        as a reply to the topic's first message, the way Telegram sends it."""
        message = update["message"]
        place_in_topic(self._world, message, thread_id)
        self._world.store_message(message)
        return update

    def _message(self, user: TgUser, chat: TgChat | None, **content: Any) -> JSONDict:
        self._senders[user.id] = user
        chat = chat or user.private_chat
        message = {
            "message_id": self._world.next_message_id(chat.id),
            "from": user.to_json(),
            "chat": chat.to_json(),
            "date": self._world.now(),
            **content,
        }
        # The user has written: the chat and message exist for the bot to answer, however the
        # update then travels (push_update or post_update).
        if chat.id not in self._world.chats:
            self._world.add_chat(chat)
        self._world.store_message(message)
        return {"update_id": next(self._update_ids), "message": message}

    def _current(self, message: SentMessage | Mapping[str, Any]) -> JSONDict:
        echo = message.message if isinstance(message, SentMessage) else message
        current = self._world.message(echo["chat"]["id"], echo["message_id"])
        if current is None:
            raise LookupError(f"message {echo['message_id']} is not in the chat (deleted?)")
        return current

    def _chat_instance(self, chat_id: int) -> str:
        return self._chat_instances.setdefault(chat_id, str(secrets.randbits(63)))


async def post_update(
    url: str,
    update: Mapping[str, Any],
    *,
    secret_token: str | None = None,
    app: ASGIApp | None = None,
) -> httpx.Response:
    """POST an update to a bot's webhook the way Telegram does, and return the response.

    With ``app`` the request goes to that ASGI app in-process (``url`` then only supplies the
    path); otherwise over real HTTP to ``url``. Use it for forged or repeated deliveries; the
    fake's own webhook pushes happen by themselves once the bot calls setWebhook.
    """
    headers = {"Content-Type": "application/json"}
    if secret_token is not None:
        headers[SECRET_TOKEN_HEADER] = secret_token
    transport = httpx.ASGITransport(app=app) if app is not None else None
    async with httpx.AsyncClient(transport=transport) as client:
        return await client.post(url, content=json.dumps(update), headers=headers)
