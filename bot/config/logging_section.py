"""``[logging]``: how much the bot logs, and as what (text lines or one JSON object a line)."""

from __future__ import annotations

import logging
from typing import Literal

from pydantic import field_validator

from bot.config.section import Section

LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR"]


class LoggingConfig(Section):
    """``[logging]``: ``level`` and ``format`` of the lines on stderr."""

    level: LogLevel = "INFO"
    # "json": one object a line (time, level, logger, message, and the context known: delivery,
    # event, flow, step), for a log collector; "text": one readable line.
    format: Literal["text", "json"] = "text"

    @field_validator("level", mode="before")
    @classmethod
    def _any_case(cls, value: object) -> object:
        # "info" and "Info" name the same level as "INFO", as Python's logging spells it.
        return value.upper() if isinstance(value, str) else value

    @property
    def level_number(self) -> int:
        """``level`` as the ``logging`` module's number."""
        return logging.getLevelNamesMapping()[self.level]
