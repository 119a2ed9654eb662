"""``load_config``: read the TOML file, validate it, and report every problem in one error.

A bad file never gives a traceback: an unreadable file, invalid TOML and every invalid value
all end as ``ConfigError`` whose ``problems`` are one line each.
"""

from __future__ import annotations

import os
import re
import sys
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from bot.config.config_errors import ConfigError
from bot.config.problems import problem_lines
from bot.config.root import Config
from bot.config.texts_section import CHANNEL_TEXTS, ChannelTextsSource


def load_config(
    path: str | os.PathLike[str],
    *,
    environ: Mapping[str, str] | None = None,
    channel_texts: ChannelTextsSource | None = None,
) -> Config:
    """Read, parse and validate the TOML file at ``path``.

    Secrets named by ``*_env`` keys are read from ``environ`` (default: ``os.environ``).
    ``[texts]`` overrides may name the core's messages and the words of ``channel_texts``'
    channels (the command line gives every channel the bot ships; none: the core's only).
    Raises ``ConfigError`` listing every problem found, one line each.
    """
    file = Path(path)
    data = read_toml(file)
    return config_from_data(
        data, base_dir=file.parent.absolute(), environ=environ, channel_texts=channel_texts
    )


def config_from_data(
    data: dict[str, Any],
    *,
    base_dir: Path,
    environ: Mapping[str, str] | None = None,
    channel_texts: ChannelTextsSource | None = None,
) -> Config:
    """Validate ``data``, a parsed file, as ``load_config`` does; relative paths start at
    ``base_dir``. Raises ``ConfigError`` listing every problem found, one line each."""
    context = {
        "environ": os.environ if environ is None else environ,
        "base_dir": base_dir,
        CHANNEL_TEXTS: channel_texts,
    }
    try:
        return Config.model_validate(data, context=context)
    except ValidationError as exc:
        # from None: the chained ValidationError would carry input values, secrets included.
        raise ConfigError(problem_lines(exc, data)) from None


def load_config_or_report(
    path: Path, channel_texts: ChannelTextsSource | None = None
) -> Config | None:
    """The configuration at ``path`` (its overrides checked against ``channel_texts`` too);
    None once its problems are printed on stderr, one per line (what every ``deliverybot``
    command that reads a config does)."""
    try:
        return load_config(path, channel_texts=channel_texts)
    except ConfigError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        return None


def read_toml(file: Path) -> dict[str, Any]:
    """The TOML file at ``file``, parsed; ``ConfigError`` (one line naming the file, and the
    line and column where TOML is broken) when it cannot be read or parsed."""
    return parse_toml(read_bytes(file), file)


def read_bytes(file: Path) -> bytes:
    """The content of ``file``; ``ConfigError`` naming it when it cannot be read."""
    try:
        return file.read_bytes()
    except FileNotFoundError:
        raise ConfigError([f"{file}: file not found"]) from None
    except IsADirectoryError:
        raise ConfigError([f"{file}: is a directory, not a file"]) from None
    except OSError as exc:
        raise ConfigError([f"{file}: cannot be read ({exc.strerror})"]) from None


def parse_toml(raw: bytes, file: Path) -> dict[str, Any]:
    """``raw``, the content of ``file``, parsed as TOML; ``ConfigError`` as ``read_toml``."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise ConfigError([f"{file}:{line}: invalid TOML: not UTF-8 text"]) from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        where = re.fullmatch(r"(.*) \(at line (\d+), column (\d+)\)", message)
        if where:
            reason, line_no, column = where.groups()
            if reason == "Invalid value":
                reason = _bare_word(text, int(line_no), int(column)) or reason
            raise ConfigError([f"{file}:{line_no}:{column}: invalid TOML: {reason}"]) from None
        raise ConfigError([f"{file}: invalid TOML: {message}"]) from None


# Words people write for a switch; TOML's are true and false only.
_SWITCH_WORDS = frozenset({"yes", "no", "on", "off", "y", "n", "true", "false", "enabled",
                           "disabled"})  # fmt: skip
_TABLE = re.compile(r"\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
_BARE_WORD = re.compile(r"([A-Za-z_][\w.-]*)\s*(#.*)?$")


def _bare_word(text: str, line_no: int, column: int) -> str | None:
    """What to write instead of the unquoted word at ``line_no``:``column``, naming its key
    (``[webhooks] enabled: ... use true or false``); None when the value is no bare word. The
    word itself is never repeated: it could be a secret written without quotes."""
    lines = text.splitlines()
    if not 0 < line_no <= len(lines):
        return None
    line = lines[line_no - 1]
    key, equals, value = line.partition("=")
    word = _BARE_WORD.fullmatch(value.strip())
    if not equals or word is None or len(line) - len(value.lstrip()) + 1 != column:
        return None
    tables = (_TABLE.fullmatch(before) for before in reversed(lines[: line_no - 1]))
    table = next((found[1] for found in tables if found is not None), None)
    where = f"[{table}] {key.strip()}" if table else key.strip()
    if word[1].lower() in _SWITCH_WORDS:
        return f"{where}: a bare word is not a TOML value: use true or false"
    quote = 'put text in quotes ("..."), or use true or false'
    return f"{where}: a bare word is not a TOML value: {quote}"
