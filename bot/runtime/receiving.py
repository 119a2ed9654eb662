"""How Telegram's updates reach the Application: long polling or a webhook.

==================  =========================================================================
``polling``         PTB's updater long-polls ``getUpdates``
``webhook``         ``setWebhook({public_base_url}/telegram, secret_token)``; the web app's
                    ``/telegram`` route feeds the Application
==================  =========================================================================

Either way the command menus are registered first, and at the end the updates already taken
are answered before the Application stops.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterable
from typing import Final

from telegram import BotCommand
from telegram.error import InvalidToken, NetworkError, TelegramError

from bot.config import TelegramConfig
from bot.runtime.startup_error import StartupError
from bot.telegram.application import ALLOWED_UPDATES, BotApplication
from bot.telegram.command_menus import register_commands
from conversations.texts.business_texts import BusinessTexts

log = logging.getLogger(__name__)

DRAIN_SECONDS: Final = 10.0  # at shutdown, for the updates already received


async def start_receiving(
    application: BotApplication,
    telegram: TelegramConfig,
    operators: Iterable[int],
    flows: tuple[BotCommand, ...] = (),
    *,
    texts: BusinessTexts,
    webhook_url: str | None = None,
    announce: bool = True,
) -> None:
    """Connect to Telegram, register the commands (``flows``: the flows' own, from
    ``flow_commands``; each language's menu in the business's ``texts``), and start receiving
    updates (in webhook mode, posted to ``webhook_url``: ``[server] public_base_url`` and
    ``/telegram``, or the host's). Without ``announce`` the commands and the webhook are
    taken as set already (a hosted business built again after an idle release).

    Raises ``StartupError`` when Telegram refuses.
    """
    bot = application.bot
    try:
        await application.initialize()  # getMe: checks the token, learns the username
        if announce:
            await register_commands(texts, bot, operators, flows)
        await application.start()
        if telegram.mode == "webhook":
            if announce:
                assert webhook_url and telegram.secret_token  # config ensures it
                await bot.set_webhook(
                    url=webhook_url,
                    secret_token=telegram.secret_token.get_secret_value(),
                    allowed_updates=list(ALLOWED_UPDATES),
                )
        else:
            assert application.updater is not None
            await application.updater.start_polling(
                allowed_updates=list(ALLOWED_UPDATES), error_callback=_polling_failed
            )
    except TelegramError as error:
        problem: str | None = _startup_problem(error)
    else:
        problem = None
    if problem is not None:  # raised here, not in the except: the error (which may quote
        raise StartupError(problem)  # the token) must not travel along as its context
    log.info("bot @%s running (%s mode)", bot.username, telegram.mode)


async def stop_receiving(application: BotApplication) -> None:
    """Stop taking updates and answer those already taken, within ``DRAIN_SECONDS``."""
    if application.updater is not None and application.updater.running:
        await application.updater.stop()
    if application.running:
        # Updates already taken (acknowledged to Telegram, which will not send them again)
        # are answered before the Application stops, within a bound.
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(DRAIN_SECONDS):
                await application.update_queue.join()
        await application.stop()


async def close_application(application: BotApplication) -> None:
    """Release the Application and its Bot's HTTP clients. Safe after a failed start."""
    with contextlib.suppress(TelegramError):
        await application.shutdown()
        # After a failed start the Application was never initialized and its shutdown
        # does nothing, but the Bot's HTTP clients are open: close them (no-op otherwise).
        await application.bot.shutdown()


def _startup_problem(error: TelegramError) -> str:
    if isinstance(error, InvalidToken):
        return "Telegram refused the bot token ([telegram] token)"
    if isinstance(error, NetworkError):
        return f"could not reach the Bot API at [telegram] api_base_url ({type(error).__name__})"
    return f"Telegram refused to start the bot: {error.message}"


def _polling_failed(error: TelegramError) -> None:
    # The type only: a network error's text may quote the request URL, token included.
    log.warning("getUpdates failed (%s); PTB tries again", type(error).__name__)
