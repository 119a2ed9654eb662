"""The Bot API methods the fake implements, with Telegram's checks and error descriptions.

Each method takes the typed parameters of one call and returns its ``result`` or raises
``BotApiError``. Method names are matched case-insensitively, as Telegram does.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import urlsplit

from .telegram_delivery import UpdateQueue, Webhook
from .telegram_locations import LocationMethods
from .telegram_messages import MessageMethods
from .telegram_topics import TopicMethods
from .telegram_wire import BotApiError, Disconnected, JSONDict, UploadedFile, bad_request
from .telegram_world import World

Method = Callable[[JSONDict, dict[str, UploadedFile], Disconnected], Awaitable[Any]]

MAX_DOWNLOAD_BYTES = 20 * 1024 * 1024
_COMMAND = re.compile(r"[a-z0-9_]{1,32}")
_SECRET_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,256}")
_LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
_WEBHOOK_PORTS = frozenset({80, 88, 443, 8443})
# Methods that act in a chat, and so fail with 403 once the user has blocked the bot.
_CHAT_BOUND = frozenset(
    {
        "sendMessage",
        "sendPhoto",
        "sendDocument",
        "sendLocation",
        "sendChatAction",
        "editMessageText",
        "editMessageReplyMarkup",
        "editMessageLiveLocation",
        "stopMessageLiveLocation",
        "deleteMessage",
        "createForumTopic",
        "closeForumTopic",
    }
)


class BotApi:
    """Method table over the fake's world and update queue."""

    def __init__(self, world: World, queue: UpdateQueue, *, any_webhook_host: bool) -> None:
        self._world = world
        self._queue = queue
        self._any_webhook_host = any_webhook_host
        self._commands: dict[tuple[str, str], list[JSONDict]] = {}
        messages = MessageMethods(world)
        locations = LocationMethods(world, messages)
        self.topics = TopicMethods(world)
        methods: dict[str, Method] = {
            "getMe": self.get_me,
            "getChat": self.get_chat,
            "setMyCommands": self.set_my_commands,
            "getMyCommands": self.get_my_commands,
            "deleteMyCommands": self.delete_my_commands,
            "getUpdates": self.get_updates,
            "setWebhook": self.set_webhook,
            "deleteWebhook": self.delete_webhook,
            "getWebhookInfo": self.get_webhook_info,
            "sendMessage": messages.send_message,
            "sendPhoto": messages.send_photo,
            "sendDocument": messages.send_document,
            "sendLocation": locations.send_location,
            "sendChatAction": messages.send_chat_action,
            "editMessageText": messages.edit_message_text,
            "editMessageReplyMarkup": messages.edit_message_reply_markup,
            "editMessageLiveLocation": locations.edit_message_live_location,
            "stopMessageLiveLocation": locations.stop_message_live_location,
            "deleteMessage": messages.delete_message,
            "answerCallbackQuery": messages.answer_callback_query,
            "createForumTopic": self.topics.create_forum_topic,
            "closeForumTopic": self.topics.close_forum_topic,
            "getFile": self.get_file,
        }
        self._methods = {name.lower(): (name, method) for name, method in methods.items()}

    def canonical(self, name: str) -> str | None:
        """The Bot API spelling of a method name, or None if the fake does not serve it."""
        entry = self._methods.get(name.lower())
        return entry[0] if entry else None

    async def call(
        self,
        name: str,
        params: JSONDict,
        files: dict[str, UploadedFile],
        disconnected: Disconnected,
    ) -> Any:
        """Run a method by its canonical name."""
        if name in _CHAT_BOUND:
            chat = self._world.chat(params.get("chat_id"))
            if chat.id in self._world.blocked_chats:
                raise BotApiError(
                    403,
                    "Forbidden: bot was blocked by the user"
                    if chat.type == "private"
                    else "Forbidden: bot was kicked from the group chat",
                )
        return await self._methods[name.lower()][1](params, files, disconnected)

    def commands(self, scope: JSONDict | None = None, language_code: str = "") -> list[JSONDict]:
        """Commands stored by setMyCommands for a scope and language."""
        return list(self._commands.get(_commands_key(scope, language_code), []))

    # --- bot and chats ---

    async def get_me(self, p: JSONDict, f: dict[str, UploadedFile], d: Disconnected) -> Any:
        return {
            **self._world.bot.to_json(),
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            "supports_inline_queries": False,
            "can_connect_to_business": False,
            "has_main_web_app": False,
        }

    async def get_chat(self, p: JSONDict, f: dict[str, UploadedFile], d: Disconnected) -> Any:
        gifts = ("unlimited_gifts", "limited_gifts", "unique_gifts", "premium_subscription")
        return {
            **self._world.chat(p.get("chat_id")).to_json(),
            "accent_color_id": 0,
            "max_reaction_count": 11,
            "accepted_gift_types": {key: False for key in (*gifts, "gifts_from_channels")},
        }

    async def set_my_commands(
        self, p: JSONDict, f: dict[str, UploadedFile], d: Disconnected
    ) -> Any:
        commands = p.get("commands")
        if not isinstance(commands, list):
            raise bad_request("can't parse commands JSON object")
        if len(commands) > 100:
            raise bad_request("BOT_COMMANDS_TOO_MUCH")
        for command in commands:
            if not isinstance(command, dict) or not _COMMAND.fullmatch(command.get("command", "")):
                raise bad_request("BOT_COMMAND_INVALID")
            if not 1 <= len(command.get("description", "")) <= 256:
                raise bad_request("command description must be 1-256 characters")
        scope = p.get("scope") or {}
        if "chat_id" in scope:
            self._world.chat(scope["chat_id"])  # a chat scope needs a chat the bot knows
        key = _commands_key(p.get("scope"), p.get("language_code", ""))
        self._commands[key] = [
            {"command": c["command"], "description": c["description"]} for c in commands
        ]
        return True

    async def get_my_commands(
        self, p: JSONDict, f: dict[str, UploadedFile], d: Disconnected
    ) -> Any:
        return self.commands(p.get("scope"), p.get("language_code", ""))

    async def delete_my_commands(
        self, p: JSONDict, f: dict[str, UploadedFile], d: Disconnected
    ) -> Any:
        self._commands.pop(_commands_key(p.get("scope"), p.get("language_code", "")), None)
        return True

    # --- updates ---

    async def get_updates(self, p: JSONDict, f: dict[str, UploadedFile], d: Disconnected) -> Any:
        return await self._queue.long_poll(
            offset=p.get("offset"),
            limit=p.get("limit", 100),
            timeout=p.get("timeout", 0),
            allowed_updates=p.get("allowed_updates"),
            disconnected=d,
        )

    async def set_webhook(self, p: JSONDict, f: dict[str, UploadedFile], d: Disconnected) -> Any:
        url = p.get("url", "")
        if not url:
            return await self.delete_webhook(p, f, d)
        self._check_webhook_url(url)
        secret = p.get("secret_token")
        if secret is not None and not _SECRET_TOKEN.fullmatch(secret):
            raise bad_request("secret token contains unallowed characters")
        if p.get("drop_pending_updates"):
            self._queue.drop_pending()
        self._queue.set_webhook(
            Webhook(
                url=url,
                secret_token=secret,
                max_connections=p.get("max_connections", 40),
                allowed_updates=p.get("allowed_updates"),
                has_custom_certificate="certificate" in f,
            )
        )
        return True

    def _check_webhook_url(self, url: str) -> None:
        parts = urlsplit(url)
        if self._any_webhook_host or parts.hostname in _LOOPBACK_HOSTS:
            # Deviation: loopback http is allowed so tests can run the bot's web app locally.
            if parts.scheme not in {"http", "https"}:
                raise bad_request("bad webhook: An HTTPS URL must be provided for webhook")
            return
        if parts.scheme != "https":
            raise bad_request("bad webhook: An HTTPS URL must be provided for webhook")
        if (parts.port or 443) not in _WEBHOOK_PORTS:
            raise bad_request(
                "bad webhook: Webhook can be set up only on ports 80, 88, 443 or 8443"
            )

    async def delete_webhook(self, p: JSONDict, f: dict[str, UploadedFile], d: Disconnected) -> Any:
        if p.get("drop_pending_updates"):
            self._queue.drop_pending()
        self._queue.set_webhook(None)
        return True

    async def get_webhook_info(
        self, p: JSONDict, f: dict[str, UploadedFile], d: Disconnected
    ) -> Any:
        pending = len(self._queue.pending)
        if self._queue.webhook is None:
            return {"url": "", "has_custom_certificate": False, "pending_update_count": pending}
        return self._queue.webhook.info(pending)

    # --- files ---

    async def get_file(self, p: JSONDict, f: dict[str, UploadedFile], d: Disconnected) -> Any:
        stored = self._world.file(str(p.get("file_id", "")))
        if stored is None:
            raise bad_request("invalid file_id")
        if len(stored.data) > MAX_DOWNLOAD_BYTES:
            raise bad_request("file is too big")
        return stored.to_json()


def _commands_key(scope: Any, language_code: Any) -> tuple[str, str]:
    scope = scope or {"type": "default"}
    return json.dumps(scope, sort_keys=True), str(language_code or "")
