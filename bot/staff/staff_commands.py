"""``deliverybot staff invite|list|signout``: the console's staff, from the shell.

::

    deliverybot staff invite --config bot.toml "Bola Ahmed" --role dispatcher
    deliverybot staff list --config bot.toml
    deliverybot staff signout --config bot.toml "Bola Ahmed"

``invite`` prints a one-time sign-in link for someone without Telegram (or a new one for an
invited member whose link expired); ``list`` prints every member's number, name, role and
when they were last seen, never a token; ``signout`` ends every session of one member, on
every instance, and their links not yet used. A name several members share is named by its
number from ``list`` instead (``#3``). They open the store the config names, as ``customers``
does; each issue and sign-out is in the audit trail as done by ``shell``. Only argparse is
imported until a command runs, as ``bot.cli`` requires.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, TypeAlias

from bot.shell_store import add_config_options, run_on_store, shell_time
from bot.staff.staff_errors import StaffError
from bot.staff_roles import STAFF_ROLES

if TYPE_CHECKING:
    from bot.config import Config
    from bot.store import StaffMember, Store
    from conversations.texts.catalogue import Catalogue


Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


class _StaffRefused(StaffError):
    """The command cannot be done as asked; the reason (from the catalogue) is printed."""


def add_staff(subparsers: Subparsers) -> None:
    """Register ``staff`` and its three actions."""
    parser = subparsers.add_parser(
        "staff",
        help="invite, list or sign out the web console's staff",
        description="Staff sign in to the web console with a one-time link: operators ask for "
        "theirs with /console in an operator chat; invite prints one for someone without "
        "Telegram. list shows who is staff; signout ends a member's sessions everywhere.",
    )
    actions = parser.add_subparsers(title="actions", metavar="ACTION", required=True)
    invite = actions.add_parser("invite", help="print a one-time sign-in link for NAME")
    add_config_options(invite)
    invite.add_argument("name", metavar="NAME")
    invite.add_argument(
        "--role", required=True, choices=STAFF_ROLES, help="what they may do in the console"
    )
    invite.set_defaults(run=_invite)
    listing = actions.add_parser("list", help="every staff member: role, last seen")
    add_config_options(listing)
    listing.set_defaults(run=_list)
    signout = actions.add_parser("signout", help="end every session of NAME (or #number)")
    add_config_options(signout)
    signout.add_argument("name", metavar="NAME")
    signout.set_defaults(run=_signout)


def _invite(args: argparse.Namespace) -> int:
    async def act(store: Store, config: Config, catalogue: Catalogue) -> str:
        from bot.staff.staff_door import StaffDoor, staff_name

        door = StaffDoor.from_settings(
            store, config.console, config.server.public_base_url, clock=store.clock
        )
        if door is None:
            raise _StaffRefused(catalogue.say("staff.console_off"))
        name = staff_name(args.name)
        if name is None:
            raise _StaffRefused(catalogue.say("staff.bad_name"))
        link = await door.invite(name, args.role)
        role = catalogue.say(f"staff.role.{args.role}")
        minutes = door.link_minutes
        return catalogue.say("staff.invited", name=name, role=role, minutes=minutes, link=link)

    return run_on_store(args, act, _StaffRefused)


def _list(args: argparse.Namespace) -> int:
    async def act(store: Store, config: Config, catalogue: Catalogue) -> str:
        members = await store.staff.members()
        if not members:
            return catalogue.say("staff.none")
        return "\n".join(_line(catalogue, member) for member in members)

    return run_on_store(args, act, _StaffRefused)


def _signout(args: argparse.Namespace) -> int:
    async def act(store: Store, config: Config, catalogue: Catalogue) -> str:
        from bot.staff.staff_door import SHELL, sign_out_everywhere

        member = await _member_named(store, catalogue, args.name)
        await sign_out_everywhere(store, member, by=SHELL)
        return catalogue.say("staff.signed_out", name=member.name)

    return run_on_store(args, act, _StaffRefused)


async def _member_named(store: Store, catalogue: Catalogue, typed: str) -> StaffMember:
    """The one member ``typed`` names: ``#<number>`` (``list``'s), or a name only one has."""
    number = typed.strip().removeprefix("#")
    if typed.strip().startswith("#") and number.isdecimal():
        found = await store.staff.member(int(number))
        if found is None:
            raise _StaffRefused(catalogue.say("staff.no_member", name=typed.strip()))
        return found
    named = await store.staff.named(typed.strip())
    if not named:
        raise _StaffRefused(catalogue.say("staff.no_member", name=typed.strip()))
    if len(named) > 1:
        numbers = ", ".join(f"#{member.id}" for member in named)
        said = catalogue.say(
            "staff.several_named", count=len(named), name=typed.strip(), numbers=numbers
        )
        raise _StaffRefused(said)
    return named[0]


def _line(catalogue: Catalogue, member: StaffMember) -> str:
    """One member in ``list``: number, name, role, account, when last seen."""
    seen = (
        catalogue.say("staff.never_seen")
        if member.last_seen_at is None
        else catalogue.say("staff.seen", when=shell_time(member.last_seen_at))
    )
    account = "" if member.account is None else f"  {member.account}"
    role = catalogue.say(f"staff.role.{member.role}")
    return f"#{member.id}  {member.name}  {role}{account}  {seen}"
