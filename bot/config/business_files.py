"""Business files: one business's own settings, completed by its host's into its ``Config``.

A business file holds everything a single-business file holds but the host's tables
(``[host]``, ``[server]``, ``[storage]``, ``[metrics]``, ``[logging]``, refused there naming
the file and key). Its name is its file's stem: ``BUSINESS_NAME``, lower case without
underscores, so ``b_<name with - as _>`` names one PostgreSQL schema per business and back.

The host's tables are each business's with these derivations (``derived_tables``):

* ``[server] public_base_url``: ``{host's}/b/{name}``, the business's own routes;
* SQLite ``path``: ``{directory of the host's path}/businesses/{name}.sqlite3``; ``media_dir``:
  ``{host's media_dir}/{name}``;
* ``[storage.postgres]``: ``db_schema = "b_{name}"`` and a ``lock_namespace`` of its own,
  derived from the name (never the two fixed namespaces nor the host's), so no business waits
  on, or leads for, another.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any, Final

from bot.config.config_errors import ConfigError
from bot.config.host_loading import Host
from bot.config.host_section import HOST_TABLES
from bot.config.loader import config_from_data, parse_toml
from bot.config.root import Config
from bot.config.server_section import MOVED_FROM_TELEGRAM
from bot.config.storage import DEFAULT_LOCK_NAMESPACE, RATE_BUDGET_LOCK_NAMESPACE

BUSINESS_NAME: Final = re.compile(r"[a-z][a-z0-9-]{0,39}")
"""A business's name (its file's stem): 1 to 40 of a-z, 0-9 and -, starting a-z."""
BUSINESS_NAME_RULE: Final = "1 to 40 characters of a-z, 0-9 and -, starting with a-z"
BUSINESS_PATH: Final = "/b/"
"""Under the host's public URL, each business's routes: ``/b/{name}/...``."""

_INT32 = 2**32


HOSTED_BY_WEBHOOK = (
    'a business on a host takes Telegram\'s updates by webhook: set mode = "webhook" and '
    "secret_token (the host finds the business by it; a bot that polls cannot be built only "
    "when it is used)"
)


def business_name_problem(name: str) -> str | None:
    """Why ``name`` cannot name a business; None when it can."""
    if BUSINESS_NAME.fullmatch(name):
        return None
    return f"{name!r} is not a business name: {BUSINESS_NAME_RULE} (no _)"


def schema_for(name: str) -> str:
    """The PostgreSQL schema of business ``name``: ``b_`` and the name, ``-`` written ``_``."""
    return "b_" + name.replace("-", "_")


def lock_namespace_for(name: str, host_namespace: int) -> int:
    """The advisory-lock namespace of business ``name``: a 32-bit signed number from the
    name's SHA-256, stepped past the two fixed namespaces and ``host_namespace``. The same on
    every instance and whatever other businesses there are."""
    digest = hashlib.sha256(b"deliverybot business " + name.encode("ascii")).digest()
    value = int.from_bytes(digest[:4], "big", signed=True)
    taken = {DEFAULT_LOCK_NAMESPACE, RATE_BUDGET_LOCK_NAMESPACE, host_namespace}
    while value in taken:
        value = (value + 1 + 2**31) % _INT32 - 2**31
    return value


def derived_tables(host: Host, name: str) -> dict[str, dict[str, Any]]:
    """The host's shared tables as business ``name`` sees them (as a file would write them)."""
    server = dict(host.written.get("server", {}))
    if host.server.public_base_url is not None:
        server["public_base_url"] = host.server.public_base_url + BUSINESS_PATH + name
    storage = dict(host.written.get("storage", {}))
    storage["path"] = str(host.storage.path.parent / "businesses" / f"{name}.sqlite3")
    storage["media_dir"] = str(host.storage.media_dir / name)
    postgres = storage.get("postgres")
    if isinstance(postgres, dict) and host.storage.postgres is not None:
        host_namespace = host.storage.postgres.lock_namespace
        storage["postgres"] = {
            **postgres,
            "db_schema": schema_for(name),
            "lock_namespace": lock_namespace_for(name, host_namespace),
        }
    return {
        "server": server,
        "storage": storage,
        "metrics": dict(host.written.get("metrics", {})),
        "logging": dict(host.written.get("logging", {})),
    }


def business_config(host: Host, name: str, raw: bytes, file: Path, *, base_dir: Path) -> Config:
    """The ``Config`` of business ``name`` whose file ``file`` holds ``raw``: the file's own
    tables with the host's, derived for ``name``; its relative paths start at ``base_dir``.
    Raises ``ConfigError``, each line naming ``file`` and the key."""
    problems = [] if (why := business_name_problem(name)) is None else [f"{file}: {why}"]
    try:
        data = parse_toml(raw, file)
    except ConfigError as exc:
        raise ConfigError(problems + exc.problems) from None
    own, refused = _own_tables(data, host)
    problems += [f"{file}: {line}" for line in refused]
    try:
        config = config_from_data(
            {**own, **derived_tables(host, name)},
            base_dir=base_dir,
            environ=host.environ,
            channel_texts=host.channel_texts,
        )
    except ConfigError as exc:
        raise ConfigError(problems + [f"{file}: {line}" for line in exc.problems]) from None
    if config.telegram.token is not None and config.telegram.mode != "webhook":
        problems.append(f"{file}: [telegram] mode: {HOSTED_BY_WEBHOOK}")
    if problems:
        raise ConfigError(problems)
    return config


def _own_tables(data: dict[str, Any], host: Host) -> tuple[dict[str, Any], list[str]]:
    """``data`` without what the host sets, and a problem line for each such key written."""
    host_file = host.file.name
    refused = [
        f"[{table}]: set by the host file ({host_file}), not a business file"
        for table in HOST_TABLES
        if table in data
    ]
    own = {name: value for name, value in data.items() if name not in HOST_TABLES}
    telegram = own.get("telegram")
    if isinstance(telegram, dict):
        moved = [key for key in MOVED_FROM_TELEGRAM if key in telegram]
        refused += [
            f"[telegram] {key}: set by the host file ({host_file}, [server] {key}), not a "
            "business file"
            for key in moved
        ]
        own["telegram"] = {key: value for key, value in telegram.items() if key not in moved}
    return own, refused
