"""What the fake remembers of the bot's calls, in the shape tests assert on."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .telegram_keyboards import buttons, find_button
from .telegram_wire import JSONDict, UploadedFile


@dataclass(frozen=True)
class RecordedCall:
    """One Bot API call as received and answered.

    ``method`` is the canonical name (``sendMessage``) whatever case the client used; ``params``
    are typed the way Telegram reads them (ints, bools, decoded JSON for markup and lists).
    """

    seq: int
    method: str
    params: JSONDict
    files: dict[str, UploadedFile]
    status: int
    response: JSONDict

    @property
    def ok(self) -> bool:
        """True when the call succeeded."""
        return bool(self.response.get("ok"))

    @property
    def result(self) -> Any:
        """The ``result`` of a successful call (None for a failed one)."""
        return self.response.get("result")

    @property
    def error_code(self) -> int | None:
        """The ``error_code`` of a failed call."""
        code = self.response.get("error_code")
        return int(code) if code is not None else None

    @property
    def description(self) -> str | None:
        """The ``description`` of a failed call."""
        description = self.response.get("description")
        return str(description) if description is not None else None


@dataclass(frozen=True)
class SentMessage:
    """A message the bot successfully sent (sendMessage, sendPhoto, sendDocument ...), as sent.

    ``text`` is what the user reads: the plain text (markup parsed away) or the photo caption.
    ``reply_markup`` is the markup as the bot sent it, reply keyboards included (Telegram's
    echoed Message only carries inline keyboards; ``message`` is that echo). Later edits are not
    reflected here; ``FakeTelegram.message(chat_id, message_id)`` gives the current state.
    """

    method: str
    chat_id: int
    message_id: int
    text: str | None
    params: JSONDict
    message: JSONDict = field(repr=False)

    @property
    def reply_markup(self) -> JSONDict | None:
        """The reply_markup parameter of the send, if any."""
        markup = self.params.get("reply_markup")
        return markup if isinstance(markup, dict) else None

    @property
    def button_texts(self) -> list[str]:
        """Labels of every button, row by row (inline or reply keyboard)."""
        return [button["text"] for button in buttons(self.reply_markup)]

    def button(self, text: str) -> JSONDict:
        """The button labelled ``text`` (LookupError listing the labels otherwise)."""
        return find_button(self.reply_markup, text)

    def callback_data(self, text: str) -> str:
        """The callback_data of the inline button labelled ``text``."""
        data = self.button(text).get("callback_data")
        if not isinstance(data, str):
            raise LookupError(f"button {text!r} has no callback_data")
        return data


@dataclass(frozen=True)
class LiveLocation:
    """A live location the bot sent, as it stands when asked.

    ``positions`` are the (latitude, longitude) it pointed to: the sent one first, then one per
    successful ``editMessageLiveLocation``. ``live`` is whether it can still be edited now (not
    stopped, its ``live_period`` from the message's date not over); ``stopped`` whether
    ``stopMessageLiveLocation`` ended it.
    """

    chat_id: int
    message_id: int
    positions: tuple[tuple[float, float], ...]
    live_period: int
    stopped: bool
    live: bool

    @property
    def position(self) -> tuple[float, float]:
        """Where it points now."""
        return self.positions[-1]

    @property
    def edits(self) -> int:
        """How many edits moved (or changed) it since it was sent."""
        return len(self.positions) - 1
