"""Reply markup as Telegram checks it, and small readers for tests.

Telegram rejects keyboards a client can get wrong: callback data over 64 bytes
(``BUTTON_DATA_INVALID``), an inline button with no action, a reply-keyboard-only button in an
inline keyboard. The fake applies the same checks so an adapter bug fails the e2e test the way
it would fail in production.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from .telegram_wire import bad_request

MAX_CALLBACK_DATA_BYTES = 64
_INLINE_ACTIONS = frozenset(
    {
        "url",
        "callback_data",
        "web_app",
        "login_url",
        "switch_inline_query",
        "switch_inline_query_current_chat",
        "switch_inline_query_chosen_chat",
        "copy_text",
        "callback_game",
        "pay",
    }
)
_REPLY_BUTTON_REQUESTS = frozenset(
    {"request_contact", "request_location", "request_poll", "request_users", "request_chat"}
)
_URL_SCHEMES = ("http://", "https://", "tg://")


def validate_reply_markup(markup: Any, *, inline_only: bool = False) -> None:
    """Raise Telegram's 400 for a markup it would refuse."""
    if not isinstance(markup, dict):
        raise bad_request("can't parse reply keyboard markup JSON object")
    if "inline_keyboard" in markup:
        _validate_inline(markup["inline_keyboard"])
    elif inline_only:
        raise bad_request("inline keyboard expected")
    elif "keyboard" in markup:
        _validate_reply_keyboard(markup["keyboard"])
    elif markup.get("remove_keyboard") is not True and markup.get("force_reply") is not True:
        raise bad_request("can't parse reply keyboard markup JSON object")


def _rows(keyboard: Any) -> list[list[Any]]:
    if not isinstance(keyboard, list) or not all(isinstance(row, list) for row in keyboard):
        raise bad_request("can't parse reply keyboard markup JSON object")
    return keyboard


def _validate_inline(keyboard: Any) -> None:
    for row in _rows(keyboard):
        for button in row:
            if not isinstance(button, dict) or not button.get("text"):
                raise bad_request("can't parse inline keyboard button: Text buttons are unallowed")
            actions = _INLINE_ACTIONS.intersection(button)
            if len(actions) != 1:
                raise bad_request("text buttons are unallowed in the inline keyboard")
            if "callback_data" in button:
                data = button["callback_data"]
                size = len(data.encode("utf-8")) if isinstance(data, str) else 0
                if not 1 <= size <= MAX_CALLBACK_DATA_BYTES:
                    raise bad_request("BUTTON_DATA_INVALID")
            if "url" in button and not str(button["url"]).startswith(_URL_SCHEMES):
                raise bad_request(f"inline keyboard button URL '{button['url']}' is invalid")


def _validate_reply_keyboard(keyboard: Any) -> None:
    for row in _rows(keyboard):
        for button in row:
            if isinstance(button, str):
                text = button
            elif isinstance(button, dict):
                text = button.get("text", "")
                if len(_REPLY_BUTTON_REQUESTS.intersection(button)) > 1:
                    raise bad_request("keyboard button can have only one request")
            else:
                raise bad_request("can't parse keyboard button")
            if not text:
                raise bad_request("keyboard button text must be non-empty")


def buttons(markup: Mapping[str, Any] | None) -> Iterator[dict[str, Any]]:
    """Every button of an inline or reply keyboard, row by row, as dicts."""
    if not markup:
        return
    for row in markup.get("inline_keyboard") or markup.get("keyboard") or []:
        for button in row:
            yield {"text": button} if isinstance(button, str) else dict(button)


def find_button(markup: Mapping[str, Any] | None, text: str) -> dict[str, Any]:
    """The button labelled ``text``; LookupError naming the labels there are otherwise."""
    found = [button for button in buttons(markup) if button["text"] == text]
    if not found:
        labels = [button["text"] for button in buttons(markup)]
        raise LookupError(f"no button {text!r}; buttons are {labels}")
    return found[0]
