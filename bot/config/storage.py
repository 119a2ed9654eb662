"""``[storage]``: where the bot keeps its state and files.

``backend = "sqlite"`` (the default) keeps everything in one file beside the bot and needs
nothing else. ``backend = "postgres"`` keeps it in the PostgreSQL database of
``[storage.postgres]``, which several instances of the bot share (docs/operators.md, "Running
several instances"); ``media_dir`` must then be one directory every instance mounts.

Relative paths are resolved against the config file's directory (the validation context's
``base_dir``), so the bot finds the same files whatever directory it is started from.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    Field,
    PrivateAttr,
    SecretStr,
    ValidationInfo,
    ValidatorFunctionWrapHandler,
    field_validator,
    model_validator,
)

from bot.config.secrets import EnvName, SecretShape, resolve_secret
from bot.config.section import Section

DSN_SHAPE: SecretShape = (
    re.compile(r"postgres(ql)?://\S+"),
    "must be a PostgreSQL connection URL: postgresql://user:password@host:5432/database",
)


def _resolve_path(value: Path, info: ValidationInfo) -> Path:
    base_dir: Path = (info.context or {}).get("base_dir", Path.cwd())
    return base_dir / value.expanduser()


StoragePath = Annotated[Path, Field(strict=False), AfterValidator(_resolve_path)]

# Where deploy/deliverybot.service lets the bot write (StateDirectory=deliverybot); with
# ProtectSystem=strict every other directory, the config file's among them, is read-only.
SYSTEMD_STATE_DIRECTORY = "/var/lib/deliverybot"

# A schema name PostgreSQL reads the same quoted or not, within its 63 bytes (the store sets
# it as its connections' search_path).
DB_SCHEMA_SHAPE = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")

# ``bot.store.advisory_locks``' DEFAULT_NAMESPACE and RATE_BUDGET_NAMESPACE, written out: the
# configuration is checked without loading the store (tests/store/test_chat_lock_keys.py holds
# them equal).
DEFAULT_LOCK_NAMESPACE = 0x646C7662
RATE_BUDGET_LOCK_NAMESPACE = 0x646C7672


class PostgresConfig(Section):
    """``[storage.postgres]``: the database several instances share."""

    dsn_env: EnvName | None = None
    # The password is in the DSN: like every secret, never logged or shown (check-config
    # prints ***), and best given through ``dsn_env``.
    dsn: SecretStr
    pool_size: int = Field(10, ge=2, le=100)
    # How long an instance's claim on a webhook event outlives the instance: when one dies
    # mid-send, another takes its events over this much later (and may repeat the messages
    # that were in flight). Longer than any send takes, including Telegram's retry-after waits.
    lease_seconds: float = Field(60.0, ge=2, le=3600)
    # The namespace of the bot's fixed advisory locks (migrations, inbox claims, the one
    # instance that runs the leader's jobs, Telegram's send grants). Businesses that share one
    # database (each in its own schema) each set their own, so none waits on, or leads for,
    # another's. PostgreSQL's two-int advisory locks take a 32-bit signed int.
    lock_namespace: int = Field(DEFAULT_LOCK_NAMESPACE, ge=-(2**31), le=2**31 - 1)
    # The schema the store keeps every table in (created by the first migration), so
    # businesses on one database see none of each other's rows; unset, the tables are where
    # the connection's search_path puts them (``public``), as before schemas were named.
    db_schema: str | None = None

    @field_validator("lock_namespace")
    @classmethod
    def _not_the_budgets(cls, value: int) -> int:
        if value == RATE_BUDGET_LOCK_NAMESPACE:
            raise ValueError(
                f"is the namespace of the Partner API's rate budgets ({value}); choose another"
            )
        return value

    @field_validator("db_schema")
    @classmethod
    def _plain_schema_name(cls, value: str | None) -> str | None:
        if value is not None and DB_SCHEMA_SHAPE.fullmatch(value) is None:
            raise ValueError(
                "must be a plain lower-case PostgreSQL name: a-z, 0-9 and _, not starting "
                "with a digit, at most 63 characters"
            )
        return value

    @field_validator("dsn", mode="wrap")
    @classmethod
    def _dsn(
        cls, value: object, handler: ValidatorFunctionWrapHandler, info: ValidationInfo
    ) -> SecretStr | None:
        return resolve_secret(value, handler, info, required=True, shape=DSN_SHAPE)


class StorageConfig(Section):
    """``[storage]``: the backend, the SQLite file and the re-hosted package photos' directory
    (how long things are kept is ``[privacy]``'s)."""

    backend: Literal["sqlite", "postgres"] = "sqlite"
    postgres: PostgresConfig | None = None
    path: StoragePath = Field(Path("deliverybot.sqlite3"), validate_default=True)
    media_dir: StoragePath = Field(Path("media"), validate_default=True)
    # The three keys below are an older file's, moved to [privacy] (photos_hours, drafts_days,
    # audit_days: ``MOVED_FROM_STORAGE``): checked with the same ranges, read into [privacy],
    # the one place the bot reads them from, and never dumped from here, so a dumped
    # configuration validates again with each key in one place.
    media_ttl_hours: float | None = Field(None, gt=0, le=24 * 30, exclude=True)
    session_idle_days: float | None = Field(None, ge=1, le=365, exclude=True)
    audit_days: float | None = Field(None, ge=1, le=3650, exclude=True)
    # How many days of the funnel (where customers give up: ``deliverybot report``) are kept.
    funnel_days: int = Field(90, ge=1, le=3650)
    # SQLite's durability. "full": a commit is on the disk when it returns, so an acknowledged
    # webhook survives a power cut. "normal": commits reach the disk at WAL checkpoints; they
    # survive the bot crashing or being killed, but a power cut or OS crash may lose the last
    # ones (an acknowledged webhook, a sent marker). In exchange no commit waits for the disk.
    synchronous: Literal["full", "normal"] = "full"

    # The path keys the file writes relative (or leaves to their relative defaults), as
    # written: after validation every path is absolute, resolved against the file's directory.
    _relative: dict[str, str] = PrivateAttr(default_factory=dict)

    @model_validator(mode="wrap")
    @classmethod
    def _note_relative_paths(
        cls, data: object, handler: ValidatorFunctionWrapHandler
    ) -> StorageConfig:
        config: StorageConfig = handler(data)
        written = data if isinstance(data, dict) else {}
        for name in ("path", "media_dir"):
            value = written.get(name, cls.model_fields[name].default)
            if isinstance(value, str | Path) and not Path(value).expanduser().is_absolute():
                default = "" if name in written else ", the default"
                config._relative[name] = f'"{value}"{default}'
        return config

    @model_validator(mode="after")
    def _postgres_needs_its_table(self) -> StorageConfig:
        if self.backend == "postgres" and self.postgres is None:
            raise ValueError(
                'backend = "postgres" needs a [storage.postgres] table with dsn or dsn_env'
            )
        return self

    @property
    def shared_database(self) -> PostgresConfig | None:
        """The database the bot's processes may share (``backend = "postgres"``); None for
        the SQLite file of one process."""
        return self.postgres if self.backend == "postgres" else None

    def warnings(self, *, polling: bool) -> list[str]:
        """Settings of ``[storage]`` that are valid but probably not what the operator wants
        (``polling``: Telegram is read by long polling), one line each."""
        found = []
        if self.backend == "postgres" and polling:
            found.append(
                '[storage] backend = "postgres" with [telegram] mode = "polling": run one '
                "instance only (Telegram hands long-polled updates to one caller at a time); "
                "several instances need webhook mode"
            )
        if self.backend == "postgres" and self.synchronous != "full":
            found.append('[storage] synchronous: ignored while backend = "postgres"')
        used = ("media_dir",) if self.backend == "postgres" else ("path", "media_dir")
        for name in used:
            if name in self._relative:
                found.append(
                    f"[storage] {name}: relative ({self._relative[name]}), so "
                    f"{getattr(self, name)}, beside the config file: under the systemd unit "
                    "(ProtectSystem=strict) that directory is read-only; write an absolute "
                    f"path, e.g. under {SYSTEMD_STATE_DIRECTORY}"
                )
        return found

    @property
    def sqlite_synchronous(self) -> Literal["FULL", "NORMAL"]:
        """``synchronous`` as SQLite spells it (``Store.connect``'s argument)."""
        return "NORMAL" if self.synchronous == "normal" else "FULL"
