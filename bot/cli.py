"""The ``deliverybot`` command (also ``python -m bot``).

Each subcommand is one ``_add_<name>`` function that registers its parser and sets ``run`` to
the function doing the work; ``COMMANDS`` lists them in the order ``--help`` shows them.
Exit codes: 0 success, 1 the bot could not start, 2 bad usage or a bad configuration file.

Each command imports what it needs when it runs: ``--help`` and ``--version`` load no pydantic
model, no asyncio and no PTB, so they answer at once; ``check-config`` loads the configuration's
models and nothing of the running bot (no PTB, httpx, Starlette, store, Partner API models or
flow engine), so an operator can run it in a loop while editing. ``benchmarks/bench_startup.py``
times them; ``tests/test_startup_imports.py`` keeps the heavy modules out.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

from bot.hosting_cli import add_businesses, check_host
from bot.safety.shell_commands import add_audit, add_customers
from bot.shell_store import add_config_options
from bot.staff.staff_commands import add_staff

if TYPE_CHECKING:
    from bot.channel_kind import ChannelKind
    from bot.config import Config, StorageConfig
    from bot.config.host_loading import Host
    from conversations.texts.catalogue import ChannelTexts

EXIT_OK = 0
EXIT_FAILURE = 1  # the bot could not start
EXIT_USAGE = 2  # argparse's own code for bad usage; a bad config file is bad usage too

# argparse has no public name for what add_subparsers() returns.
Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


def _load(path: Path) -> Config | None:
    """The configuration at ``path``; None once its problems are printed, one per line."""
    from bot.config import load_config_or_report

    return load_config_or_report(path, channel_texts=_channel_texts)


def _channel_texts() -> Sequence[ChannelTexts]:
    """Every shipped channel's words, which ``[texts]`` overrides may name (``bot.channel_texts``;
    imported only when a file has overrides to check, as the catalogue itself)."""
    from bot.channel_texts import shipped_channel_texts

    return shipped_channel_texts()


def _channel_kinds() -> Sequence[ChannelKind]:
    """Every shipped channel's kind, told to a store a command opens: its chat locks are keyed
    by their tags (``bot.runtime.channel_starters``; imported only when a command opens the
    store)."""
    from bot.runtime.channel_starters import SHIPPED_CHANNEL_KINDS

    return SHIPPED_CHANNEL_KINDS


def _add_config_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--config", required=True, type=Path, metavar="FILE", help="the TOML configuration file"
    )


def _check_config(args: argparse.Namespace) -> int:
    from bot.config import render_redacted

    given = [path for path in (args.path, args.config) if path is not None]
    if len(given) != 1:
        print(
            "check-config: give the configuration file once, as PATH or --config FILE",
            file=sys.stderr,
        )
        return EXIT_USAGE
    path = given[0]
    from bot.config.host_loading import load_host_or_report

    host = load_host_or_report(path, channel_texts=_channel_texts)
    if host is None:
        return EXIT_USAGE
    if host.single is None:  # a host file: the host, then every business file
        checked = check_host(host)
        connected = _check_connection(host.storage) if args.connect else EXIT_OK
        return max(checked, connected)
    config = host.single
    print(f"# {path}: valid. Effective settings, secrets redacted:")
    print(render_redacted(config), end="")
    webhook_url = config.partner_webhook_url()
    if webhook_url is not None:
        print(f"\n# Register this webhook endpoint in the dashboard: {webhook_url}")
    whatsapp_url = config.whatsapp_webhook_url()
    if whatsapp_url is not None:
        print(f"# Type this callback URL into the Meta app's WhatsApp webhook: {whatsapp_url}")
    for note in config.notes():  # keys in their old place: they work, and are named
        print(f"note: {note}", file=sys.stderr)
    for warning in config.warnings():
        print(f"warning: {warning}", file=sys.stderr)
    if args.connect:
        return _check_connection(config.storage)
    return EXIT_OK


def _check_connection(storage: StorageConfig) -> int:
    """``check-config --connect``: open the configured database the way ``run`` would."""
    database = storage.shared_database
    if database is None:
        print(f"# storage: SQLite file {storage.path}; nothing to connect to")
        return EXIT_OK
    # Imported here, once there is a database to reach: checking a file needs no store.
    import asyncio

    from bot.store_from_config import reach_database

    reached, line = asyncio.run(reach_database(database))
    print(line, file=sys.stdout if reached else sys.stderr)
    return EXIT_OK if reached else EXIT_FAILURE


def _add_check_config(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "check-config",
        help="validate a configuration file and print its effective settings",
        description="Validate the file (PATH or --config FILE, as every command takes it) and "
        "print the effective settings with every secret redacted. Problems are printed one per "
        "line on stderr, with exit code 2. A host file ([host] table) is checked with every "
        "business file of its businesses_dir, each problem naming its file; exit code 1 when "
        "some business is refused.",
    )
    parser.add_argument(
        "path", metavar="PATH", type=Path, nargs="?", help="the TOML configuration file"
    )
    parser.add_argument(
        "--config", type=Path, metavar="FILE", help="the TOML configuration file (or PATH)"
    )
    parser.add_argument(
        "--connect",
        action="store_true",
        help="also connect to the configured PostgreSQL database (exit code 1 when it fails)",
    )
    parser.set_defaults(run=_check_config)


def _sandbox(args: argparse.Namespace) -> int:
    # Imported here so check-config stays fast and does not load uvicorn.
    import asyncio

    from bot.sandbox import ScenarioError, default_scenario, load_scenario
    from bot.sandbox.server import serve

    try:
        scenario = load_scenario(args.scenario) if args.scenario else default_scenario()
    except ScenarioError as exc:
        print(exc, file=sys.stderr)
        return EXIT_USAGE
    try:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(serve(scenario, args.host, args.port))
    except (OSError, ValueError) as exc:  # port in use, or a non-loopback host
        print(f"sandbox: {exc}", file=sys.stderr)
        return EXIT_USAGE
    return EXIT_OK


def _add_sandbox(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "sandbox",
        help="run the Partner API sandbox on loopback",
        description="Serve the Partner API simulator on 127.0.0.1 and print its base URL, a "
        "usable API key and the webhook signing secret (sandbox-only values).",
    )
    parser.add_argument(
        "--scenario", type=Path, default=None, help="a scenario TOML file (default: built-in)"
    )
    parser.add_argument(
        "--host", default="127.0.0.1", help="a loopback address (default: %(default)s)"
    )
    parser.add_argument("--port", type=int, default=8787, help="the port (default: %(default)s)")
    parser.set_defaults(run=_sandbox)


def _demo(args: argparse.Namespace) -> int:
    # Imported here: the demo loads the whole bot, which check-config does not need.
    from bot.demo import main as run_demo

    return run_demo(args.scenario, args.script, args.language, channel=args.channel)


def _add_demo(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "demo",
        help="order a delivery in the terminal, against the sandbox in this process",
        description="The whole bot in one process: the Partner API sandbox, the web app, the "
        "relay and the conversation flows, with you as the customer in the terminal. No token "
        "and no network needed. With --script, replay a transcript instead and exit 1 on the "
        "first line that does not match.",
    )
    parser.add_argument(
        "--scenario", type=Path, default=None, help="a sandbox scenario file (default: built-in)"
    )
    parser.add_argument(
        "--script", type=Path, default=None, help="a transcript to replay without a terminal"
    )
    parser.add_argument(
        "--language",
        default=None,
        help="the customer's language, as a Telegram app would give it (en, fr; default: en)",
    )
    parser.add_argument(
        "--channel",
        choices=("console", "whatsapp"),
        default="console",
        help="where you are the customer: the console, or WhatsApp on a simulated Cloud API "
        "in this process (default: %(default)s)",
    )
    parser.set_defaults(run=_demo)


def _run(args: argparse.Namespace) -> int:
    # Before PTB is used: durations as timedelta (RetryAfter.retry_after among them), PTB 23's
    # default, instead of int seconds with a deprecation warning on every read. This process is
    # the bot's own, so its environment is ours to set; importing the bot never changes it.
    os.environ.setdefault("PTB_TIMEDELTA", "true")
    from bot.runtime.json_output import write_json_lines_if_asked

    write_json_lines_if_asked(args.config)  # [logging] format = "json": every line, from here
    from bot.config.host_loading import load_host_or_report

    host = load_host_or_report(args.config, channel_texts=_channel_texts)
    if host is None:
        return EXIT_USAGE
    import asyncio

    # Imported here: the bot (PTB, uvicorn, the engine) is not needed to check a config.
    from bot.runtime import StartupError, configure_logging, serve

    if host.single is None:
        return _run_host(host)
    config = host.single
    configure_logging(config)
    for warning in config.warnings():
        print(f"warning: {warning}", file=sys.stderr)
    try:
        asyncio.run(serve(config))
    except StartupError as exc:
        print(f"run: {exc}", file=sys.stderr)
        return EXIT_FAILURE
    except OSError as exc:  # the port is taken, the data directory is not writable
        print(f"run: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_FAILURE
    return EXIT_OK


def _run_host(host: Host) -> int:
    """``run`` on a host file: every business of its directory (``bot.hosting``)."""
    import asyncio

    from bot.hosting.host_serving import serve_host
    from bot.runtime import StartupError
    from bot.runtime.logs import log_to_stderr, shared_secrets

    redaction = log_to_stderr(host.logging, shared_secrets(host.storage, host.metrics))
    try:
        asyncio.run(serve_host(host, redaction))
    except StartupError as exc:
        print(f"run: {exc}", file=sys.stderr)
        return EXIT_FAILURE
    except OSError as exc:
        print(f"run: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_FAILURE
    return EXIT_OK


def _add_run(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "run",
        help="run the bot (the production command)",
        description="Run the bot with the settings in --config: Telegram (polling or webhook "
        "mode; left out when [telegram] has no token and [[agents.channels]] lists a channel), "
        "the web app, the relay of Partner API events and the other background work, which "
        "this process alone runs. Stops on Ctrl-C, or on SIGTERM after failing /health for "
        "[server] drain_seconds so a proxy leaves it out first. A bad "
        "configuration is reported like check-config does, with exit code 2; a bot that cannot "
        "start (Telegram refuses the token, the port is taken) exits with 1.",
    )
    _add_config_option(parser)
    parser.set_defaults(run=_run)


def _load_business(args: argparse.Namespace) -> tuple[str, Config] | None:
    """The business a command acts on: the file's own, or ``--business``'s of a host file;
    None once the problems are printed."""
    from bot.config.business_scan import load_business_or_report

    return load_business_or_report(args.config, args.business, _channel_texts)


def _mcp(args: argparse.Namespace) -> int:
    found = _load_business(args)
    if found is None:
        return EXIT_USAGE
    business, config = found
    import asyncio

    # Imported here: the MCP SDK and the bot are not needed to check a config.
    from bot.agents.mcp_command import McpListen
    from bot.runtime import configure_logging
    from bot.runtime.mcp_serving import serve_mcp

    # As ``[logging]`` says (level, text or JSON lines), secrets redacted; on stderr, since
    # stdout is the protocol's over stdio.
    configure_logging(config)
    listen = McpListen(args.transport, args.host, args.port)
    try:
        asyncio.run(serve_mcp(config, args.channel, listen, business=business))
    except LookupError as exc:
        print(f"mcp: {exc.args[0]}", file=sys.stderr)
        return EXIT_USAGE
    except OSError as exc:
        print(f"mcp: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_FAILURE
    except KeyboardInterrupt:
        pass
    return EXIT_OK


def _add_mcp(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "mcp",
        help="serve the ordering flows to an LLM agent as an MCP server",
        description="An MCP server for one [[agents.channels]] entry of --config: tools to "
        "order a delivery step by step, list, follow and cancel the customer's deliveries. "
        "Over stdio (an agent host starts it) or streamable HTTP at http://HOST:PORT/mcp "
        "(every request needs the channel's key as Authorization: Bearer). Run it beside "
        "deliverybot run on the same config, which alone relays the deliveries' events and "
        "follows up lost creates. See docs/agents.md.",
    )
    add_config_options(parser)
    parser.add_argument(
        "--channel", required=True, metavar="NAME", help="the [[agents.channels]] name to serve"
    )
    parser.add_argument(
        "--transport", choices=("stdio", "streamable-http"), default="stdio", help="default: stdio"
    )
    parser.add_argument("--host", default="127.0.0.1", help="HTTP only (default: 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8765, help="HTTP only (default: 8765)")
    parser.set_defaults(run=_mcp)


def _report(args: argparse.Namespace) -> int:
    found = _load_business(args)
    if found is None:
        return EXIT_USAGE
    business, config = found
    import asyncio

    from bot.funnel.report_command import report_text

    # Imported here: the store is not needed to check a config.
    from bot.periods import since_seconds
    from bot.store import StoreError

    try:
        since_seconds(args.since)  # said as bad usage before the store is opened
    except ValueError as exc:
        print(f"report: --since: {exc}", file=sys.stderr)
        return EXIT_USAGE
    try:
        text = asyncio.run(
            report_text(config, period=args.since, flow=args.flow, business=business)
        )
    except (StoreError, OSError) as exc:
        print(f"report: {exc}", file=sys.stderr)
        return EXIT_FAILURE
    print(text, end="")
    return EXIT_OK


def _add_report(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "report",
        help="print where customers give up: the funnel per flow and step",
        description="Per flow and step, from the configured store (every instance's): how "
        "many conversations reached the step, answered it, gave up there (drop-off: cancelled, "
        "ended, or idle past [privacy] drafts_days), the median time to answer, how "
        "often it was re-asked and why, how many went back and how many orders were created. "
        "Kept for [storage] funnel_days.",
    )
    add_config_options(parser)
    parser.add_argument(
        "--since", default="7d", help="the period, as days or hours: 7d, 24h (default: 7d)"
    )
    parser.add_argument("--flow", default=None, metavar="NAME", help="one flow only")
    parser.set_defaults(run=_report)


def _migrate_store(args: argparse.Namespace) -> int:
    target = _migration_target(args)
    if target is None:
        return EXIT_USAGE
    dsn, options = target
    import asyncio
    import tempfile

    # Imported here: the store is not needed to check a config.
    from bot.store import StoreError
    from bot.store.pg_from_sqlite import copy_sqlite_to_postgres
    from bot.store.sqlite_holders import held_by_nobody_else

    if not args.source.is_file():
        print(f"migrate-store: {args.source}: no such SQLite file", file=sys.stderr)
        return EXIT_USAGE
    with tempfile.TemporaryDirectory() as scratch:  # the stores' media_dir, unused here
        try:
            # Held alone for the whole copy: refused while a bot runs on the file, and a bot
            # starting on it meanwhile is refused in turn.
            with held_by_nobody_else(args.source):
                copying = copy_sqlite_to_postgres(
                    args.source, dsn, media_dir=Path(scratch), **options
                )
                copied = asyncio.run(copying)
        except StoreError as exc:
            print(f"migrate-store: {exc}; nothing was copied", file=sys.stderr)
            return EXIT_FAILURE
    width = max(len(table) for table, _ in copied)
    for table, rows in copied:
        print(f"{table:<{width}}  {rows:>9,} rows")
    print(f"{'all':<{width}}  {sum(rows for _, rows in copied):>9,} rows copied")
    return EXIT_OK


def _migration_target(args: argparse.Namespace) -> tuple[str, dict[str, Any]] | None:
    """Where ``migrate-store`` copies to: the DSN, and ``copy_sqlite_to_postgres``'s options
    for it (a business's schema, lock namespace and name, from ``--config``); None once what
    is wrong is printed."""
    if args.config is None:
        if args.business is not None or args.business_file is not None:
            print(
                "migrate-store: --business NAME or --business-file FILE goes with --config "
                "FILE (the host file)",
                file=sys.stderr,
            )
            return None
        if args.to is None and args.to_env is None:
            print(
                "migrate-store: name the target: --config FILE (its [storage.postgres]; a "
                "host file's business with --business NAME), or --to-env NAME",
                file=sys.stderr,
            )
            return None
        dsn = args.to if args.to is not None else os.environ.get(args.to_env, "")
        if not dsn:
            print(
                f"migrate-store: environment variable {args.to_env} is empty or not set",
                file=sys.stderr,
            )
            return None
        return dsn, {}
    if args.to is not None or args.to_env is not None:
        print(
            "migrate-store: --config names the target (its [storage.postgres]): leave --to "
            "and --to-env out",
            file=sys.stderr,
        )
        return None
    found = _load_business(args) if args.business_file is None else _business_to_add(args)
    if found is None:
        return None
    business, config = found
    database = config.storage.shared_database
    if database is None:
        print(
            f"migrate-store: {args.config}: business {business}'s [storage] backend is "
            '"sqlite": the copy goes into PostgreSQL ([storage] backend = "postgres" and '
            "[storage.postgres])",
            file=sys.stderr,
        )
        return None
    options = {
        "db_schema": database.db_schema,
        "lock_namespace": database.lock_namespace,
        "business": business,
    }
    return database.dsn.get_secret_value(), options


def _business_to_add(args: argparse.Namespace) -> tuple[str, Config] | None:
    """The business ``--business-file`` would be on the host ``--config`` names (its name the
    file's stem; not in ``businesses_dir`` yet, so no instance serves it while its rows are
    copied); None once what is wrong is printed."""
    from bot.config import ConfigError
    from bot.config.business_files import business_config
    from bot.config.host_loading import load_host_or_report
    from bot.config.loader import read_bytes

    if args.business is not None:
        print("migrate-store: --business or --business-file, not both", file=sys.stderr)
        return None
    host = load_host_or_report(args.config, _channel_texts)
    if host is None:
        return None
    if host.businesses_dir is None:
        print(
            f"migrate-store: {args.config}: --business-file needs a host file ([host] table)",
            file=sys.stderr,
        )
        return None
    file: Path = args.business_file
    try:
        raw = read_bytes(file)
        # As ``businesses add`` reads it: where it will live, relative paths from there.
        config = business_config(host, file.stem, raw, file, base_dir=host.businesses_dir)
    except ConfigError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        return None
    return file.stem, config


def _add_migrate_store(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "migrate-store",
        help="copy a SQLite bot's data into an empty PostgreSQL database or business schema",
        description="Copy every table of the SQLite file (sessions, delivery links, the inbox, "
        "sent marks, the agents' conversations, media rows, the funnel) into PostgreSQL, "
        "printing the rows of each, for a bot moving to several instances or onto a host. "
        "The target is --config's [storage.postgres] (on a host file, the schema b_<name> of "
        "business --business NAME, or of the file --business-file about to be added, made as "
        "the store makes it), or the database --to-env or --to names. Stop the bot first: a "
        "SQLite file a running bot holds is refused, as is a "
        "target that is not empty, one another business owns, or a file of another business "
        "(exit code 1, nothing copied). Then start the bot on PostgreSQL; media_dir stays "
        "where it is, shared by every instance. See docs/operators.md.",
    )
    parser.add_argument(
        "--from", dest="source", required=True, type=Path, metavar="SQLITE_FILE",
        help="the bot's SQLite file ([storage] path)",
    )  # fmt: skip
    add_config_options(parser, required=False)
    parser.add_argument(
        "--business-file", type=Path, default=None, metavar="FILE",
        help="with a host file: the business file about to be added (its name: FILE's, "
        "without .toml), copied into before the host serves it",
    )  # fmt: skip
    target = parser.add_mutually_exclusive_group()
    target.add_argument(
        "--to", metavar="POSTGRES_DSN",
        help="without --config: postgresql://user:password@host:5432/database (visible to "
        "other users in ps: prefer --to-env)",
    )  # fmt: skip
    target.add_argument(
        "--to-env", metavar="NAME", help="without --config: an environment variable holding the DSN"
    )
    parser.set_defaults(run=_migrate_store)


COMMANDS: tuple[Callable[[Subparsers], None], ...] = (
    _add_check_config,
    _add_run,
    _add_report,
    _add_migrate_store,
    _add_mcp,
    _add_sandbox,
    _add_demo,
    add_customers,
    add_audit,
    add_staff,
    add_businesses,
)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("deliverybot")
    except PackageNotFoundError:  # running from a source tree that was never installed
        return "unknown"


class _VersionAction(argparse.Action):
    """``--version``, reading the installed version only when asked (it costs an import)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, help="show the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> None:
        print(f"{parser.prog} {_version()}")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand registered."""
    parser = argparse.ArgumentParser(
        prog="deliverybot",
        description="A Telegram bot for ordering deliveries through the Delivery Partner API.",
    )
    parser.add_argument("--version", action=_VersionAction)
    # Every command that reads a config checks its [texts] overrides against these words.
    # Every command that opens the store tells it these channels' chat lock tags.
    parser.set_defaults(channel_texts=_channel_texts, channel_kinds=_channel_kinds)
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND", required=True)
    for add_command in COMMANDS:
        add_command(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default: ``sys.argv[1:]``) and return the exit code."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:  # --help, --version and usage errors: argparse already printed
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    run: Callable[[argparse.Namespace], int] = args.run
    return run(args)
