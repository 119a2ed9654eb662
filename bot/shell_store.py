"""``run_on_store``: a shell command's action on the store its config names, said to the person
at the shell (``deliverybot customers ...``, ``audit``, ``staff ...``).

The config is loaded (its problems printed, exit 2), the store opened and closed around the
action, which gets the config and the business's catalogue (its ``[texts]``, in its default
language, as staff read everything); what it returns is printed (exit 0). One of the command's
own refusals is printed on stderr (exit 2), a store that cannot be reached too (exit 1).
Nothing but typing is imported until a command runs, as ``bot.cli`` requires.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from bot.config import Config
    from bot.store import Store
    from conversations.texts.catalogue import Catalogue

    ShellAction: TypeAlias = Callable[[Store, Config, Catalogue], Awaitable[str]]

EXIT_OK = 0
EXIT_FAILURE = 1
EXIT_USAGE = 2


def add_config_options(parser: argparse.ArgumentParser, *, required: bool = True) -> None:
    """``--config FILE`` (``required`` unless the command has another way) and, for a host
    file, ``--business NAME``: the business acted on."""
    from pathlib import Path

    parser.add_argument(
        "--config", required=required, type=Path, metavar="FILE", help="the TOML configuration file"
    )
    parser.add_argument(
        "--business",
        metavar="NAME",
        default=None,
        help="on a host file ([host]): the business to act on (its file's name in businesses_dir)",
    )


def run_on_store(args: argparse.Namespace, act: ShellAction, refused: type[Exception]) -> int:
    """Run ``act`` on the store of ``args.config`` (of ``args.business``'s, on a host file) and
    print what it says; ``refused``: the command's own refusal, whose message is printed as it
    is."""
    from bot.config.business_scan import load_business_or_report

    found = load_business_or_report(args.config, args.business, args.channel_texts)
    if found is None:
        return EXIT_USAGE
    business, config = found
    import asyncio
    import time

    from bot.store import StoreError
    from bot.store_from_config import open_store

    catalogue = config.texts.texts().business_catalogue()

    async def run() -> str:
        store = await open_store(
            config.storage, time.time, channels=args.channel_kinds(), business=business
        )
        try:
            return await act(store, config, catalogue)
        finally:
            await store.close()

    try:
        said = asyncio.run(run())
    except refused as refusal:
        print(refusal, file=sys.stderr)
        return EXIT_USAGE
    except (StoreError, OSError) as exc:
        print(f"{args.config}: {exc}", file=sys.stderr)
        return EXIT_FAILURE
    print(said)
    return EXIT_OK


def shell_time(moment: float) -> str:
    """A stored moment (Unix seconds) as the shell's lists write it: ``2027-01-07 09:30 UTC``."""
    import datetime

    return datetime.datetime.fromtimestamp(moment, datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
