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
from typing import TYPE_CHECKING, TypeAlias

from bot.periods import since_seconds
from bot.safety.safety_errors import SafetyError
from bot.shell_store import EXIT_USAGE, add_config_options, run_on_store, shell_time

if TYPE_CHECKING:
    from bot.chat_ref import UserRef
    from bot.config import Config
    from bot.store import Store
    from conversations.texts.catalogue import Catalogue


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
    add_config_options(block)
    block.add_argument("customer", metavar="CUSTOMER")
    block.add_argument("--reason", default=None, help="why, kept in the block and the trail")
    block.set_defaults(run=_block)
    unblock = actions.add_parser("unblock", help="let a customer order again")
    add_config_options(unblock)
    unblock.add_argument("customer", metavar="CUSTOMER")
    unblock.set_defaults(run=_unblock)
    listing = actions.add_parser("list", help="the blocked customers, oldest block first")
    add_config_options(listing)
    listing.set_defaults(run=_list)


def add_audit(subparsers: Subparsers) -> None:
    """Register ``audit``."""
    parser = subparsers.add_parser(
        "audit",
        help="print the audit trail: operators' actions and their outcomes",
        description="Every recorded event since --since, oldest first: when, who, what, about "
        "whom, and how it ended. Kept for [privacy] audit_days.",
    )
    add_config_options(parser)
    parser.add_argument(
        "--since", default="7d", help="the period, as days or hours: 7d, 24h (default: 7d)"
    )
    parser.set_defaults(run=_audit)


def _block(args: argparse.Namespace) -> int:
    async def act(store: Store, config: Config, catalogue: Catalogue) -> str:
        from bot.safety.customer_blocking import CustomerBlocking
        from bot.safety.customer_names import customer_shown

        user = await _customer(catalogue, store, args.customer)
        done = await CustomerBlocking(store).block(user, by=SHELL, reason=args.reason)
        return done.said(catalogue, await customer_shown(store, user))

    return run_on_store(args, act, _Refused)


def _unblock(args: argparse.Namespace) -> int:
    async def act(store: Store, config: Config, catalogue: Catalogue) -> str:
        from bot.safety.customer_blocking import CustomerBlocking, unblocked_said
        from bot.safety.customer_names import customer_shown

        user = await _customer(catalogue, store, args.customer)
        lifted = await CustomerBlocking(store).unblock(user, by=SHELL)
        return unblocked_said(catalogue, await customer_shown(store, user), lifted)

    return run_on_store(args, act, _Refused)


def _list(args: argparse.Namespace) -> int:
    async def act(store: Store, config: Config, catalogue: Catalogue) -> str:
        from bot.safety.customer_names import customer_shown

        blocks = await store.customer_blocks.all()
        if not blocks:
            return "no customer is blocked"
        lines = [
            f"{shell_time(b.blocked_at)}  {await customer_shown(store, b.user)}  by {b.blocked_by}"
            + (f"  ({b.reason})" if b.reason else "")
            for b in blocks
        ]
        return "\n".join(lines)

    return run_on_store(args, act, _Refused)


def _audit(args: argparse.Namespace) -> int:
    try:
        seconds = since_seconds(args.since)
    except ValueError as exc:
        print(f"audit: --since: {exc}", file=sys.stderr)
        return EXIT_USAGE

    async def act(store: Store, config: Config, catalogue: Catalogue) -> str:
        from bot.safety.customer_names import subject_shown

        entries = await store.audit.since(store.clock() - seconds)
        if not entries:
            return f"nothing recorded in the last {args.since}"
        lines = [
            f"{shell_time(e.at)}  {e.actor}  {e.action}  {await subject_shown(store, e.subject)}  "
            f"{e.outcome}" + (f"  ({e.detail})" if e.detail else "")
            for e in entries
        ]
        return "\n".join(lines)

    return run_on_store(args, act, _Refused)


class _Refused(SafetyError):
    """The command named no customer; the reason is printed."""


async def _customer(catalogue: Catalogue, store: Store, typed: str) -> UserRef:
    from bot.safety.customer_names import NameRefused, customer_named

    user = await customer_named(catalogue, store, typed)
    if isinstance(user, NameRefused):
        raise _Refused(user.reason)
    return user
