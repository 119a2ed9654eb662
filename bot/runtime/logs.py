"""Logging for the running bot: one stderr handler, text or JSON lines (``[logging]``), every
configured secret masked."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from urllib.parse import urlsplit

from pydantic import SecretStr

from bot.config import Config
from bot.runtime.json_lines import JsonLines


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


def configure_logging(config: Config, level: int | None = None) -> None:
    """Log lines to stderr as ``[logging]`` says (``level`` overrides its level), secrets
    redacted, chatty libraries kept quiet.

    httpx and httpcore stay at WARNING (their INFO lines are request URLs, which carry the bot
    token); aiosqlite at INFO or above (its DEBUG lines hold SQL parameters: personal data);
    PTB at INFO or above (its DEBUG lines print whole updates); pywa at WARNING (its DEBUG
    lines print every WhatsApp message sent, words and all).
    """
    level = config.logging.level_number if level is None else level
    handler = logging.StreamHandler()
    if config.logging.format == "json":
        handler.setFormatter(JsonLines())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler.addFilter(RedactSecrets(configured_secrets(config)))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    for name, floor in (
        ("httpx", logging.WARNING),
        ("httpcore", logging.WARNING),
        ("aiosqlite", logging.INFO),
        ("telegram", logging.INFO),
        ("uvicorn", logging.INFO),
        ("asyncpg", logging.INFO),
        ("pywa", logging.WARNING),
        ("pywa_async", logging.WARNING),
    ):
        logging.getLogger(name).setLevel(max(level, floor))


def configured_secrets(config: Config) -> list[str]:
    """Every secret the configuration holds: the API key, the bot token and its webhook
    secret token, the signing secrets, the database URL (its password), the metrics token,
    the agent channels' keys and webhook secrets."""
    found = [config.telegram.token, config.partner.api_key, config.telegram.secret_token]
    found += config.webhooks.signing_secrets()
    found.append(config.metrics.token)
    if config.storage.postgres is not None:
        dsn = config.storage.postgres.dsn
        found.append(dsn)
        password = urlsplit(dsn.get_secret_value()).password
        if password:
            found.append(SecretStr(password))
    for channel in config.agents.configured:
        found += [channel.key, channel.webhook_secret]
    return [secret.get_secret_value() for secret in found if secret is not None]
