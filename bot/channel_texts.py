"""The words of every channel this bot ships, beside the core's catalogue.

Each channel keeps its own words in its own texts module (``ChannelTexts``): Telegram's
(``bot/telegram/telegram_texts.py``), the map page's (``bot/webapp/webapp_texts.py``), the
console's (``bot/console/console_texts.py``) and the operators' web console's
(``bot/staff_console/console_web_texts.py``). A running bot's catalogue gets the words of the
channels it registers (``ChannelRegistration.texts``); a business's ``[texts]`` overrides may
name any shipped channel's words, so the command line checks them against all of these
(``load_config(..., channel_texts=shipped_channel_texts)``).
"""

from __future__ import annotations

from bot.console.console_texts import CONSOLE_TEXTS
from bot.staff_console.console_web_texts import CONSOLE_WEB_TEXTS
from bot.telegram.telegram_texts import TELEGRAM_TEXTS
from bot.webapp.webapp_texts import WEBAPP_TEXTS
from bot.whatsapp.sending_texts import WHATSAPP_SENDING_TEXTS
from bot.whatsapp.whatsapp_texts import WHATSAPP_TEXTS
from conversations.texts.catalogue import ChannelTexts


def shipped_channel_texts() -> tuple[ChannelTexts, ...]:
    """Every shipped channel's own words: what a ``[texts]`` override may name besides the
    core's messages."""
    return (
        TELEGRAM_TEXTS,
        WEBAPP_TEXTS,
        CONSOLE_TEXTS,
        CONSOLE_WEB_TEXTS,
        WHATSAPP_TEXTS,
        WHATSAPP_SENDING_TEXTS,
    )
