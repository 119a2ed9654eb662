"""The one error the runtime raises to its caller (``deliverybot run`` prints it).

::

    StartupError                  the bot could not start; the message names what to change

The runtime maps what stops a start to it once, where it happens: a held SQLite file (the
store's ``SqliteFileHeld``) or an address that cannot be had (``OSError``) with
``raise ... from exc``; Telegram's refusal of the token without its context, since PTB's
error may quote the token.
"""

from __future__ import annotations


class StartupError(Exception):
    """The bot could not start; the message is safe to print (no secrets)."""
