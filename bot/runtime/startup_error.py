"""The one error the runtime raises to its caller (``deliverybot run`` prints it)."""

from __future__ import annotations


class StartupError(Exception):
    """The bot could not start; the message is safe to print (no secrets)."""
