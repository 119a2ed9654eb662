"""``deliverybot businesses add|remove|list|check``, and ``check-config`` on a host file.

::

    deliverybot businesses --config host.toml add shop.toml        # or add --name shop FILE
    deliverybot businesses --config host.toml remove shop
    deliverybot businesses --config host.toml list [--json]
    deliverybot businesses --config host.toml check                # as check-config host.toml

(``--config`` may also follow the action, as every other command takes it.) Each command works
on the files of ``[host] businesses_dir`` only: the running instances watch that directory and
apply an added, changed or removed business themselves, without a restart. ``add`` checks the
file against the host and every other business before it is copied in, atomically, so an
instance never reads half a file; ``remove`` moves the file to ``.removed/`` (kept, never
deleted) and the instances drain the business.

Only argparse is imported until a command runs, as ``bot.cli`` requires of every command; a
command loads the configuration's models and nothing of the running bot.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Final, TypeAlias

if TYPE_CHECKING:
    from bot.config import Config
    from bot.config.business_scan import BusinessEntry, BusinessScan
    from bot.config.host_loading import Host

EXIT_OK: Final = 0
EXIT_BROKEN: Final = 1  # the host is valid, and some business of it is refused
EXIT_USAGE: Final = 2  # bad usage, or a file that cannot be used
REMOVED_DIR: Final = ".removed"
"""Under ``businesses_dir``: where ``remove`` keeps a removed business's file."""

Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


def add_businesses(subparsers: Subparsers) -> None:
    """Register ``businesses`` and its four actions."""
    parser = subparsers.add_parser(
        "businesses",
        help="add, remove, list or check the businesses of a host file",
        description="A host file ([host] table) serves every business whose file is in its "
        "[host] businesses_dir; running instances apply a file added, changed or removed "
        "there without a restart. These actions change that directory safely. See "
        'docs/operators.md, "Hosting many businesses".',
    )
    parser.add_argument(
        "--config", dest="host_config", type=Path, metavar="FILE",
        help="the host file (or --config after the action)",
    )  # fmt: skip
    actions = parser.add_subparsers(title="actions", metavar="ACTION", required=True)
    add = actions.add_parser(
        "add",
        help="check a business file and copy it in (a change when the name is there)",
        description="Check FILE against the host file and every other business (no token, "
        "key, secret or WhatsApp number another business has), then copy it atomically into "
        "businesses_dir as NAME.toml. A NAME already there is a change, said so. Problems are "
        "printed one per line, with exit code 2; nothing is copied then.",
    )
    _config_option(add)
    add.add_argument("file", type=Path, metavar="FILE", help="the business file to add")
    add.add_argument(
        "--name", default=None, help="the business's name (default: FILE's name without .toml)"
    )
    add.set_defaults(run=_add)
    remove = actions.add_parser(
        "remove",
        help="take a business off: its file is moved to .removed/, kept",
        description=f"Move NAME.toml to businesses_dir/{REMOVED_DIR}/NAME.<UTC time>.toml; "
        "the instances drain the business (its data stays in its store).",
    )
    _config_option(remove)
    remove.add_argument("name", metavar="NAME", help="the business's name")
    remove.set_defaults(run=_remove)
    listing = actions.add_parser(
        "list",
        help="every business: its file, its channels, ok or why it is refused",
    )
    _config_option(listing)
    listing.add_argument("--json", action="store_true", help="one JSON array, for scripts")
    listing.set_defaults(run=_list)
    check = actions.add_parser(
        "check",
        help="check the host file and every business file (as check-config does)",
        description="As check-config on the host file: the host's shared settings, then each "
        "business with its public addresses; each problem on stderr naming its file and key. "
        "Exit code 1 when some business is refused, 2 when the host file itself is.",
    )
    _config_option(check)
    check.set_defaults(run=_check)


