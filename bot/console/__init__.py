"""The terminal adapter: the same flows as in Telegram, typed at a keyboard.

``ConsoleChat`` turns typed lines into answers (``parse_line``: numbers pick options, commands,
``contact ...``, ``location ...``, photo file paths; ``new`` and ``repeat`` start an order) and
draws each turn (``render_turn``); ``status``, ``deliveries``, ``cancel_delivery`` and a typed
drop-off code link go to the ``CustomerDesk`` (``CONSOLE_WORDS`` name them in its texts).
``ConsoleChannel`` shows the relay's messages on the same ``Screen``. ``deliverybot demo``
runs them against the in-process sandbox (``bot.demo``).
"""

from bot.console.console_channel import ConsoleChannel
from bot.console.console_chat import CONSOLE_WORDS, ConsoleChat
from bot.console.console_render import render_prompt, render_turn, said
from bot.console.console_screen import Screen
from bot.console.parse import (
    AskStatus,
    CancelDelivery,
    ListDeliveries,
    NewOrder,
    OpenHandoff,
    Parsed,
    PhotoFiles,
    RepeatLast,
    Unclear,
    parse_line,
)
from bot.console.photo_files import PhotoProblem, check_photos, host_photos, sniff_image_type

__all__ = [
    "CONSOLE_WORDS",
    "AskStatus",
    "CancelDelivery",
    "ConsoleChannel",
    "ConsoleChat",
    "ListDeliveries",
    "NewOrder",
    "OpenHandoff",
    "Parsed",
    "PhotoFiles",
    "PhotoProblem",
    "RepeatLast",
    "Screen",
    "Unclear",
    "check_photos",
    "host_photos",
    "parse_line",
    "render_prompt",
    "render_turn",
    "said",
    "sniff_image_type",
]
