"""``load_host``: a configuration file read as a host, whichever kind of file it is.

A host file (one with ``[host]``) gives a ``Host`` whose businesses are the files of its
``businesses_dir``, read by ``bot.config.business_scan``. A single-business file (no
``[host]``, every file before hosting) gives a host with one business, ``default``, whose
``Config`` is exactly what ``load_config`` makes of the file: nothing derived, no prefix, the
same store and routes as ever.

A host file's problems are told one a line, each starting with the file's path, since an
operator reads them beside the business files' own.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from pydantic import ValidationError

from bot.config.config_errors import ConfigError
from bot.config.host_section import HOST_TABLES, HostFileConfig, HostSection
from bot.config.loader import config_from_data, read_toml
from bot.config.logging_section import LoggingConfig
from bot.config.metrics_section import MetricsConfig
from bot.config.problems import problem_lines
from bot.config.root import Config
from bot.config.server_section import ServerConfig
from bot.config.storage import StorageConfig
from bot.config.texts_section import ChannelTextsSource

SINGLE_BUSINESS: Final = "default"
"""The name of a single-business file's one business."""


@dataclass(frozen=True)
class Host:
    """What one deployment serves: its shared settings, and where its businesses are.

    ``server``, ``storage``, ``metrics`` and ``logging`` are the host file's (a
    single-business file's own, for one). ``single`` is a single-business file's ``Config``;
    None for a host file, whose businesses ``scan_businesses`` reads. ``written`` holds the
    host file's shared tables as written, from which each business's are derived.
    """

    file: Path
    section: HostSection
    server: ServerConfig
    storage: StorageConfig
    metrics: MetricsConfig
    logging: LoggingConfig
    single: Config | None = None
    written: Mapping[str, Mapping[str, Any]] = field(default_factory=dict, repr=False)
    environ: Mapping[str, str] | None = field(default=None, repr=False)
    channel_texts: ChannelTextsSource | None = field(default=None, repr=False)

    @property
    def businesses_dir(self) -> Path | None:
        """The directory of the business files; None for a single-business file."""
        return None if self.single is not None else self.section.businesses_dir


def load_host(
    path: str | Path,
    *,
    environ: Mapping[str, str] | None = None,
    channel_texts: ChannelTextsSource | None = None,
) -> Host:
    """The host that the file at ``path`` configures: a host file, or a single-business file
    (a host with one business). Secrets named by ``*_env`` keys come from ``environ`` (default
    ``os.environ``), now and whenever a business file is read for this host. Raises
    ``ConfigError`` listing every problem of the file, one line each.
    """
    written_as = Path(path)  # problems name the file as the operator wrote it
    data = read_toml(written_as)
    file = written_as.absolute()
    if "host" not in data:
        config = config_from_data(
            data, base_dir=file.parent, environ=environ, channel_texts=channel_texts
        )
        section = HostSection.model_validate({}, context={"base_dir": file.parent})
        return Host(
            file, section, config.server, config.storage, config.metrics, config.logging,
            single=config, environ=environ, channel_texts=channel_texts,
        )  # fmt: skip
    problems = [
        f"{written_as}: [{name}]: belongs in a business file (one per business, in [host] "
        "businesses_dir), not the host file"
        for name in data
        if name not in HOST_TABLES and name in Config.model_fields
    ]
    # A business's table is refused above with why; any other stranger is the model's to name.
    known = {
        name: table
        for name, table in data.items()
        if name in HOST_TABLES or name not in Config.model_fields
    }
    context = {"base_dir": file.parent, "environ": environ}
    try:
        tables = HostFileConfig.model_validate(known, context=context)
    except ValidationError as exc:
        found = problem_lines(exc, known, root=HostFileConfig)
        raise ConfigError(problems + [f"{written_as}: {line}" for line in found]) from None
    if not tables.host.businesses_dir.is_dir():
        problems.append(
            f"{written_as}: [host] businesses_dir: {tables.host.businesses_dir} is not a "
            "directory; create it (its every *.toml is one business)"
        )
    if problems:
        raise ConfigError(problems)
    written = {name: known.get(name, {}) for name in HOST_TABLES if name != "host"}
    return Host(
        file, tables.host, tables.server, tables.storage, tables.metrics, tables.logging,
        written=written, environ=environ, channel_texts=channel_texts,
    )  # fmt: skip


def load_host_or_report(path: Path, channel_texts: ChannelTextsSource | None = None) -> Host | None:
    """The host at ``path``; None once its problems are printed on stderr, one per line (what
    every ``deliverybot`` command that reads a host does)."""
    try:
        return load_host(path, channel_texts=channel_texts)
    except ConfigError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        return None
