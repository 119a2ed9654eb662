"""Logging for the running bot: one stderr handler, text or JSON lines (``[logging]``), every
configured secret masked."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from urllib.parse import urlsplit

from bot.config import Config, LoggingConfig, MetricsConfig, StorageConfig
from bot.runtime.json_lines import JsonLines


class RedactSecrets(logging.Filter):
    """Replaces any configured secret in a log record (message and traceback) by a mark.

    The code logs no secrets; this is the net under libraries that might (PTB puts the bot
    token into ``InvalidToken``'s message, and every Bot API URL carries it).
    """

    def __init__(self, secrets: Iterable[str]) -> None:
        super().__init__()
        self._secrets: list[str] = []
        self.cover(secrets)

    def cover(self, secrets: Iterable[str]) -> None:
        """Redact ``secrets`` from now on, instead of those given before (a host's businesses
        come and go); the longest first, so one that holds another is replaced whole."""
        self._secrets = sorted({s for s in secrets if s}, key=len, reverse=True)

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


def configure_logging(config: Config, level: int | None = None) -> RedactSecrets:
    """Log lines to stderr as ``[logging]`` says (``level`` overrides its level), secrets
    redacted, chatty libraries kept quiet; returns the redaction, which a host tells of each
    business it adds (``RedactSecrets.cover``).

    httpx and httpcore stay at WARNING (their INFO lines are request URLs, which carry the bot
    token); aiosqlite at INFO or above (its DEBUG lines hold SQL parameters: personal data);
    PTB at INFO or above (its DEBUG lines print whole updates); pywa at WARNING (its DEBUG
    lines print every WhatsApp message sent, words and all).
    """
    return log_to_stderr(config.logging, configured_secrets(config), level)


def log_to_stderr(
    section: LoggingConfig, secrets: Iterable[str], level: int | None = None
) -> RedactSecrets:
    """``configure_logging`` for ``[logging]`` alone, ``secrets`` redacted."""
    level = section.level_number if level is None else level
    handler = logging.StreamHandler()
    if section.format == "json":
        handler.setFormatter(JsonLines())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    redaction = RedactSecrets(secrets)
    handler.addFilter(redaction)
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
    return redaction


def configured_secrets(config: Config) -> list[str]:
    """Every secret the configuration holds: the API key, the bot token and its webhook
    secret token, the signing secrets, the database URL (its password), the metrics token,
    the agent channels' keys and webhook secrets, WhatsApp's access token, app secret and
    verify token."""
    whatsapp = config.whatsapp
    found = [config.telegram.token, config.partner.api_key, config.telegram.secret_token]
    found += [whatsapp.access_token, whatsapp.app_secret, whatsapp.verify_token]
    found += config.webhooks.signing_secrets()
    for channel in config.agents.configured:
        found += [channel.key, channel.webhook_secret]
    mine = [secret.get_secret_value() for secret in found if secret is not None]
    return mine + shared_secrets(config.storage, config.metrics)


def shared_secrets(storage: StorageConfig, metrics: MetricsConfig) -> list[str]:
    """The secrets of the tables a host shares with its businesses: the database URL (and its
    password alone) and the metrics token."""
    found = [] if metrics.token is None else [metrics.token.get_secret_value()]
    if storage.postgres is not None:
        dsn = storage.postgres.dsn.get_secret_value()
        found.append(dsn)
        password = urlsplit(dsn).password
        if password:
            found.append(password)
    return found
