"""The order of the packages of ``bot`` and ``conversations``, declared once, ground floor first.

A package is ``conversations`` (the whole core), or one name under ``bot``: a folder
(``bot.store``) or a module standing alone (``bot.settings``); ``bot`` itself is its
``__init__``. A package imports only packages on its own floor or below, never one above, not
under ``TYPE_CHECKING`` and not inside a function either; and no packages import each other in
a loop, on one floor or across several. ``tests/test_import_layers.py`` reads every import of
the code and holds it against this file, so a new package is placed here before it is used.

The few imports that still run against the order are named in ``KNOWN_CROSSINGS``, each with
why it stands and what removes it; an import the list does not name fails the test, and so does
an entry the code no longer has.
"""

from __future__ import annotations

from typing import Final, NamedTuple


class Floor(NamedTuple):
    """One floor: its packages, and what they are to the floors above."""

    packages: tuple[str, ...]
    holds: str


class Crossing(NamedTuple):
    """One import against the order that is known, and why it still stands."""

    importer: str
    imported: str
    reason: str


FLOORS: Final = (
    Floor(
        (
            "bot",
            "bot.channel_kind",
            "bot.chat_ref",
            "bot.clocks",
            "bot.layers",
            "bot.limit_kinds",
            "bot.log_context",
            "bot.periods",
            "bot.staff_roles",
        ),
        "values and names that import nothing of the bot",
    ),
    Floor(("conversations",), "the pure core: flows, steps, sessions, the texts' catalogue"),
    Floor(("bot.chatlocks", "bot.jobs"), "one chat's turns in order; the one scheduler"),
    Floor(("bot.store",), "persistence behind a protocol; locks, leadership, budgets"),
    Floor(("bot.metrics",), "what is recorded, and /metrics over the store's gauges"),
    Floor(("bot.partner",), "the Partner API adapter: wire models, errors, client, signing"),
    Floor(
        ("bot.config", "bot.geo", "bot.sandbox", "bot.web", "bot.whatsapp_fake"),
        "the TOML's sections; the geocoder; the simulated service; the web app's doors; the "
        "simulated WhatsApp Cloud API",
    ),
    Floor(
        ("bot.relay", "bot.store_from_config", "bot.shell_store", "bot.tracking"),
        "partner events to chats, the channels' protocol; the store the config names, and a "
        "shell command's action on it; the rider's position to the customer",
    ),
    Floor(
        ("bot.funnel", "bot.privacy", "bot.safety", "bot.staff"),
        "where orders stop; personal data kept no longer than needed; blocks and limits on "
        "customers; staff's sign-in links",
    ),
    Floor(("bot.ordering",), "the chat service, the creates and their follow-up, the desk"),
    Floor(
        ("bot.channels", "bot.handoff", "bot.webapp"),
        "channels' registrations; operators' hand-off; the map Mini App",
    ),
    Floor(("bot.staff_console",), "the operators' web console: its pages and actions"),
    Floor(("bot.console", "bot.telegram", "bot.whatsapp"), "the channel adapters that draw a turn"),
    Floor(
        ("bot.channel_texts", "bot.seams", "bot.settings"),
        "every shipped channel's words; what the core is built from: seams and settings",
    ),
    Floor(("bot.core_services",), "the core as a channel sees it"),
    Floor(("bot.agents", "bot.bot_core"), "the agent channels beside the core that builds all"),
    Floor(("bot.demo", "bot.runtime"), "the processes: the demo and the running bot"),
    Floor(("bot.hosting",), "many businesses in one process, each built when it is used"),
    Floor(("bot.cli", "bot.hosting_cli"), "the command line"),
    Floor(("bot.__main__",), "python -m bot"),
)

KNOWN_CROSSINGS: Final[tuple[Crossing, ...]] = ()
"""Imports against the order that still stand: none. An import that has to cross for a while
is named here with its reason, so the list is read, and shrinks, in review."""


def package_of(module: str) -> str:
    """The package (as ``FLOORS`` names it) that the dotted ``module`` belongs to."""
    parts = module.split(".")
    if parts[0] == "conversations":
        return "conversations"
    return ".".join(parts[:2])


def floor_of(package: str) -> int | None:
    """The floor ``package`` stands on, ground floor 0; None when no floor names it."""
    for number, floor in enumerate(FLOORS):
        if package in floor.packages:
            return number
    return None
