"""``deliverybot customers block|unblock|list`` and ``deliverybot audit``: the same blocks as
the operators' ``/block`` and ``/unblock``, and the audit trail, from the shell.

::

    deliverybot customers block --config bot.toml 3F2A9C1E --reason "fifty orders an hour"
    deliverybot customers unblock --config bot.toml 123456789
    deliverybot customers list --config bot.toml
    deliverybot audit --config bot.toml --since 7d

They open the store the config names (the SQLite file, or the shared PostgreSQL database, so a
block made here holds on every instance at once). Only argparse is imported until a command
runs, as ``bot.cli`` requires of every command. A block or unblock from here is written to the
audit trail as done by ``shell``, and said as staff read everything: in the business's
language (the config's ``[texts]``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

from bot.periods import since_seconds
from bot.safety.safety_errors import SafetyError

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from bot.chat_ref import UserRef
    from bot.store import Store
    from conversations.texts.catalogue import Catalogue

    _Act: TypeAlias = Callable[[Store, Catalogue], Awaitable[str]]

EXIT_OK = 0
EXIT_FAILURE = 1
EXIT_USAGE = 2
SHELL = "shell"  # who acted, in the audit trail

Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


def add_customers(subparsers: Subparsers) -> None:
    """Register ``customers`` and its three actions."""
    parser = subparsers.add_parser(
        "customers",
        help="block, unblock or list customers who may not order",
        description="Block a customer (no new orders are taken from them, their open orders "
        "are dropped, their deliveries are still relayed), unblock them, or list the blocked. "
        "A customer is named as operators name them in /block: a delivery reference, a "
        "Telegram user id, or an agent channel's customer as channel:customer.",
    )
    actions = parser.add_subparsers(title="actions", metavar="ACTION", required=True)
    block = actions.add_parser("block", help="stop a customer ordering")
    _config_option(block)
    block.add_argument("customer", metavar="CUSTOMER")
    block.add_argument("--reason", default=None, help="why, kept in the block and the trail")
    block.set_defaults(run=_block)
    unblock = actions.add_parser("unblock", help="let a customer order again")
    _config_option(unblock)
    unblock.add_argument("customer", metavar="CUSTOMER")
    unblock.set_defaults(run=_unblock)
    listing = actions.add_parser("list", help="the blocked customers, oldest block first")
    _config_option(listing)
    listing.set_defaults(run=_list)


def add_audit(subparsers: Subparsers) -> None:
    """Register ``audit``."""
    parser = subparsers.add_parser(
        "audit",
        help="print the audit trail: operators' actions and their outcomes",
        description="Every recorded event since --since, oldest first: when, who, what, about "
        "whom, and how it ended. Kept for [storage] audit_days.",
    )
    _config_option(parser)
    parser.add_argument(
        "--since", default="7d", help="the period, as days or hours: 7d, 24h (default: 7d)"
    )
    parser.set_defaults(run=_audit)


def _config_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--config", required=True, type=Path, metavar="FILE", help="the TOML configuration file"
    )


def _block(args: argparse.Namespace) -> int:
    async def act(store: Store, catalogue: Catalogue) -> str:
        from bot.safety.customer_blocking import CustomerBlocking
        from bot.safety.customer_names import customer_shown

        user = await _customer(catalogue, store, args.customer)
        done = await CustomerBlocking(store).block(user, by=SHELL, reason=args.reason)
        return done.said(catalogue, await customer_shown(store, user))

    return _with_store(args, act)


def _unblock(args: argparse.Namespace) -> int:
    async def act(store: Store, catalogue: Catalogue) -> str:
        from bot.safety.customer_blocking import CustomerBlocking, unblocked_said
        from bot.safety.customer_names import customer_shown

        user = await _customer(catalogue, store, args.customer)
        lifted = await CustomerBlocking(store).unblock(user, by=SHELL)
        return unblocked_said(catalogue, await customer_shown(store, user), lifted)

    return _with_store(args, act)


def _list(args: argparse.Namespace) -> int:
    async def act(store: Store, catalogue: Catalogue) -> str:
        from bot.safety.customer_names import customer_shown

        blocks = await store.customer_blocks.all()
        if not blocks:
            return "no customer is blocked"
        lines = [
            f"{_when(b.blocked_at)}  {await customer_shown(store, b.user)}  by {b.blocked_by}"
            + (f"  ({b.reason})" if b.reason else "")
            for b in blocks
        ]
        return "\n".join(lines)

    return _with_store(args, act)


def _audit(args: argparse.Namespace) -> int:
    try:
        seconds = since_seconds(args.since)
    except ValueError as exc:
        print(f"audit: --since: {exc}", file=sys.stderr)
        return EXIT_USAGE

    async def act(store: Store, catalogue: Catalogue) -> str:
        from bot.safety.customer_names import subject_shown

        entries = await store.audit.since(store.clock() - seconds)
        if not entries:
            return f"nothing recorded in the last {args.since}"
        lines = [
            f"{_when(e.at)}  {e.actor}  {e.action}  {await subject_shown(store, e.subject)}  "
            f"{e.outcome}" + (f"  ({e.detail})" if e.detail else "")
            for e in entries
        ]
        return "\n".join(lines)

    return _with_store(args, act)


class _Refused(SafetyError):
    """The command named no customer; the reason is printed."""


async def _customer(catalogue: Catalogue, store: Store, typed: str) -> UserRef:
    from bot.safety.customer_names import NameRefused, customer_named

    user = await customer_named(catalogue, store, typed)
    if isinstance(user, NameRefused):
        raise _Refused(user.reason)
    return user


def _with_store(args: argparse.Namespace, act: _Act) -> int:
    """Open the config's store, run ``act`` on it with the business's catalogue (its
    ``[texts]``, in its default language), print what it says."""
    from bot.config import load_config_or_report

    config = load_config_or_report(args.config, channel_texts=args.channel_texts)
    if config is None:
        return EXIT_USAGE
    import asyncio
    import time

    from bot.store import StoreError
    from bot.store_from_config import open_store

    catalogue = config.texts.texts().business_catalogue()

    async def run() -> str:
        store = await open_store(config.storage, time.time, channels=args.channel_kinds())
        try:
            return await act(store, catalogue)
        finally:
            await store.close()

    try:
        said = asyncio.run(run())
    except _Refused as refused:
        print(refused, file=sys.stderr)
        return EXIT_USAGE
    except (StoreError, OSError) as exc:
        print(f"{args.config}: {exc}", file=sys.stderr)
        return EXIT_FAILURE
    print(said)
    return EXIT_OK


def _when(moment: float) -> str:
    import datetime

    return datetime.datetime.fromtimestamp(moment, datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
