"""The terminal adapter: the same flows as in Telegram, typed at a keyboard.

``ConsoleChat`` turns typed lines into answers (``parse_line``: numbers pick options, commands,
``contact ...``, ``location ...``, photo file paths; ``new`` and ``repeat`` start an order) and
draws each turn (``render_turn``);
``ConsoleChannel`` shows the relay's messages on the same ``Screen``. ``deliverybot demo``
runs them against the in-process sandbox (``bot.demo``).
"""

from bot.console.channel import ConsoleChannel
from bot.console.chat import ConsoleChat
from bot.console.parse import NewOrder, Parsed, PhotoFiles, RepeatLast, Unclear, parse_line
from bot.console.photos import PhotoProblem, check_photos, host_photos, sniff_image_type
from bot.console.render import render_prompt, render_turn, said
from bot.console.screen import Screen

__all__ = [
    "ConsoleChannel",
    "ConsoleChat",
    "NewOrder",
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
