"""``deliverybot customers block|unblock|list|export|forget`` and ``deliverybot audit``: the
same blocks as the operators' ``/block`` and ``/unblock``, a customer's data rights ("my data",
"forget me": ``bot.privacy.customer_requests``), and the audit trail, from the shell.

::

    deliverybot customers block --config bot.toml 3F2A9C1E --reason "fifty orders an hour"
    deliverybot customers unblock --config bot.toml 123456789
    deliverybot customers list --config bot.toml
    deliverybot customers export --config bot.toml 3F2A9C1E --out ada.json
    deliverybot customers forget --config bot.toml 3F2A9C1E
    deliverybot audit --config bot.toml --since 7d

They open the store the config names (the SQLite file, or the shared PostgreSQL database, so a
block made here holds on every instance at once). Only argparse is imported until a command
runs, as ``bot.cli`` requires of every command. A block or unblock from here is written to the
audit trail as done by ``shell``, and said as staff read everything: in the business's
language (the config's ``[texts]``). An export or a forget is in the trail as ``shell`` too
(without the data); a forget asks the person at the terminal first, unless ``--yes`` (a script
says so; without a terminal and without ``--yes`` nothing is erased), and an export written to
``--out`` is readable by its owner only: it is the customer's personal data.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

from bot.periods import since_seconds
from bot.safety.safety_errors import SafetyError
from bot.shell_store import EXIT_USAGE, add_config_options, run_on_store, shell_time

if TYPE_CHECKING:
    from bot.chat_ref import UserRef
    from bot.config import Config
    from bot.store import ForgetOutcome, Store
    from conversations.texts.catalogue import Catalogue


SHELL = "shell"  # who acted, in the audit trail

Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


def add_customers(subparsers: Subparsers) -> None:
    """Register ``customers`` and its three actions."""
    parser = subparsers.add_parser(
        "customers",
        help="block, unblock or list customers who may not order; export or forget their data",
        description="Block a customer (no new orders are taken from them, their open orders "
        "are dropped, their deliveries are still relayed), unblock them, or list the blocked; "
        "export everything kept about a customer, or forget them (their data erased, their "
        "finished deliveries kept anonymous, an open one erased once it ends). "
        "A customer is named as operators name them in /block: a delivery reference, a "
        "Telegram user id, a WhatsApp number with its country code (+2348012345678, or "
        "whatsapp:2348012345678), or an agent channel's customer as channel:customer.",
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
    export = actions.add_parser("export", help="everything kept about a customer, as JSON")
    add_config_options(export)
    export.add_argument("customer", metavar="CUSTOMER")
    export.add_argument(
        "--out", type=Path, metavar="FILE", default=None, help="write it there (default: stdout)"
    )
    export.set_defaults(run=_export)
    forget = actions.add_parser("forget", help="erase a customer's data (the books kept anonymous)")
    add_config_options(forget)
    forget.add_argument("customer", metavar="CUSTOMER")
    forget.add_argument("--yes", action="store_true", help="do not ask first (for scripts)")
    forget.set_defaults(run=_forget)


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


def _export(args: argparse.Namespace) -> int:
    async def act(store: Store, config: Config, catalogue: Catalogue) -> str:
        import json

        from bot.privacy.customer_requests import export_customer
        from bot.safety.customer_names import customer_shown

        user = await _customer(catalogue, store, args.customer)
        exported = await export_customer(store, user, actor=SHELL)
        text = json.dumps(exported.document, ensure_ascii=False, indent=2)
        if args.out is None:
            return text
        _write_private(args.out, text + "\n")
        return f"{await customer_shown(store, user)}: written to {args.out}"

    return run_on_store(args, act, _Refused)


def _forget(args: argparse.Namespace) -> int:
    async def act(store: Store, config: Config, catalogue: Catalogue) -> str:
        from bot.privacy.customer_requests import forget_customer
        from bot.safety.customer_names import customer_shown

        user = await _customer(catalogue, store, args.customer)
        shown = await customer_shown(store, user)
        if not args.yes:
            _confirm(shown)
        outcome = await forget_customer(store, user, actor=SHELL)
        return forgotten_said(shown, outcome)

    return run_on_store(args, act, _Refused)


def forgotten_said(shown: str, outcome: ForgetOutcome) -> str:
    """What ``deliverybot customers forget`` prints once ``shown`` (the customer as operators
    name them) is forgotten: rows erased per table, deliveries kept anonymous, and the open
    ones whose erasure waits for their end."""
    lines = [f"{shown}: forgotten" if not outcome.pending else f"{shown}: forgotten, pending"]
    erased = ", ".join(f"{table} {rows}" for table, rows in sorted(outcome.erased.items()))
    lines.append(f"erased: {erased or 'nothing was kept'}")
    lines.append(f"deliveries kept anonymous for the books: {outcome.anonymised_deliveries}")
    if outcome.open_deliveries:
        lines.append("open, erased once they end: " + ", ".join(sorted(outcome.open_deliveries)))
    elif outcome.pending:
        lines.append("work under way in their chats: erased once it ends")
    return "\n".join(lines)


def _confirm(shown: str) -> None:
    """Ask the person at the terminal; anything but yes (or no terminal) refuses."""
    if not sys.stdin.isatty():
        raise _Refused(f"forget {shown}: no terminal to confirm on; add --yes to erase")
    print(
        f"Erase what is kept about {shown}? This cannot be undone. [y/N] ",
        end="",
        file=sys.stderr,
        flush=True,
    )
    answer = sys.stdin.readline().strip().lower()
    if answer not in ("y", "yes"):
        raise _Refused(f"forget {shown}: not confirmed, nothing was erased")


def _write_private(path: Path, text: str) -> None:
    """Write ``text`` to ``path``, readable and writable by its owner only."""
    import os

    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(descriptor, 0o600)  # an existing file keeps its mode through O_CREAT
    with os.fdopen(descriptor, "w", encoding="utf-8") as out:
        out.write(text)


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
