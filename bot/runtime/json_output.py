"""``deliverybot run`` with ``[logging] format = "json"``: every line it writes, one JSON object.

The log records are ``JsonLines`` already (``configure_logging``). What is written outside
logging is caught here, from before the file is validated to the end of the process:

* lines printed on stdout or stderr (the configuration's problems and start-up warnings, a
  fatal start-up error, anything a library prints) go through ``JsonLineStream``: a line that
  is a JSON object already passes as it is, any other becomes one (``logger`` ``bot.cli``;
  ``warning: …`` a WARNING, any other line on stderr an ERROR, on stdout an INFO);
* Python ``warnings`` are logged (``logging.captureWarnings``, logger ``py.warnings``);
* an uncaught exception, in the main thread or another, and an exception Python can only
  report as "ignored" (``sys.unraisablehook``) are logged as one CRITICAL or ERROR record with
  its traceback in ``exception``, instead of the traceback's lines.

The format is read from the file before it is validated, so a file that asked for JSON gets
its problems as JSON too; a file that cannot be read as TOML at all says nothing of its
format, and its problem is printed as text.
"""

from __future__ import annotations

import atexit
import io
import json
import logging
import sys
import threading
import tomllib
from pathlib import Path
from types import TracebackType
from typing import Final, TextIO

from bot.runtime.json_lines import JsonLines

CLI_LOGGER: Final = "bot.cli"
WARNING_PREFIX: Final = "warning: "
log = logging.getLogger(CLI_LOGGER)


def asked_format(path: Path) -> str:
    """``[logging] format`` as the file at ``path`` writes it (lower case), before any
    validation; ``"text"`` when the file or its TOML cannot be read."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return "text"
    section = data.get("logging")
    written = section.get("format") if isinstance(section, dict) else None
    return written.strip().lower() if isinstance(written, str) else "text"


class JsonLineStream(io.TextIOBase):
    """A text stream that writes each complete line to ``target`` as one JSON object."""

    def __init__(self, target: TextIO, plain_level: int) -> None:
        super().__init__()
        self._target = target
        self._plain_level = plain_level
        self._pending = ""
        self._lock = threading.Lock()
        self._format = JsonLines()

    @property  # io.TextIOBase's is a read-only None; a library may ask for the target's
    def encoding(self) -> str:  # type: ignore[override]
        return self._target.encoding

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return self._target.isatty()

    def fileno(self) -> int:
        return self._target.fileno()

    def write(self, text: str) -> int:
        with self._lock:
            *lines, self._pending = (self._pending + text).split("\n")
            for line in lines:
                self._target.write(self._object_line(line) + "\n")
        return len(text)

    def flush(self) -> None:
        self._target.flush()

    def close(self) -> None:
        """Writes a last unterminated line, if any; the target stays open (it is not ours)."""
        with self._lock:
            if self._pending:
                self._target.write(self._object_line(self._pending) + "\n")
                self._pending = ""
        self._target.flush()
        super().close()

    def _object_line(self, line: str) -> str:
        if line.startswith("{"):
            try:
                if isinstance(json.loads(line), dict):
                    return line
            except ValueError:
                pass
        level = self._plain_level
        if line.startswith(WARNING_PREFIX):
            level, line = logging.WARNING, line.removeprefix(WARNING_PREFIX)
        record = logging.LogRecord(CLI_LOGGER, level, __file__, 0, line, None, None)
        return self._format.format(record)


def write_json_lines() -> None:
    """From now on, every line this process writes is one JSON object (see the module).

    Until ``configure_logging`` installs the bot's handler (its secrets redacted), log
    records go to stderr as ``JsonLines``.
    """
    sys.stdout = JsonLineStream(sys.stdout, logging.INFO)
    sys.stderr = JsonLineStream(sys.stderr, logging.ERROR)
    for stream in (sys.stdout, sys.stderr):
        atexit.register(stream.close)  # a last line without its line break
    handler = logging.StreamHandler()
    handler.setFormatter(JsonLines())
    logging.getLogger().handlers[:] = [handler]
    logging.captureWarnings(True)
    sys.excepthook = _log_uncaught
    threading.excepthook = _log_uncaught_in_thread
    sys.unraisablehook = _log_unraisable


def write_json_lines_if_asked(path: Path) -> None:
    """``write_json_lines`` when the configuration file at ``path`` asks for JSON logs."""
    if asked_format(path) == "json":
        write_json_lines()


def _log_uncaught(
    kind: type[BaseException], error: BaseException, traceback: TracebackType | None
) -> None:
    if issubclass(kind, KeyboardInterrupt):
        sys.__excepthook__(kind, error, traceback)
        return
    log.critical("uncaught %s: the process stops", kind.__name__, exc_info=(kind, error, traceback))


def _log_uncaught_in_thread(args: threading.ExceptHookArgs) -> None:
    if args.exc_value is None:
        return
    name = args.thread.name if args.thread is not None else "a thread"
    exc_info = (args.exc_type, args.exc_value, args.exc_traceback)
    log.error("uncaught %s in %s", args.exc_type.__name__, name, exc_info=exc_info)


def _log_unraisable(unraisable: sys.UnraisableHookArgs) -> None:
    error = unraisable.exc_value
    if error is None:
        log.error("an exception was ignored (%s)", unraisable.exc_type.__name__)
        return
    exc_info = (unraisable.exc_type, error, unraisable.exc_traceback)
    log.error("an exception was ignored (%s)", unraisable.exc_type.__name__, exc_info=exc_info)
