"""What the fake Telegram knows: users, chats, the messages in them, files, callback queries.

Both sides write here: the Bot API methods (the bot sending and editing) and the update factory
(users writing and tapping), so message ids interleave per chat the way they do in Telegram and a
callback query can only be answered if a user really made it.
"""

from __future__ import annotations

import copy
import itertools
import secrets
import time
from dataclasses import dataclass, field
from typing import Literal

from bot.chat_ref import TELEGRAM, ChatRef, UserRef
from bot.clocks import Clock

from .telegram_wire import JSONDict, bad_request

ChatType = Literal["private", "group", "supergroup"]


@dataclass(frozen=True)
class TgUser:
    """A Telegram user (or the bot itself) as it appears in ``from`` fields."""

    id: int
    first_name: str
    last_name: str | None = None
    username: str | None = None
    language_code: str | None = "en"
    is_bot: bool = False

    def to_json(self) -> JSONDict:
        """The User object."""
        data: JSONDict = {"id": self.id, "is_bot": self.is_bot, "first_name": self.first_name}
        for key in ("last_name", "username", "language_code"):
            if getattr(self, key) is not None:
                data[key] = getattr(self, key)
        return data

    @property
    def chat(self) -> ChatRef:
        """The private chat with the bot as the bot's core names it (the user's id)."""
        return ChatRef(TELEGRAM, self.id)

    @property
    def user(self) -> UserRef:
        """This user as the bot's core names them."""
        return UserRef(TELEGRAM, self.id)

    @property
    def private_chat(self) -> TgChat:
        """The private chat between this user and the bot (its id is the user's id)."""
        return TgChat(
            self.id,
            "private",
            first_name=self.first_name,
            last_name=self.last_name,
            username=self.username,
        )


@dataclass(frozen=True)
class TgChat:
    """A chat; private chats share their id with the user, groups have negative ids."""

    id: int
    type: ChatType
    title: str | None = None
    first_name: str | None = None
    last_name: str | None = None
    username: str | None = None
    is_forum: bool = False  # a supergroup whose messages are organised in topics

    @classmethod
    def group(
        cls, chat_id: int, title: str, *, supergroup: bool = False, forum: bool = False
    ) -> TgChat:
        """A group chat, e.g. an operators' group; ``forum``: a supergroup with topics."""
        if chat_id >= 0:
            raise ValueError("group chat ids are negative in Telegram")
        kind: ChatType = "supergroup" if supergroup or forum else "group"
        return cls(chat_id, kind, title=title, is_forum=forum)

    def to_json(self) -> JSONDict:
        """The Chat object."""
        data: JSONDict = {"id": self.id, "type": self.type}
        for key in ("title", "first_name", "last_name", "username"):
            if getattr(self, key) is not None:
                data[key] = getattr(self, key)
        if self.is_forum:
            data["is_forum"] = True  # Telegram sends the field only when it is true
        return data

    @property
    def chat(self) -> ChatRef:
        """The chat as the bot's core names it."""
        return ChatRef(TELEGRAM, self.id)

    @classmethod
    def from_json(cls, data: JSONDict) -> TgChat:
        """Read a Chat object back (from an update written by hand)."""
        return cls(
            data["id"],
            data["type"],
            title=data.get("title"),
            first_name=data.get("first_name"),
            last_name=data.get("last_name"),
            username=data.get("username"),
            is_forum=bool(data.get("is_forum", False)),
        )


@dataclass(frozen=True)
class StoredFile:
    """A file the fake can serve through getFile and the file download route."""

    file_id: str
    file_unique_id: str
    file_path: str
    data: bytes = field(repr=False)

    def to_json(self) -> JSONDict:
        """The File object getFile answers with."""
        return {
            "file_id": self.file_id,
            "file_unique_id": self.file_unique_id,
            "file_size": len(self.data),
            "file_path": self.file_path,
        }


@dataclass
class ForumTopicState:
    """A forum topic: its ForumTopic object and whether it was closed."""

    topic: JSONDict
    closed: bool = False


LIVE_FOREVER = 0x7FFFFFFF
"""The ``live_period`` of a live location that can be edited indefinitely."""
# Telegram shows these fields of a message's Location only while it is live.
_LIVE_ONLY_FIELDS = ("live_period", "heading", "proximity_alert_radius")


def without_live_fields(message: JSONDict) -> JSONDict:
    """The message with its location as Telegram shows it once no longer live."""
    location = {k: v for k, v in message["location"].items() if k not in _LIVE_ONLY_FIELDS}
    return {**message, "location": location}


