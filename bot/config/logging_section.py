"""``[logging]``: how much the bot logs, and as what (text lines or one JSON object a line)."""

from __future__ import annotations

import logging
from typing import Literal

from bot.config.section import Section

LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR"]


class LoggingConfig(Section):
    """``[logging]``: ``level`` and ``format`` of the lines on stderr."""

    level: LogLevel = "INFO"
    # "json": one object a line (time, level, logger, message, and the context known: delivery,
    # event, flow, step), for a log collector; "text": one readable line.
    format: Literal["text", "json"] = "text"

    @property
    def level_number(self) -> int:
        """``level`` as the ``logging`` module's number."""
        return logging.getLevelNamesMapping()[self.level]
