"""Bot API methods on messages: send (text, photos, documents), edit, delete, chat actions,
callback answers.

Locations (static and live) are in ``telegram_locations``, which sends and edits through the
``new_message`` and ``editable`` here.

Telegram's checks that a bot can fail are applied with Telegram's descriptions: unknown chat,
empty or too long text, unparsable markup, invalid keyboards, editing to identical content,
editing or deleting what is not there, answering a callback query twice, an uploaded document
empty or over the 50 MB a bot may upload.
"""

from __future__ import annotations

from typing import Any

from .telegram_keyboards import validate_reply_markup
from .telegram_text import MAX_CAPTION_LENGTH, MAX_MESSAGE_LENGTH, parse_formatted, utf16_length
from .telegram_topics import place_in_topic
from .telegram_wire import BotApiError, Disconnected, JSONDict, UploadedFile, bad_request
from .telegram_world import StoredFile, TgChat, World

_CHAT_ACTIONS = frozenset(
    {
        "typing",
        "upload_photo",
        "record_video",
        "upload_video",
        "record_voice",
        "upload_voice",
        "upload_document",
        "choose_sticker",
        "find_location",
        "record_video_note",
        "upload_video_note",
    }
)
MAX_UPLOAD_BYTES = 50 * 1024 * 1024  # a bot's multipart upload (sendDocument)
NOT_MODIFIED = (
    "message is not modified: specified new message content and reply markup are exactly "
    "the same as a current content and reply markup of the message"
)


