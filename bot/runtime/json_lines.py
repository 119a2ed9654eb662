"""``JsonLines``: a log record as one JSON object a line (``[logging] format = "json"``).

Keys: ``time`` (UTC, ISO 8601 with milliseconds), ``level``, ``logger``, ``message``, then the
``log_context`` fields known for the line (``delivery``, ``event``, ``flow``, ``step``) and
``exception`` (the traceback's text) when there is one. The message is the same as in text
format, after ``RedactSecrets``; nothing else of the record is copied, so an ``extra`` that a
library passes (a request, an update) never reaches the line.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime

from bot.log_context import current_context


class JsonLines(logging.Formatter):
    """See the module docstring."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        line.update(current_context())
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            line["exception"] = record.exc_text
        return json.dumps(line, ensure_ascii=False, default=str)
