"""``scan_businesses``: every business of a host as its files say now, cheap to repeat.

A scan reads each ``*.toml`` of ``[host] businesses_dir`` (sorted; names starting with "."
ignored, among them ``.removed/`` and a file being written by ``deliverybot businesses add``)
into a ``BusinessEntry``: its file, the SHA-256 of its content, and its ``Config`` or the
problems that refuse it. A broken file is refused and the others still load; two files sharing
what must be one business's are both refused (``bot.config.business_duplicates``).

Instances watch the directory by scanning it every ``[host] watch_seconds`` with the previous
scan in hand: a file whose (mtime_ns, size) did not change, and was not written in the moments
before the previous scan looked, is not even read again; one whose content hashes the same is
not validated again. ``diff_scans`` says which businesses were added, changed or removed
between two scans.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Final

from bot.config.business_duplicates import Fingerprint, Owner, duplicate_problems, fingerprints
from bot.config.business_files import business_config
from bot.config.config_errors import ConfigError
from bot.config.host_loading import SINGLE_BUSINESS, Host, load_host_or_report
from bot.config.loader import read_bytes
from bot.config.root import Config
from bot.config.texts_section import ChannelTextsSource

RACY_NS: Final = 2_000_000_000
"""A file modified this close before a scan looked may change again within the same mtime
(coarse file-system clocks): the next scan reads it again rather than trust its stat."""


@dataclass(frozen=True)
class BusinessEntry:
    """One business file as a scan found it.

    ``parsed`` is the file's ``Config`` when the file itself is valid; ``problems`` says why
    the business is refused (its file's problems, or a value shared with another business),
    one line each naming the file and the key. ``config`` is what to run: ``parsed`` when
    nothing refuses it.
    """

    name: str
    file: Path
    sha256: str
    mtime_ns: int
    size: int
    parsed: Config | None
    problems: tuple[str, ...]
    own_problems: tuple[str, ...] = field(repr=False)
    fingerprints: tuple[Fingerprint, ...] = field(repr=False)

    @property
    def config(self) -> Config | None:
        """The business's ``Config`` to run; None when the business is refused."""
        return None if self.problems else self.parsed

    @property
    def ok(self) -> bool:
        """Whether the business runs."""
        return not self.problems


@dataclass(frozen=True)
class BusinessScan:
    """Every business of ``host`` at ``started_ns`` (``time.time_ns()``), by name, sorted."""

    host: Host
    entries: Mapping[str, BusinessEntry]
    started_ns: int

    @property
    def ready(self) -> dict[str, Config]:
        """The businesses that run, by name."""
        return {
            name: entry.parsed
            for name, entry in self.entries.items()
            if entry.parsed is not None and entry.ok
        }

    @property
    def refused(self) -> dict[str, tuple[str, ...]]:
        """The businesses refused, by name, with why."""
        return {name: entry.problems for name, entry in self.entries.items() if not entry.ok}

    def problems(self) -> list[str]:
        """Every refused business's problems, in the order of the names."""
        return [line for entry in self.entries.values() for line in entry.problems]


@dataclass(frozen=True)
class ScanChanges:
    """What changed between two scans among the businesses that run (``added``, ``changed``:
    another content, ``removed``: gone, or refused now), and the businesses newly refused or
    refused for other reasons than before (``refused``, to report once)."""

    added: tuple[str, ...] = ()
    changed: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    refused: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.added or self.changed or self.removed or self.refused)


def scan_businesses(host: Host, previous: BusinessScan | None = None) -> BusinessScan:
    """Every business of ``host``, reusing what ``previous`` (a scan of the same host) read
    of the files that did not change. A single-business file's host has one business,
    ``default``, its file's ``Config``. Raises ``ConfigError`` when ``businesses_dir`` cannot
    be listed (keep the previous scan then: a directory gone for a moment is no removal).
    """
    started_ns = time.time_ns()
    if host.single is not None:
        only = _single_entry(host, host.single)
        return BusinessScan(host, {SINGLE_BUSINESS: only}, started_ns)
    before = previous.entries if previous is not None and previous.host is host else {}
    since_ns = previous.started_ns if previous is not None else 0
    directory = host.section.businesses_dir
    loaded: dict[str, BusinessEntry] = {}
    for name, stat in _business_files(directory):
        entry = _scan_file(host, directory, name, stat, before.get(name), since_ns)
        if entry is not None:
            loaded[entry.name] = entry
    if loaded.keys() == before.keys() and all(loaded[name] is before[name] for name in loaded):
        return BusinessScan(host, before, started_ns)  # nothing changed: nor did duplicates
    return BusinessScan(host, _with_duplicates_refused(loaded), started_ns)


def diff_scans(old: BusinessScan, new: BusinessScan) -> ScanChanges:
    """What ``new`` changes of ``old``, among the businesses that run."""
    was, now = old.ready, new.ready
    added = tuple(name for name in now if name not in was)
    removed = tuple(name for name in was if name not in now)
    changed = tuple(
        name for name in now if name in was and old.entries[name].sha256 != new.entries[name].sha256
    )
    refused = tuple(
        name
        for name, problems in new.refused.items()
        if name not in old.entries or old.entries[name].problems != problems
    )
    return ScanChanges(added, changed, removed, refused)