def check_host(host: Host) -> int:
    """``check-config`` on a host file: its shared settings redacted, each business's status
    and public addresses on stdout, every problem and warning on stderr. Exit code 1 when some
    business is refused."""
    from bot.config.business_scan import scan_businesses
    from bot.config.redaction import render_tables_redacted

    scan = scan_businesses(host)
    print(f"# {host.file}: a valid host file. Shared settings, secrets redacted:")
    tables = {
        "host": host.section,
        "server": host.server,
        "storage": host.storage,
        "metrics": host.metrics,
        "logging": host.logging,
    }
    print(render_tables_redacted(tables), end="")
    for warning in host.storage.warnings(polling=False):
        print(f"warning: {host.file}: {warning}", file=sys.stderr)
    refused = scan.refused
    print(
        f"\n# {len(scan.entries)} businesses in {host.businesses_dir}: "
        f"{len(scan.entries) - len(refused)} ready, {len(refused)} refused"
    )
    for entry in scan.entries.values():
        _print_business(entry, host.server.public_base_url)
    for line in scan.problems():
        print(line, file=sys.stderr)
    return EXIT_BROKEN if refused else EXIT_OK


def _print_business(entry: BusinessEntry, host_url: str | None) -> None:
    config = entry.config
    if config is None:
        print(f"# {entry.name}: refused ({entry.file})")
        return
    print(f"# {entry.name}: ok ({entry.file}); channels: {', '.join(channels_of(config))}")
    if config.server.public_base_url is not None:
        print(f"#   its public address: {config.server.public_base_url}")
    if config.has_telegram and host_url is not None:
        # The host sets it when the business is added: Telegram posts to the host's root,
        # which finds the business by the secret token.
        print(f"#   Telegram's webhook (set by the host, by secret token): {host_url}/telegram")
    partner = config.partner_webhook_url()
    if partner is not None:
        print(f"#   register this webhook endpoint in its dashboard: {partner}")
    whatsapp = config.whatsapp_webhook_url()
    if whatsapp is not None:
        print(f"#   its Meta app's WhatsApp callback URL: {whatsapp}")
    for warning in config.warnings():
        print(f"warning: {entry.file}: {warning}", file=sys.stderr)


def channels_of(config: Config) -> list[str]:
    """The channels a business takes orders on: ``telegram``, ``whatsapp``, ``agents:<name>``
    per agent channel, and each ``[channels.<name>]``."""
    found = ["telegram"] if config.has_telegram else []
    found += ["whatsapp"] if config.whatsapp.configured else []
    found += [f"agents:{channel.name}" for channel in config.agents.configured]
    return found + list(config.channels)


def _config_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", type=Path, metavar="FILE", help="the host file")


def _host(args: argparse.Namespace, action: str) -> Host | None:
    """The host file the command names once (before or after the action), loaded; None once
    what is wrong is printed."""
    from bot.config.host_loading import load_host_or_report

    given = [path for path in (args.host_config, args.config) if path is not None]
    if len(given) != 1:
        print(f"businesses {action}: give the host file once, as --config FILE", file=sys.stderr)
        return None
    host = load_host_or_report(given[0], channel_texts=args.channel_texts)
    if host is not None and host.single is not None:
        print(
            f"businesses {action}: {host.file} is a single-business file (no [host] table): "
            "it has no businesses_dir to change",
            file=sys.stderr,
        )
        return None
    return host


def _check(args: argparse.Namespace) -> int:
    host = _host(args, "check")
    return EXIT_USAGE if host is None else check_host(host)


def _list(args: argparse.Namespace) -> int:
    from bot.config.business_scan import scan_businesses

    host = _host(args, "list")
    if host is None:
        return EXIT_USAGE
    entries = list(scan_businesses(host).entries.values())
    if args.json:
        rows = [
            {
                "name": entry.name,
                "file": str(entry.file),
                "channels": _channels_found(entry),
                "ok": entry.ok,
                "problems": list(entry.problems),
            }
            for entry in entries
        ]
        print(json.dumps(rows, indent=2))
        return EXIT_OK
    if not entries:
        print(f"no businesses in {host.businesses_dir}")
    for entry in entries:
        channels = ", ".join(_channels_found(entry)) or "-"
        print(f"{entry.name}  {entry.file}  {channels}  {'ok' if entry.ok else 'refused'}")
        for problem in entry.problems:
            print(f"    {problem}")
    return EXIT_OK


