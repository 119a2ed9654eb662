"""``parse_search``: what a staff member typed in the customers' search, read.

===============================  ===========================================================
``Ada Okafor``, ``okaf``         a part of a name: the name the customer's orders gave, or an
                                 agent channel's reference for them (case-blind)
``+234 802 123 4567``, ``0802..``  a phone, written any way the bot reads one (``phonenumbers``
                                 in the business's region): their orders' or their proven one
``123456789``                    a Telegram user id, and the phone it may also be
``telegram:1900``, ``console:1``  a customer by channel and id (``agents:3``: an agent
                                 channel's customer by the bot's own number)
``whatsapp:+234 802 123 4567``   a WhatsApp customer by the number they write from (a phone
                                 search finds them too)
``shop-app:cust-42``             an agent channel's customer by the channel's reference
===============================  ===========================================================

Anything malformed is refused with one sentence (``CustomersRefused``): nothing typed, too
long, a channel the bot does not know, an id that is not a number, something written as a
phone (a ``+``, or digits with separators) that is not one. Refused before the store is asked
for any customer; the agent channels it knows are read to name them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from bot.chat_ref import AGENTS, CONSOLE, TELEGRAM, WHATSAPP, UserRef
from bot.store import Store
from conversations.phones import normalise_phone
from conversations.texts.catalogue import Catalogue

MAX_SEARCH: Final = 64
"""The longest search: a name, a phone written loosely, an agent reference."""
MIN_NAME: Final = 2
MAX_ID_DIGITS: Final = 15  # Telegram's ids stay below 2**52; longer digits name nobody
_BY_NUMBER: Final = (TELEGRAM, CONSOLE, AGENTS)  # channels whose customers are a number
_PHONE_LIKE: Final = re.compile(r"\+?[0-9][0-9 ().-]*")
_ECHOED: Final = 40


@dataclass(frozen=True)
class CustomersQuery:
    """A search, valid: ``typed`` as typed (trimmed) and what it looks for; a customer
    named by ``channel:customer`` who does not exist is a query that finds nobody."""

    typed: str
    name: str | None = None
    phone: str | None = None  # E.164
    user: UserRef | None = None


@dataclass(frozen=True)
class CustomersRefused:
    """Why the search was refused, for the staff member."""

    reason: str


async def parse_search(
    catalogue: Catalogue, store: Store, typed: str, *, phone_region: str
) -> CustomersQuery | CustomersRefused:
    """What ``typed`` looks for (see the module docstring), or why it is refused."""
    typed = typed.strip()
    if not typed:
        return _refused(catalogue, "refused_empty")
    if len(typed) > MAX_SEARCH:
        return _refused(catalogue, "refused_long", limit=MAX_SEARCH)
    channel, colon, rest = typed.partition(":")
    if colon:
        return await _written(catalogue, store, typed, channel.strip(), rest.strip(), phone_region)
    if typed.isdecimal():
        user = UserRef(TELEGRAM, int(typed)) if len(typed) <= MAX_ID_DIGITS else None
        return CustomersQuery(typed, phone=normalise_phone(typed, phone_region), user=user)
    if _PHONE_LIKE.fullmatch(typed):
        phone = normalise_phone(typed, phone_region)
        if phone is None:
            return _refused(catalogue, "refused_phone", typed=_echo(typed))
        return CustomersQuery(typed, phone=phone)
    if len(typed) < MIN_NAME:
        return _refused(catalogue, "refused_short", least=MIN_NAME)
    return CustomersQuery(typed, name=typed)


async def _written(
    catalogue: Catalogue, store: Store, typed: str, channel: str, rest: str, phone_region: str
) -> CustomersQuery | CustomersRefused:
    """``channel:rest``: a customer by their channel's number (a WhatsApp customer's is a
    phone, read in ``phone_region`` when written locally), or an agent's reference."""
    if channel in _BY_NUMBER:
        if not rest.isdecimal() or len(rest) > MAX_ID_DIGITS:
            return _refused(catalogue, "refused_number", typed=_echo(typed), channel=channel)
        return CustomersQuery(typed, user=UserRef(channel, int(rest)))
    if channel == WHATSAPP:
        # Digits alone carry their country code, as WhatsApp writes them; a "0..." is local.
        number = rest if rest.startswith(("+", "0")) or not rest.isdecimal() else f"+{rest}"
        phone = normalise_phone(number, phone_region)
        if phone is None:
            return _refused(catalogue, "refused_number", typed=_echo(typed), channel=channel)
        return CustomersQuery(typed, user=UserRef(WHATSAPP, int(phone.removeprefix("+"))))
    agent_channels = await store.customer_search.agent_channels()
    if channel not in agent_channels:
        known = ", ".join((*_BY_NUMBER, WHATSAPP, *agent_channels))
        return _refused(catalogue, "refused_channel", channel=_echo(channel), channels=known)
    if not rest:
        return _refused(catalogue, "refused_number", typed=_echo(typed), channel=channel)
    return CustomersQuery(typed, user=await store.agents.user(channel, rest))


def _echo(value: str) -> str:
    return value if len(value) <= _ECHOED else value[: _ECHOED - 1] + "…"


def _refused(catalogue: Catalogue, key: str, **values: object) -> CustomersRefused:
    return CustomersRefused(catalogue.say(f"console_web.customers.{key}", **values))
