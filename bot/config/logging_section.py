"""``[logging]``: how much the bot logs, and as what (text lines or one JSON object a line)."""

from __future__ import annotations

import logging
import re
from typing import Literal

from pydantic import SecretStr, ValidationInfo, ValidatorFunctionWrapHandler, field_validator

from bot.config.secrets import EnvName, SecretShape, resolve_secret
from bot.config.section import Section

LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR"]

PSEUDONYM_KEY_SHAPE: SecretShape = (
    re.compile(r"[A-Za-z0-9_-]{32,256}"),
    "must be 32 to 256 characters of A-Z, a-z, 0-9, _ and - (e.g. openssl rand -hex 32)",
)


class LoggingConfig(Section):
    """``[logging]``: ``level`` and ``format`` of the lines on stderr."""

    level: LogLevel = "INFO"
    # "json": one object a line (time, level, logger, message, and the context known: delivery,
    # event, flow, step), for a log collector; "text": one readable line.
    format: Literal["text", "json"] = "text"
    # The key of the pseudonyms that name chats and customers in log lines (``telegram:#1a2b3c4d``,
    # never a chat id or a WhatsApp phone number): a secret of its own, never another one
    # reused. Set, every instance and every restart writes one chat's pseudonym alike, and an
    # operator holding the key finds a customer's lines (docs/operators.md §11); unset, each
    # process draws a random key, so a pseudonym is followed within one run only.
    pseudonym_key_env: EnvName | None = None
    pseudonym_key: SecretStr | None = None

    @field_validator("level", mode="before")
    @classmethod
    def _any_case(cls, value: object) -> object:
        # "info" and "Info" name the same level as "INFO", as Python's logging spells it.
        return value.upper() if isinstance(value, str) else value

    @field_validator("pseudonym_key", mode="wrap")
    @classmethod
    def _pseudonym_key(
        cls, value: object, handler: ValidatorFunctionWrapHandler, info: ValidationInfo
    ) -> SecretStr | None:
        return resolve_secret(value, handler, info, required=False, shape=PSEUDONYM_KEY_SHAPE)

    @property
    def level_number(self) -> int:
        """``level`` as the ``logging`` module's number."""
        return logging.getLevelNamesMapping()[self.level]
