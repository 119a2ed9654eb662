"""``kind_of``: a Telegram update's kind, a bounded label (never its content)."""

from __future__ import annotations


def kind_of(update: object) -> str:
    """callback, command, text, photo, contact, location, or other (duck-typed on PTB's
    ``Update``, so this module loads no PTB)."""
    if getattr(update, "callback_query", None) is not None:
        return "callback"
    message = getattr(update, "message", None)
    if message is None:
        return "other"
    text = getattr(message, "text", None)
    if text:
        return "command" if text.startswith("/") else "text"
    for kind in ("photo", "contact", "location"):
        if getattr(message, kind, None):
            return kind
    return "other"
