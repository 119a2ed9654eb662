"""The Bot API wire format: how requests arrive and how answers and errors go back.

Telegram accepts parameters in the query string, as ``application/x-www-form-urlencoded``,
as ``application/json`` or as ``multipart/form-data`` (needed for uploads). python-telegram-bot
sends forms whose values are plain strings for strings and JSON text for everything else, so a
form value is only as typed as the field it belongs to: the tables below say which fields are
integers, booleans or JSON, the way Telegram's own schema does.

Every answer is ``{"ok": true, "result": ...}`` or ``{"ok": false, "error_code": N,
"description": "...", "parameters": {...}}`` with the HTTP status equal to ``error_code``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl

JSONDict = dict[str, Any]
# Awaited by a long poll to notice that the client hung up.
Disconnected = Callable[[], Awaitable[Any]]

INTEGER_FIELDS = frozenset(
    {
        "chat_id",
        "from_chat_id",
        "message_id",
        "message_thread_id",
        "offset",
        "limit",
        "max_connections",
        "cache_time",
        "user_id",
        "reply_to_message_id",
        "live_period",
        "heading",
        "proximity_alert_radius",
    }
)
BOOLEAN_FIELDS = frozenset(
    {
        "drop_pending_updates",
        "disable_notification",
        "protect_content",
        "show_alert",
        "disable_web_page_preview",
        "allow_sending_without_reply",
        "has_spoiler",
        "show_caption_above_media",
        "allow_paid_broadcast",
    }
)
# Telegram documents these as integers; PTB sends fractions for sub-second timedeltas, which
# the fake accepts (Telegram's handling of them is undocumented).
NUMBER_FIELDS = frozenset({"timeout", "latitude", "longitude", "horizontal_accuracy"})
JSON_FIELDS = frozenset(
    {
        "reply_markup",
        "commands",
        "scope",
        "entities",
        "caption_entities",
        "allowed_updates",
        "link_preview_options",
        "reply_parameters",
        "media",
    }
)
_INTEGER_TEXT = re.compile(r"-?\d+")
_NUMBER_TEXT = re.compile(r"-?\d+(?:\.\d+)?")


class BotApiError(Exception):
    """An unsuccessful Bot API answer; raised inside the fake, turned into the error envelope."""

    def __init__(
        self, error_code: int, description: str, parameters: JSONDict | None = None
    ) -> None:
        super().__init__(description)
        self.error_code = error_code
        self.description = description
        self.parameters = parameters

    def envelope(self) -> JSONDict:
        """The JSON body Telegram sends for this error."""
        body: JSONDict = {
            "ok": False,
            "error_code": self.error_code,
            "description": self.description,
        }
        if self.parameters:
            body["parameters"] = self.parameters
        return body


def bad_request(detail: str) -> BotApiError:
    """A 400 with Telegram's ``Bad Request: ...`` description."""
    return BotApiError(400, f"Bad Request: {detail}")


def ok_envelope(result: Any) -> JSONDict:
    """The JSON body of a successful call."""
    return {"ok": True, "result": result}


@dataclass(frozen=True)
class UploadedFile:
    """A file part of a multipart request."""

    name: str
    filename: str | None
    content_type: str | None
    data: bytes = field(repr=False)


@dataclass(frozen=True)
class ParsedRequest:
    """Typed parameters and uploaded files of one Bot API call."""

    params: JSONDict
    files: dict[str, UploadedFile]


def parse_request(query: list[tuple[str, str]], content_type: str, body: bytes) -> ParsedRequest:
    """Parse a call the way Telegram does: query string first, then the body of any kind."""
    raw: dict[str, Any] = dict(query)
    files: dict[str, UploadedFile] = {}
    media_type = content_type.split(";", 1)[0].strip().lower()
    if media_type == "application/json" and body:
        try:
            decoded = json.loads(body)
        except ValueError as exc:
            raise bad_request("can't parse JSON encoded request body") from exc
        if not isinstance(decoded, dict):
            raise bad_request("JSON request body must be an object")
        raw.update(decoded)
    elif media_type == "application/x-www-form-urlencoded":
        raw.update(parse_qsl(body.decode("utf-8"), keep_blank_values=True))
    elif media_type == "multipart/form-data":
        fields, files = _parse_multipart(content_type, body)
        raw.update(fields)
    return ParsedRequest({name: _typed(name, value) for name, value in raw.items()}, files)


def _typed(name: str, value: Any) -> Any:
    if not isinstance(value, str):
        return value
    if name in JSON_FIELDS:
        try:
            return json.loads(value)
        except ValueError as exc:
            raise bad_request(f"can't parse {name} JSON object") from exc
    if name in INTEGER_FIELDS and _INTEGER_TEXT.fullmatch(value):
        return int(value)
    if name in NUMBER_FIELDS and _NUMBER_TEXT.fullmatch(value):
        return int(value) if _INTEGER_TEXT.fullmatch(value) else float(value)
    if name in BOOLEAN_FIELDS:
        return value.lower() in {"true", "1"}
    return value


def _parse_multipart(
    content_type: str, body: bytes
) -> tuple[dict[str, str], dict[str, UploadedFile]]:
    # The stdlib has no multipart/form-data parser and python-multipart is not a dependency;
    # the format is simple enough to split by its boundary directly.
    match = re.search(r'boundary="?([^";]+)"?', content_type)
    if match is None:
        raise bad_request("multipart request without a boundary")
    delimiter = b"--" + match.group(1).encode("latin-1")
    fields: dict[str, str] = {}
    files: dict[str, UploadedFile] = {}
    for chunk in body.split(delimiter)[1:]:
        if chunk.startswith(b"--"):
            break
        head, _, content = chunk.removeprefix(b"\r\n").partition(b"\r\n\r\n")
        headers = _part_headers(head.decode("utf-8"))
        disposition = headers.get("content-disposition", "")
        name = _disposition_param(disposition, "name")
        if name is None:
            continue
        content = content.removesuffix(b"\r\n")
        filename = _disposition_param(disposition, "filename")
        if filename is None and "content-type" not in headers:
            fields[name] = content.decode("utf-8")
        else:
            files[name] = UploadedFile(name, filename, headers.get("content-type"), content)
    return fields, files


def _part_headers(head: str) -> dict[str, str]:
    headers: dict[str, str] = {}
    for line in head.split("\r\n"):
        key, sep, value = line.partition(":")
        if sep:
            headers[key.strip().lower()] = value.strip()
    return headers


def _disposition_param(disposition: str, param: str) -> str | None:
    match = re.search(rf'(?:^|;)\s*{param}="([^"]*)"', disposition)
    return match.group(1) if match else None