def _channels_found(entry: BusinessEntry) -> list[str]:
    """The channels of a business's file, when the file itself is valid."""
    return [] if entry.parsed is None else channels_of(entry.parsed)


def _add(args: argparse.Namespace) -> int:
    from bot.config.business_scan import scan_businesses

    host = _host(args, "add")
    if host is None:
        return EXIT_USAGE
    name = args.name if args.name is not None else args.file.stem
    checked = _checked_business(host, name, args.file, scan_businesses(host))
    if checked is None:
        return EXIT_USAGE
    directory = _businesses_dir(host)
    target = directory / f"{name}.toml"
    before = target.read_bytes() if target.is_file() else None
    if before == checked:
        print(f"{name}: unchanged ({target} already holds this file)")
        return EXIT_OK
    _write_atomically(target, checked, mode=args.file.stat().st_mode & 0o777)
    if before is None:
        print(f"added {name}: {target}; every instance serves it within [host] watch_seconds")
    else:
        print(
            f"changed {name}: {target} replaced; every instance applies it within [host] "
            "watch_seconds"
        )
    return EXIT_OK


def _checked_business(host: Host, name: str, file: Path, scan: BusinessScan) -> bytes | None:
    """``file``'s content when it may be business ``name`` beside every other one of
    ``scan``; None once its problems are printed, one per line."""
    from bot.config import ConfigError
    from bot.config.business_duplicates import Owner, duplicate_problems, fingerprints
    from bot.config.business_files import business_config
    from bot.config.loader import read_bytes

    try:
        raw = read_bytes(file)
        # Checked where it will live: its relative paths start at businesses_dir.
        config = business_config(host, name, raw, file, base_dir=_businesses_dir(host))
    except ConfigError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        return None
    others = [
        Owner(entry.name, entry.file, entry.fingerprints)
        for entry in scan.entries.values()
        if entry.name != name
    ]
    shared = duplicate_problems([*others, Owner(name, file, fingerprints(config))]).get(name, [])
    for problem in shared:
        print(problem, file=sys.stderr)
    return None if shared else raw


def _write_atomically(target: Path, content: bytes, *, mode: int) -> None:
    """``target`` holds ``content`` whole, or as before: written beside it under a name the
    scans ignore, flushed to the disk, then renamed over it."""
    scratch = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        with scratch.open("wb") as out:
            out.write(content)
            out.flush()
            os.fsync(out.fileno())
        scratch.chmod(mode)
        os.replace(scratch, target)
    finally:
        scratch.unlink(missing_ok=True)
    _sync_directory(target.parent)


def _sync_directory(directory: Path) -> None:
    """The rename into ``directory`` on the disk too, not only in the page cache."""
    handle = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(handle)
    finally:
        os.close(handle)


def _remove(args: argparse.Namespace) -> int:
    host = _host(args, "remove")
    if host is None:
        return EXIT_USAGE
    name: str = args.name
    directory = _businesses_dir(host)
    target = directory / f"{name}.toml"
    if "/" in name or name.startswith(".") or not target.is_file():
        print(f"businesses remove: no business {name!r} in {directory}", file=sys.stderr)
        return EXIT_USAGE
    removed = directory / REMOVED_DIR
    removed.mkdir(mode=0o700, exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    kept = removed / f"{name}.{stamp}.toml"
    again = 1
    while kept.exists():  # removed twice within a second
        again += 1
        kept = removed / f"{name}.{stamp}-{again}.toml"
    os.replace(target, kept)
    _sync_directory(directory)
    print(
        f"removed {name}: its file is kept as {kept}; every instance drains it within "
        "[host] watch_seconds"
    )
    return EXIT_OK


def _businesses_dir(host: Host) -> Path:
    directory = host.businesses_dir
    assert directory is not None  # _host refuses a single-business file
    return directory
