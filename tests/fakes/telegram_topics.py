"""Forum topics: createForumTopic, closeForumTopic, and messages written in a topic.

In a forum supergroup (``is_forum``) each topic is a thread whose id is the id of its first
message, the service message ``forum_topic_created``. A message in a topic carries
``message_thread_id`` and ``is_topic_message``; one that replies to nothing else is sent by
Telegram as a reply to that first message, which is how clients tell the thread. Closing a
topic posts ``forum_topic_closed`` in it; the bot (an administrator that may manage topics)
can still write there.
"""

from __future__ import annotations

from typing import Any

from .telegram_wire import Disconnected, JSONDict, UploadedFile, bad_request
from .telegram_world import ForumTopicState, World

# The colour Telegram gives a topic created without one (the first of its six).
DEFAULT_ICON_COLOR = 7322096
MAX_TOPIC_NAME = 128


def place_in_topic(world: World, message: JSONDict, thread_id: object) -> None:
    """Make ``message`` one of the topic ``thread_id`` of its chat, as Telegram writes it;
    Telegram's 400 when the chat has no such topic."""
    chat_id = message["chat"]["id"]
    if not isinstance(thread_id, int) or (chat_id, thread_id) not in world.topics:
        raise bad_request("message thread not found")
    message["message_thread_id"] = thread_id
    message["is_topic_message"] = True
    if "reply_to_message" not in message:
        first = world.message(chat_id, thread_id)
        if first is not None:
            message["reply_to_message"] = first


class TopicMethods:
    """createForumTopic and closeForumTopic over the fake's world."""

    def __init__(self, world: World) -> None:
        self._world = world

    async def create_forum_topic(
        self, p: JSONDict, f: dict[str, UploadedFile], d: Disconnected
    ) -> Any:
        chat = self._world.chat(p.get("chat_id"))
        if not chat.is_forum:
            raise bad_request("the chat is not a forum")
        name = p.get("name")
        if not isinstance(name, str) or not name.strip():
            raise bad_request("TOPIC_NAME_EMPTY")
        if len(name) > MAX_TOPIC_NAME:
            raise bad_request("TOPIC_NAME_INVALID")
        color = p.get("icon_color", DEFAULT_ICON_COLOR)
        topic: JSONDict = {"name": name, "icon_color": color}
        thread_id = self._world.next_message_id(chat.id)
        self._world.topics[(chat.id, thread_id)] = ForumTopicState(
            {"message_thread_id": thread_id, **topic}
        )
        self._world.store_message(
            {
                "message_id": thread_id,
                "from": self._world.bot.to_json(),
                "chat": chat.to_json(),
                "date": self._world.now(),
                "message_thread_id": thread_id,
                "forum_topic_created": topic,
                "is_topic_message": True,
            }
        )
        return self._world.topics[(chat.id, thread_id)].topic

    async def close_forum_topic(
        self, p: JSONDict, f: dict[str, UploadedFile], d: Disconnected
    ) -> Any:
        chat = self._world.chat(p.get("chat_id"))
        thread_id = p.get("message_thread_id")
        state = self._world.topics.get((chat.id, thread_id)) if isinstance(thread_id, int) else None
        if state is None:
            raise bad_request("TOPIC_ID_INVALID")
        if state.closed:
            raise bad_request("TOPIC_NOT_MODIFIED")
        state.closed = True
        closing: JSONDict = {
            "message_id": self._world.next_message_id(chat.id),
            "from": self._world.bot.to_json(),
            "chat": chat.to_json(),
            "date": self._world.now(),
            "forum_topic_closed": {},
        }
        place_in_topic(self._world, closing, thread_id)
        self._world.store_message(closing)
        return True

    def closed(self, chat_id: int, thread_id: int) -> bool | None:
        """Whether the topic is closed (None: no such topic)."""
        state = self._world.topics.get((chat_id, thread_id))
        return None if state is None else state.closed
