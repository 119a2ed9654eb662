"""The terminal demo: the whole bot in one process against the Partner API sandbox.

``DemoStack`` wires the sandbox, the Partner client and capability cache, the SQLite store (in
a temporary directory), the web app (webhooks and photos, reached in process), the relay and
the chat service to a ``ConsoleChat``. ``deliverybot demo`` (``demo_cli``) runs it in a terminal;
``deliverybot demo --script FILE`` replays a transcript (``bot.console.transcript``) on it.
Demo commands (``:paid``, ``:advance`` ...) are in ``demo_commands``; transcript setup lines
(``@scenario``, ``@set``, ``@stale``, ``@channel``) in ``setup``. ``deliverybot demo --channel
whatsapp`` makes the customer a WhatsApp one (``demo_customer``, ``whatsapp_customer``): the
bot's WhatsApp channel on the simulated Cloud API, in the same process.
"""

from bot.demo.demo_cli import main
from bot.demo.setup import DemoSetup, demo_setup
from bot.demo.stack import CUSTOMER_CHAT, OPERATOR_CHAT, DemoOptions, DemoStack

__all__ = [
    "CUSTOMER_CHAT",
    "OPERATOR_CHAT",
    "DemoOptions",
    "DemoSetup",
    "DemoStack",
    "demo_setup",
    "main",
]