def content_sha256(raw: bytes) -> str:
    """The SHA-256 of a business file's content, in hex (``BusinessEntry.sha256``)."""
    return hashlib.sha256(raw).hexdigest()


def _business_files(directory: Path) -> list[tuple[str, os.stat_result]]:
    """The business names of ``directory`` (its ``*.toml`` files' stems), sorted, each with
    its file's ``stat``."""
    found = []
    try:
        with os.scandir(directory) as listing:
            for item in listing:
                if not item.name.endswith(".toml") or item.name.startswith("."):
                    continue
                with contextlib.suppress(FileNotFoundError):  # gone meanwhile: not listed
                    if item.is_file():
                        found.append((item.name.removesuffix(".toml"), item.stat()))
    except OSError as exc:
        raise ConfigError([f"{directory}: cannot be listed ({exc.strerror})"]) from None
    return sorted(found, key=lambda pair: pair[0])


def _scan_file(
    host: Host,
    directory: Path,
    name: str,
    stat: os.stat_result,
    before: BusinessEntry | None,
    since_ns: int,
) -> BusinessEntry | None:
    """Business ``name``'s entry; None when its file went away meanwhile."""
    if (
        before is not None
        and (before.mtime_ns, before.size) == (stat.st_mtime_ns, stat.st_size)
        and stat.st_mtime_ns < since_ns - RACY_NS
    ):
        return before
    file = directory / f"{name}.toml"
    try:
        # Read after its stat: a write in between makes the next scan read it again.
        raw = read_bytes(file)
    except ConfigError as exc:
        if not file.exists():
            return None
        return _entry(file, "", stat, None, tuple(exc.problems))
    sha256 = content_sha256(raw)
    if before is not None and before.sha256 == sha256:  # touched, not changed
        return replace(before, mtime_ns=stat.st_mtime_ns, size=stat.st_size)
    try:
        config = business_config(host, file.stem, raw, file, base_dir=file.parent)
    except ConfigError as exc:
        return _entry(file, sha256, stat, None, tuple(exc.problems))
    return _entry(file, sha256, stat, config, ())


def _entry(
    file: Path,
    sha256: str,
    stat: os.stat_result,
    parsed: Config | None,
    own_problems: tuple[str, ...],
) -> BusinessEntry:
    return BusinessEntry(
        name=file.stem,
        file=file,
        sha256=sha256,
        mtime_ns=stat.st_mtime_ns,
        size=stat.st_size,
        parsed=parsed,
        problems=own_problems,
        own_problems=own_problems,
        fingerprints=() if parsed is None else fingerprints(parsed),
    )


def _single_entry(host: Host, config: Config) -> BusinessEntry:
    raw = read_bytes(host.file)
    stat = host.file.stat()
    return _entry(host.file, content_sha256(raw), stat, config, ())


def _with_duplicates_refused(loaded: dict[str, BusinessEntry]) -> dict[str, BusinessEntry]:
    """``loaded`` with every business that shares a name or a value with another refused (and
    one that no longer does, reused from a previous scan, no longer refused)."""
    owners = [Owner(entry.name, entry.file, entry.fingerprints) for entry in loaded.values()]
    shared = duplicate_problems(owners)
    refused = {
        name: entry.own_problems + tuple(shared.get(name, ())) for name, entry in loaded.items()
    }
    return {
        name: entry if entry.problems == refused[name] else replace(entry, problems=refused[name])
        for name, entry in loaded.items()
    }


def load_business_or_report(
    path: Path, business: str | None, channel_texts: ChannelTextsSource | None = None
) -> tuple[str, Config] | None:
    """One business of the file at ``path``, by name, with its ``Config``: a single-business
    file's own (``business`` None or ``default``), or business ``business`` of a host file
    (a shell command acts on one business's store: ``--business NAME``). None once what is
    wrong is printed on stderr, one problem a line."""
    host = load_host_or_report(path, channel_texts)
    if host is None:
        return None
    if host.single is not None:
        if business not in (None, SINGLE_BUSINESS):
            print(
                f"{path}: --business {business}: this file is one business's, not a "
                "host's (it has no [host] table); leave --business out",
                file=sys.stderr,
            )
            return None
        return SINGLE_BUSINESS, host.single
    scan = scan_businesses(host)
    if business is None:
        names = ", ".join(scan.entries) or "none yet"
        print(
            f"{path}: a host file serves many businesses: name one with --business NAME "
            f"(its businesses: {names})",
            file=sys.stderr,
        )
        return None
    entry = scan.entries.get(business)
    if entry is None:
        print(
            f"{path}: --business {business}: no business of that name in "
            f"{host.section.businesses_dir}",
            file=sys.stderr,
        )
        return None
    if entry.config is None:
        for problem in entry.problems:
            print(problem, file=sys.stderr)
        return None
    return business, entry.config
