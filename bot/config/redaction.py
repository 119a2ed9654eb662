"""The effective configuration as TOML text an operator may share: every secret redacted.

Each secret is shown by its public prefix at most (``sk_live_…(redacted)``), with where it came
from (this file, or the environment variable named); unset optional keys and tables are listed
as comments, so the output shows every setting the bot runs with.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, TypeGuard

from pydantic import BaseModel, SecretStr

from bot.config.privacy_section import MOVED_FROM_STORAGE
from bot.config.root import Config
from bot.config.section import submodel
from bot.config.server_section import MOVED_FROM_TELEGRAM
from bot.partner.vocabulary import API_KEY_PREFIX, SIGNING_SECRET_PREFIX


def redact(secret: SecretStr) -> str:
    """A secret as it may be shown: its public prefix at most."""
    value = secret.get_secret_value()
    for prefix in (API_KEY_PREFIX, SIGNING_SECRET_PREFIX):
        if value.startswith(prefix):
            return f"{prefix}…(redacted)"
    return "***"


def render_redacted(config: Config) -> str:
    """The effective settings as TOML text, every secret redacted (the source of each named)."""
    lines: list[str] = []
    for name in Config.model_fields:
        if name == "channels":
            _render_channel_tables(config.channels, lines)
        else:
            _render_table(getattr(config, name), name, lines)
    return "\n".join(lines) + "\n"


def render_tables_redacted(tables: Mapping[str, BaseModel]) -> str:
    """Some tables by name (a host file's ``[host]``, ``[server]``...), as ``render_redacted``
    draws a whole file's."""
    lines: list[str] = []
    for name, table in tables.items():
        _render_table(table, name, lines)
    return "\n".join(lines) + "\n"


def _render_channel_tables(tables: dict[str, dict[str, Any]], lines: list[str]) -> None:
    """``[channels.<name>]``: each channel checks its own keys when the bot starts, and only it
    knows which are secrets: their names are shown, never their values."""
    for name, table in tables.items():
        lines += ["", f"[channels.{name}]"]
        keys = ", ".join(table) or "none"
        lines.append(f"# keys: {keys} (checked by the channel when the bot starts; not shown)")


def _render_table(
    section: BaseModel, name: str, lines: list[str], *, header: str | None = None
) -> None:
    if lines:
        lines.append("")
    lines.append(header or f"[{name}]")
    fields = type(section).model_fields
    tables: list[tuple[str, BaseModel]] = []
    arrays: list[tuple[str, list[BaseModel]]] = []
    for key in fields:
        value = getattr(section, key)
        if key.endswith("_env") and key.removesuffix("_env") in fields:
            continue  # shown beside the secret it names
        if name == "telegram" and key in MOVED_FROM_TELEGRAM:
            continue  # [server]'s now, and shown there with its effective value
        if name == "storage" and key in MOVED_FROM_STORAGE:
            continue  # [privacy]'s now, and shown there with its effective value
        if isinstance(value, BaseModel):
            tables.append((key, value))
        elif _is_table_array(value):
            arrays.append((key, value))  # [[agents.channels]]
        elif value is None:
            shown = f"[{name}.{key}]" if submodel(type(section), key) else key
            lines.append(f"# {shown}: not set")
        elif isinstance(value, SecretStr):
            env_name = getattr(section, f"{key}_env", None)
            source = f"environment variable {env_name}" if env_name else "this file"
            lines.append(f'{key} = "{redact(value)}"  # from {source}')
        else:
            lines.append(f"{key} = {_toml_value(value)}")
    for key, table in tables:
        _render_table(table, f"{name}.{key}", lines)
    for key, items in arrays:
        for item in items:
            _render_table(item, f"{name}.{key}", lines, header=f"[[{name}.{key}]]")


def _is_table_array(value: object) -> TypeGuard[list[BaseModel]]:
    return (
        isinstance(value, list | tuple)
        and bool(value)
        and all(isinstance(item, BaseModel) for item in value)
    )


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    if isinstance(value, dict):  # an inline table: [texts] overrides by message id
        pairs = [
            f"{json.dumps(str(k), ensure_ascii=False)} = {_toml_value(v)}" for k, v in value.items()
        ]
        return "{ " + ", ".join(pairs) + " }" if pairs else "{}"
    return json.dumps(str(value), ensure_ascii=False)  # a JSON string is a TOML basic string
