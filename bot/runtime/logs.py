"""Logging for the running bot: one stderr handler, every configured secret masked."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from bot.config import Config


class RedactSecrets(logging.Filter):
    """Replaces any configured secret in a log record (message and traceback) by a mark.

    The code logs no secrets; this is the net under libraries that might (PTB puts the bot
    token into ``InvalidToken``'s message, and every Bot API URL carries it).
    """

    def __init__(self, secrets: Sequence[str]) -> None:
        super().__init__()
        self._secrets = [s for s in secrets if s]

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if any(secret in message for secret in self._secrets):
            record.msg, record.args = self._redact(message), None
        if record.exc_info and not record.exc_text:
            record.exc_text = self._redact(logging.Formatter().formatException(record.exc_info))
        elif record.exc_text:
            record.exc_text = self._redact(record.exc_text)
        return True

    def _redact(self, text: str) -> str:
        for secret in self._secrets:
            text = text.replace(secret, "[redacted]")
        return text


def configure_logging(config: Config, level: int = logging.INFO) -> None:
    """Log lines to stderr, secrets redacted, chatty libraries kept quiet.

    httpx and httpcore stay at WARNING (their INFO lines are request URLs, which carry the bot
    token); aiosqlite at INFO or above (its DEBUG lines hold SQL parameters: personal data);
    PTB at INFO or above (its DEBUG lines print whole updates).
    """
    secrets = [config.telegram.token, config.partner.api_key, config.telegram.secret_token]
    secrets += config.webhooks.signing_secrets()
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler.addFilter(RedactSecrets([s.get_secret_value() for s in secrets if s is not None]))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    for name, floor in (
        ("httpx", logging.WARNING),
        ("httpcore", logging.WARNING),
        ("aiosqlite", logging.INFO),
        ("telegram", logging.INFO),
        ("uvicorn", logging.INFO),
    ):
        logging.getLogger(name).setLevel(max(level, floor))
