"""Logging for the running bot: one stderr handler, text or JSON lines (``[logging]``), every
configured secret masked, and no customer's personal data in any line.

Two filters stand on the handler. ``HidePersonalData`` writes each chat or customer a line
names as its keyed pseudonym (``LogRef``, ``bot.chat_ref``: ``whatsapp:#1a2b3c4d`` for a phone
number), and takes out of messages and tracebacks the values that errors echo: pydantic's
``input_value``, PostgreSQL's ``DETAIL`` rows and keys, asyncpg's refused query arguments, the
query strings of URLs (a geocoder's query is an address), and phone numbers in E.164.
``RedactSecrets`` then masks every configured secret. The code itself names chats by
``for_log`` and operators' alerts by their kind; the filters are the net under what it cannot
word (a library's error, a refused value).
"""

from __future__ import annotations

import logging
import re
import secrets
from collections.abc import Iterable, Mapping
from typing import Final, TextIO
from urllib.parse import urlsplit

from bot.chat_ref import AGENTS, CONSOLE, TELEGRAM, WHATSAPP, ChatRef, LogRef, UserRef
from bot.config import Config, LoggingConfig, MetricsConfig, StorageConfig
from bot.runtime.json_lines import JsonLines

_NAMED_CHAT: Final = re.compile(
    rf"\b({'|'.join((TELEGRAM, WHATSAPP, CONSOLE, AGENTS))}):(-?[0-9]+)\b"
)
"""A chat or customer written in full (``str(ChatRef)``): pseudonymised wherever it shows."""

_ECHOED: Final = (
    # pydantic: "[type=string_too_short, input_value='08031234567', input_type=str]"; the value
    # is a repr, so on one line, and the last ", input_type=" of the line closes it.
    (
        re.compile(r"input_value=.*, input_type=(\w+)\]", re.MULTILINE),
        "input_value=[hidden], input_type=\\1]",
    ),
    # PostgreSQL (asyncpg puts DETAIL in the error's text): a key's or a row's values.
    (re.compile(r"^(DETAIL:\s+Key \([^\n]*?\))=\(.*\)", re.MULTILINE), "\\1=([hidden])"),
    (re.compile(r"^(DETAIL:\s+Failing row contains) \(.*\)", re.MULTILINE), "\\1 ([hidden])"),
    # asyncpg: "invalid input for query argument $2: '0803...' (expected str, got int)".
    (
        re.compile(
            r"(invalid input for query argument \$[0-9]+"
            r"(?: in element #[0-9]+ of executemany\(\) sequence)?): .*"
        ),
        "\\1: [hidden]",
    ),
    # A URL's query (a geocoder's search is a typed address): the path stays.
    (re.compile(r"(https?://[^\s'\"?#]+)\?[^\s'\"#]*"), "\\1?[hidden]"),
    # A phone number in E.164, whatever wrote it.
    (re.compile(r"\+[1-9][0-9]{7,14}\b"), "+[phone]"),
)
"""What errors echo of the values they refused, and what each is written as instead."""


class HidePersonalData(logging.Filter):
    """Writes chats and customers as pseudonyms under ``key``, and takes echoed values out of
    a record's message and traceback (see the module)."""

    def __init__(self, key: bytes) -> None:
        super().__init__()
        self._key = key

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(self._written(arg) for arg in record.args)
        elif isinstance(record.args, Mapping):
            record.args = {name: self._written(arg) for name, arg in record.args.items()}
        message = record.getMessage()
        hidden = self.hidden(message)
        if hidden != message:
            record.msg, record.args = hidden, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.hidden(record.exc_text)
        return True

    def hidden(self, text: str) -> str:
        """``text`` with chats written in full as pseudonyms and echoed values taken out."""
        text = _NAMED_CHAT.sub(
            lambda found: LogRef(found[1], int(found[2])).written(self._key), text
        )
        for pattern, replacement in _ECHOED:
            text = pattern.sub(replacement, text)
        return text

    def _written(self, arg: object) -> object:
        if isinstance(arg, ChatRef | UserRef):  # a call that forgot ``for_log``
            arg = arg.for_log
        return arg.written(self._key) if isinstance(arg, LogRef) else arg


def pseudonym_key(section: LoggingConfig) -> bytes:
    """The key of the log's pseudonyms: ``[logging] pseudonym_key``, or a random one for this
    process alone."""
    if section.pseudonym_key is None:
        return secrets.token_bytes(32)
    return section.pseudonym_key.get_secret_value().encode()


class RedactSecrets(logging.Filter):
    """Replaces any configured secret in a log record (message and traceback) by a mark.

    The code logs no secrets; this is the net under libraries that might (PTB puts the bot
    token into ``InvalidToken``'s message, and every Bot API URL carries it).
    """

    def __init__(self, secrets: Iterable[str]) -> None:
        super().__init__()
        self._secrets: list[str] = []
        self._always: list[str] = []
        self._given: list[str] = []
        self.cover(secrets)

    def cover(self, secrets: Iterable[str]) -> None:
        """Redact ``secrets`` from now on, instead of those given before (a host's businesses
        come and go); the longest first, so one that holds another is replaced whole."""
        self._given = list(secrets)
        self._secrets = sorted(
            {s for s in [*self._given, *self._always] if s}, key=len, reverse=True
        )

    def always_cover(self, secrets: Iterable[str]) -> None:
        """Redact ``secrets`` too whatever ``cover`` is given later: the log's own (its
        pseudonym key)."""
        self._always = list(secrets)
        self.cover(self._given)

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
    redaction = RedactSecrets(secrets)
    handler = log_handler(section, redaction)
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


def log_handler(
    section: LoggingConfig, redaction: RedactSecrets, stream: TextIO | None = None
) -> logging.Handler:
    """The handler of ``[logging]``'s lines on ``stream`` (stderr by default): its format,
    chats as pseudonyms under its key, echoed values taken out, then ``redaction``'s secrets
    (the pseudonym key among them)."""
    handler = logging.StreamHandler(stream)
    if section.format == "json":
        handler.setFormatter(JsonLines())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    key = pseudonym_key(section)
    handler.addFilter(HidePersonalData(key))
    redaction.always_cover([key.decode(errors="replace")] if section.pseudonym_key else [])
    handler.addFilter(redaction)
    return handler


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
