"""A keyboard as the JSON the Bot API reads, written without PTB's generic ``to_dict``.

PTB's ``TelegramObject.to_dict`` finds an object's fields by introspection on every call, which
costs some forty times reading them directly: an eight-button inline keyboard, the kind nearly
every turn sends, takes about 230 µs there and 6 µs here. The keyboards the bot draws are PTB's
own objects (``InlineKeyboardMarkup``, ``ReplyKeyboardMarkup``, their buttons, ``WebAppInfo``
...): direct subclasses of ``TelegramObject`` whose ``__slots__`` are exactly their Bot API
fields, holding strings, numbers, booleans and more such objects. Those are written here field
by field, unset ones left out, as PTB writes them. Anything else (extra ``api_kwargs``, a value
of another type) is left to PTB's ``to_dict``, so the JSON is PTB's in every case.
"""

from __future__ import annotations

from telegram import TelegramObject

from bot.telegram.telegram_errors import LeftToPtb

JSON = dict[str, object]


def wire_markup(markup: TelegramObject) -> JSON:
    """``markup`` (a keyboard, or its removal) as the JSON object of ``reply_markup``."""
    try:
        return _object(markup)
    except LeftToPtb:
        return markup.to_dict()


def _object(value: TelegramObject) -> JSON:
    kind = type(value)
    if kind.__bases__ != (TelegramObject,) or value.api_kwargs:
        raise LeftToPtb
    written: JSON = {}
    for name in getattr(kind, "__slots__", ()):
        field = getattr(value, name)
        if field is not None:
            written[name] = _value(field)
    return written


def _value(value: object) -> object:
    if isinstance(value, str | bool | int | float):
        return value
    if isinstance(value, TelegramObject):
        return _object(value)
    if isinstance(value, tuple | list):
        return [_value(item) for item in value]
    raise LeftToPtb