class MessageMethods:
    """sendMessage, sendPhoto, sendChatAction, editMessageText, editMessageReplyMarkup,
    deleteMessage and answerCallbackQuery over the fake's world."""

    def __init__(self, world: World) -> None:
        self._world = world

    async def send_message(self, p: JSONDict, f: dict[str, UploadedFile], d: Disconnected) -> Any:
        chat = self._world.chat(p.get("chat_id"))
        text, entities = _formatted(p, "text", "parse_mode", "entities")
        if not text.strip():
            raise bad_request("message text is empty")
        if utf16_length(text) > MAX_MESSAGE_LENGTH:
            raise bad_request("message is too long")
        message = self.new_message(chat, p, text=text)
        if entities:
            message["entities"] = entities
        self._world.store_message(message)
        return message

    async def send_photo(self, p: JSONDict, f: dict[str, UploadedFile], d: Disconnected) -> Any:
        chat = self._world.chat(p.get("chat_id"))
        stored = self._photo_input(p.get("photo"), f)
        caption, entities = _formatted(p, "caption", "parse_mode", "caption_entities")
        if utf16_length(caption) > MAX_CAPTION_LENGTH:
            raise bad_request("message caption is too long")
        photo_size = {
            "file_id": stored.file_id,
            "file_unique_id": stored.file_unique_id,
            "file_size": len(stored.data),
            "width": 1280,
            "height": 960,
        }
        message = self.new_message(chat, p, photo=[photo_size])
        if caption:
            message["caption"] = caption
        if entities:
            message["caption_entities"] = entities
        self._world.store_message(message)
        return message

    async def send_document(self, p: JSONDict, f: dict[str, UploadedFile], d: Disconnected) -> Any:
        chat = self._world.chat(p.get("chat_id"))
        document, upload = p.get("document"), f.get("document")
        if isinstance(document, str) and document.startswith("attach://"):
            upload = f.get(document.removeprefix("attach://"))
        if upload is None:
            # Deviation: a file_id or URL is out of the fake's scope; the bot uploads.
            raise bad_request("wrong file identifier/HTTP URL specified")
        if not upload.data:
            raise bad_request("file must be non-empty")
        if len(upload.data) > MAX_UPLOAD_BYTES:
            raise BotApiError(413, "Request Entity Too Large")
        caption, entities = _formatted(p, "caption", "parse_mode", "caption_entities")
        if utf16_length(caption) > MAX_CAPTION_LENGTH:
            raise bad_request("message caption is too long")
        stored = self._world.register_file(upload.data, folder="documents")
        sent = {
            "file_id": stored.file_id,
            "file_unique_id": stored.file_unique_id,
            "file_name": upload.filename or "file",
            "mime_type": upload.content_type or "application/octet-stream",
            "file_size": len(upload.data),
        }
        message = self.new_message(chat, p, document=sent)
        if caption:
            message["caption"] = caption
        if entities:
            message["caption_entities"] = entities
        self._world.store_message(message)
        return message

    def _photo_input(self, photo: Any, files: dict[str, UploadedFile]) -> StoredFile:
        upload = files.get("photo")
        if isinstance(photo, str) and photo.startswith("attach://"):
            upload = files.get(photo.removeprefix("attach://"))
        if upload is not None:
            return self._world.register_file(upload.data, folder="photos", suffix=".jpg")
        stored = self._world.file(photo) if isinstance(photo, str) else None
        if stored is None:
            # Deviation: Telegram would fetch an http(s) URL itself; the fake refuses it.
            raise bad_request("wrong file identifier/HTTP URL specified")
        return stored

    def new_message(self, chat: TgChat, p: JSONDict, **content: Any) -> JSONDict:
        """A new message from the bot in ``chat`` with ``content``, as the send ``p`` asks
        (reply, topic, keyboard checked); not stored yet."""
        markup = p.get("reply_markup")
        if markup is not None:
            validate_reply_markup(markup)
        message: JSONDict = {
            "message_id": self._world.next_message_id(chat.id),
            "from": self._world.bot.to_json(),
            "chat": chat.to_json(),
            "date": self._world.now(),
            **content,
        }
        reply_to = (p.get("reply_parameters") or {}).get("message_id", p.get("reply_to_message_id"))
        if reply_to is not None:
            original = self._world.message(chat.id, reply_to)
            if original is None:
                raise bad_request("message to be replied not found")
            original.pop("reply_to_message", None)
            message["reply_to_message"] = original
        if p.get("message_thread_id") is not None:
            place_in_topic(self._world, message, p.get("message_thread_id"))
        if isinstance(markup, dict) and "inline_keyboard" in markup:
            # Telegram echoes only inline keyboards in the returned Message.
            message["reply_markup"] = markup
        return message

    async def send_chat_action(
        self, p: JSONDict, f: dict[str, UploadedFile], d: Disconnected
    ) -> Any:
        if p.get("action") not in _CHAT_ACTIONS:
            raise bad_request("wrong parameter action in request")
        return True

    async def edit_message_text(
        self, p: JSONDict, f: dict[str, UploadedFile], d: Disconnected
    ) -> Any:
        message = self.editable(p)
        if "text" not in message:
            raise bad_request("there is no text in the message to edit")
        text, entities = _formatted(p, "text", "parse_mode", "entities")
        if not text.strip():
            raise bad_request("message text is empty")
        if utf16_length(text) > MAX_MESSAGE_LENGTH:
            raise bad_request("message is too long")
        return self._apply_edit(message, p, text=text, entities=entities or None)

    async def edit_message_reply_markup(
        self, p: JSONDict, f: dict[str, UploadedFile], d: Disconnected
    ) -> Any:
        message = self.editable(p)
        return self._apply_edit(
            message, p, text=message.get("text"), entities=message.get("entities")
        )

    def editable(self, p: JSONDict) -> JSONDict:
        """The message an edit ``p`` names, as it stands; Telegram's 400 when there is none or
        it is not the bot's."""
        if p.get("inline_message_id"):
            raise bad_request("MESSAGE_ID_INVALID")  # inline mode is out of the fake's scope
        chat = self._world.chat(p.get("chat_id"))
        message_id = p.get("message_id")
        if message_id is None:
            raise bad_request("message identifier is not specified")
        message = self._world.message(chat.id, message_id)
        if message is None:
            raise bad_request("message to edit not found")
        if message["from"]["id"] != self._world.bot.id:
            raise bad_request("message can't be edited")
        return message

    def _apply_edit(
        self, message: JSONDict, p: JSONDict, *, text: str | None, entities: Any
    ) -> JSONDict:
        markup = p.get("reply_markup")
        if markup is not None:
            validate_reply_markup(markup, inline_only=True)
        edited = dict(message)
        # An edit without reply_markup removes the inline keyboard, as in Telegram.
        for key, value in (("text", text), ("entities", entities), ("reply_markup", markup)):
            if value is None:
                edited.pop(key, None)
            else:
                edited[key] = value
        if all(edited.get(k) == message.get(k) for k in ("text", "entities", "reply_markup")):
            raise bad_request(NOT_MODIFIED)
        edited["edit_date"] = self._world.now()
        self._world.store_message(edited)
        return edited

    async def delete_message(self, p: JSONDict, f: dict[str, UploadedFile], d: Disconnected) -> Any:
        chat = self._world.chat(p.get("chat_id"))
        message = self._world.message(chat.id, p.get("message_id", 0))
        if message is None:
            raise bad_request("message to delete not found")
        if chat.type != "private" and message["from"]["id"] != self._world.bot.id:
            raise bad_request("message can't be deleted")
        self._world.delete_message(chat.id, message["message_id"])
        return True

    async def answer_callback_query(
        self, p: JSONDict, f: dict[str, UploadedFile], d: Disconnected
    ) -> Any:
        query_id = p.get("callback_query_id")
        answers = self._world.callback_answers
        if query_id not in answers or answers[query_id] is not None:
            raise bad_request(
                "query is too old and response timeout expired or query ID is invalid"
            )
        if len(p.get("text", "")) > 200:
            raise bad_request("MESSAGE_TOO_LONG")
        answers[query_id] = dict(p)
        return True


def _formatted(p: JSONDict, field: str, mode_field: str, entities_field: str) -> tuple[str, Any]:
    text = p.get(field) or ""
    if not isinstance(text, str):
        text = str(text)
    given = p.get(entities_field)
    if isinstance(given, list):
        return text, given
    return parse_formatted(text, p.get(mode_field))
