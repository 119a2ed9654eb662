"""``[host]`` and the host file: one deployment serving many businesses.

A host file is a TOML file with a ``[host]`` table. It holds what the businesses share, the
process's own settings: ``[host]``, ``[server]``, ``[storage]``, ``[metrics]`` and
``[logging]``. Everything that is one business's (its partner key, its Telegram bot, its
operators, texts, limits...) is in a business file of its own, one ``*.toml`` per business in
``[host] businesses_dir`` (``bot.config.business_files``). A file without ``[host]`` is a
single-business file, as every file was before: a host with one business.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from pydantic import Field, ValidationInfo, field_validator

from bot.config.config_errors import KeyProblems
from bot.config.logging_section import LoggingConfig
from bot.config.metrics_section import MetricsConfig
from bot.config.section import Section
from bot.config.server_section import ServerConfig
from bot.config.storage import StorageConfig, StoragePath

HOST_TABLES: Final = ("host", "server", "storage", "metrics", "logging")
"""The tables of a host file; a business file may hold none of them."""


class HostSection(Section):
    """``[host]``: where the business files are, and how the host treats its businesses.

    ``businesses_dir``: the directory whose every ``*.toml`` is one business (relative to the
    host file). ``idle_minutes``: a business's built parts (its Telegram application, HTTP
    clients, caches) are released after this long without a request. ``watch_seconds``: how
    often each instance looks at the directory for added, changed and removed businesses.
    ``metrics_business_label``: whether metrics carry a ``business`` label; at most
    ``metrics_business_label_cap`` values of it, the rest counted as ``other``, so a thousand
    businesses do not make a thousand series of every metric unless asked.
    """

    businesses_dir: StoragePath = Field(Path("businesses"), validate_default=True)
    idle_minutes: float = Field(15.0, gt=0, le=7 * 24 * 60)
    watch_seconds: float = Field(2.0, ge=0.1, le=3600)
    metrics_business_label: bool = False
    metrics_business_label_cap: int = Field(50, ge=1, le=100_000)

    @property
    def idle_seconds(self) -> float:
        """``idle_minutes`` in seconds."""
        return self.idle_minutes * 60


class HostFileConfig(Section):
    """A host file's tables, validated together (its ``[server]``, ``[storage]``, ``[metrics]``
    and ``[logging]`` are every business's)."""

    host: HostSection
    server: ServerConfig
    storage: StorageConfig
    metrics: MetricsConfig  # after server: its own address must not be the web app's
    logging: LoggingConfig

    @field_validator("metrics")
    @classmethod
    def _metrics_apart(cls, value: MetricsConfig, info: ValidationInfo) -> MetricsConfig:
        server = info.data.get("server")
        if (
            server is not None
            and value.own_address
            and (value.listen_host, value.listen_port) == (server.listen_host, server.listen_port)
        ):
            problem = (
                "is [server] listen_host:listen_port, where the web app listens; choose another "
                "port, or leave listen_port out to serve /metrics on the web app"
            )
            raise KeyProblems([(("listen_port",), problem)])
        return value

    @field_validator("storage")
    @classmethod
    def _schema_per_business(cls, value: StorageConfig) -> StorageConfig:
        if value.postgres is not None and value.postgres.db_schema is not None:
            problem = "is each business's own (b_<name>): leave it out of the host file"
            raise KeyProblems([(("postgres", "db_schema"), problem)])
        return value