@dataclass
class LiveLocationState:
    """A live location the bot sent: how long it may be edited, whether it was stopped, and
    every place it pointed to (the sent one first, then each edit)."""

    sent_at: int
    live_period: int
    positions: list[tuple[float, float]]
    stopped: bool = False

    def live(self, now: int) -> bool:
        """True while the location can still be edited: not stopped, its period not over (a
        ``live_period`` of 0x7FFFFFFF never ends)."""
        if self.stopped:
            return False
        return self.live_period == LIVE_FOREVER or now - self.sent_at < self.live_period


@dataclass
class World:
    """Mutable state of the fake, owned by one FakeTelegram."""

    bot: TgUser
    clock: Clock = time.time
    chats: dict[int, TgChat] = field(default_factory=dict)
    blocked_chats: set[int] = field(default_factory=set)
    callback_answers: dict[str, JSONDict | None] = field(default_factory=dict)
    # Forum topics by (chat id, message_thread_id): the ForumTopic object and whether closed.
    topics: dict[tuple[int, int], ForumTopicState] = field(default_factory=dict)
    # Live locations by (chat id, message id), for as long as their message exists.
    live_locations: dict[tuple[int, int], LiveLocationState] = field(default_factory=dict)
    _messages: dict[tuple[int, int], JSONDict] = field(default_factory=dict)
    _last_message_id: dict[int, int] = field(default_factory=dict)
    _files_by_id: dict[str, StoredFile] = field(default_factory=dict)
    _files_by_path: dict[str, StoredFile] = field(default_factory=dict)
    _file_numbers: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    def now(self) -> int:
        """Unix time as Telegram stamps messages."""
        return int(self.clock())

    def add_chat(self, chat: TgChat) -> None:
        """Make a chat known; Telegram only lets a bot write to chats that wrote to it."""
        self.chats[chat.id] = chat

    def chat(self, chat_id: int | str | None) -> TgChat:
        """The chat a call targets, or Telegram's 400 for a missing or unknown chat."""
        if chat_id is None or chat_id == "":
            raise bad_request("chat_id is empty")
        if isinstance(chat_id, str) and chat_id.startswith("@"):
            for chat in self.chats.values():
                if chat.username and f"@{chat.username}" == chat_id:
                    return chat
        elif isinstance(chat_id, int) and chat_id in self.chats:
            return self.chats[chat_id]
        raise bad_request("chat not found")

    def next_message_id(self, chat_id: int) -> int:
        """Allocate the next message id of a chat (shared by the bot and the users)."""
        self._last_message_id[chat_id] = self._last_message_id.get(chat_id, 0) + 1
        return self._last_message_id[chat_id]

    def store_message(self, message: JSONDict) -> None:
        """Remember a message as it now stands (after sending or editing)."""
        chat_id, message_id = message["chat"]["id"], message["message_id"]
        self._last_message_id[chat_id] = max(self._last_message_id.get(chat_id, 0), message_id)
        self._messages[(chat_id, message_id)] = copy.deepcopy(message)

    def message(self, chat_id: int, message_id: int) -> JSONDict | None:
        """The current state of a message, or None if it does not exist (any more); a live
        location whose period is over reads as Telegram then shows it."""
        message = self._messages.get((chat_id, message_id))
        if message is None:
            return None
        live = self.live_locations.get((chat_id, message_id))
        if live is not None and not live.live(self.now()):
            return without_live_fields(copy.deepcopy(message))
        return copy.deepcopy(message)

    def delete_message(self, chat_id: int, message_id: int) -> None:
        """Forget a deleted message."""
        del self._messages[(chat_id, message_id)]
        self.live_locations.pop((chat_id, message_id), None)

    def register_file(
        self, data: bytes, *, folder: str = "documents", suffix: str = ""
    ) -> StoredFile:
        """Store bytes under a fresh file_id and file_path."""
        number = next(self._file_numbers)
        stored = StoredFile(
            file_id=f"AgAC{secrets.token_urlsafe(24)}",
            file_unique_id=f"AQAD{secrets.token_urlsafe(8)}",
            file_path=f"{folder}/file_{number}{suffix}",
            data=data,
        )
        self._files_by_id[stored.file_id] = stored
        self._files_by_path[stored.file_path] = stored
        return stored

    def file(self, file_id: str) -> StoredFile | None:
        """A stored file by its file_id."""
        return self._files_by_id.get(file_id)

    def file_at(self, file_path: str) -> StoredFile | None:
        """A stored file by its file_path (the download route)."""
        return self._files_by_path.get(file_path)

    def issue_callback_query_id(self) -> str:
        """A fresh callback query id that the bot may answer once."""
        query_id = str(secrets.randbits(63))
        self.callback_answers[query_id] = None
        return query_id
