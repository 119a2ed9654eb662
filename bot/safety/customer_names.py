"""The customer an operator names in ``/block`` or ``deliverybot customers block``.

=============================  ===============================================================
``3F2A9C1E`` (a reference)     the customer who ordered that delivery: a prefix of its id, at
                               least ``MIN_REFERENCE`` characters, or the full id
``123456789``                  a Telegram user, by their id
``telegram:123456789``         the same, spelled out (``console:1`` for a console user)
``whatsapp:2348012345678``     a WhatsApp customer, by their number: digits with the country
                               code, or written as a phone (``whatsapp:+234 801 234 5678``)
``+234 801 234 5678``          the same: an international number alone (a ``+`` first; spaces,
                               dashes, dots and brackets as people write them)
``shop-app:cust-42``           an agent channel's customer: the channel, a colon, and the
                               customer reference the channel's app sends
=============================  ===============================================================

A WhatsApp customer's id is their number in E.164 digits (without the ``+``), so a number is
read with ``phonenumbers`` (``conversations.phones``) and only a valid one with its country
code names them; anything else after ``whatsapp:`` or a ``+`` is refused with the forms to
write. Digits alone stay a Telegram user id: a national number (``0801...``) names nobody
without the business's region, which is not the operators' to guess here.

Digits alone are a Telegram user id; when they also start the id of a delivery the bot knows
(a short reference can be all digits), the name is refused as ambiguous and the operator is
asked to write ``telegram:<id>`` or the delivery's full id. A bare name that matches no
delivery is answered with the ``channel:customer`` form: the agent channels that know a
customer by that reference, or an example.

Operators read customers back the way they name them (``customer_shown``): an agent channel's
customer as ``shop-app:cust-42``, never the bot's inner ``agents:1``; a WhatsApp customer as
``whatsapp:+2348012345678``, their number as a phone (which names them again when typed), also
where the audit trail wrote ``whatsapp:2348012345678`` (``subject_shown``). An erased
customer's stand-in (a negative tombstone) is shown as it is.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from bot.chat_ref import AGENTS, CONSOLE, TELEGRAM, WHATSAPP, UserRef
from bot.store import Store
from conversations.phones import normalise_phone
from conversations.texts.catalogue import Catalogue

MIN_REFERENCE: Final = 6  # as ``/assign``: shorter prefixes would match too much
_REFERENCE: Final = re.compile(r"[0-9a-f][0-9a-f-]*", re.IGNORECASE)
_BY_ID: Final = (TELEGRAM, CONSOLE)  # channels whose customers are named by a plain number
# phonenumbers' "unknown region": a WhatsApp number is named with its country code.
_NO_REGION: Final = "ZZ"
_PHONE_PART: Final = re.compile(r"[0-9().-]+")  # a group of a number written with spaces


@dataclass(frozen=True)
class NameRefused:
    """``typed`` names no single customer; ``reason`` says why, for the operator."""

    reason: str


async def customer_named(catalogue: Catalogue, store: Store, typed: str) -> UserRef | NameRefused:
    """The customer ``typed`` names (see the module docstring), or why it names none (said
    from ``catalogue``, for the operator who typed it)."""
    typed = typed.strip()
    channel, colon, rest = typed.partition(":")
    if typed.startswith("+"):
        return _whatsapp_customer(catalogue, typed, typed)
    if colon:
        if channel == WHATSAPP:
            return _whatsapp_customer(catalogue, typed, rest)
        if channel in _BY_ID:
            if not rest.isdecimal():
                return NameRefused(catalogue.say("safety.not_a_customer", typed=_echo(typed)))
            return UserRef(channel, int(rest))
        user = await store.agents.user(channel, rest) if channel and rest else None
        if user is None:
            return NameRefused(catalogue.say("safety.no_agent_customer", typed=_echo(typed)))
        return user
    if len(typed) < MIN_REFERENCE and not typed.isdecimal():
        return NameRefused(catalogue.say("safety.not_a_customer", typed=_echo(typed)))
    ordered = await _ordered(store, typed)
    if typed.isdecimal():
        if ordered:
            return NameRefused(catalogue.say("safety.digits_ambiguous", typed=typed))
        return UserRef(TELEGRAM, int(typed))
    if not ordered:
        return NameRefused(await _no_such_delivery(catalogue, store, typed))
    customers = {user for _, user in ordered}
    if len(customers) > 1:
        ids = ", ".join(delivery_id for delivery_id, _ in ordered)
        return NameRefused(catalogue.say("ops.ambiguous_reference", ref=typed.upper(), ids=ids))
    return customers.pop()


def name_and_rest(words: Sequence[str]) -> tuple[str, list[str]]:
    """An operator command's words (at least one) split into the customer's name and what
    follows it (``/block``'s reason): a WhatsApp number written with spaces
    (``+234 801 234 5678``) is one name, the longest run of words that makes a valid number."""
    first = words[0]
    number = first.removeprefix(f"{WHATSAPP}:")
    if number.startswith("+") or number != first:
        for end in range(len(words), 1, -1):
            if all(_PHONE_PART.fullmatch(word) for word in words[1:end]):
                written = " ".join(words[:end])
                if normalise_phone(written.removeprefix(f"{WHATSAPP}:"), _NO_REGION):
                    return written, list(words[end:])
    return first, list(words[1:])


async def customer_shown(store: Store, user: UserRef) -> str:
    """``user`` as operators name them: ``channel:customer`` for an agent channel's customer,
    ``whatsapp:+2348012345678`` for a WhatsApp customer, ``telegram:123456789`` for a
    Telegram user."""
    return shown_as(user, await store.agents.name_of(user))


def shown_as(user: UserRef, agent_name: tuple[str, str] | None) -> str:
    """``customer_shown`` when the agent channel's (channel, reference) for ``user`` is known
    already (None: not an agent channel's customer)."""
    if agent_name is not None:
        return f"{agent_name[0]}:{agent_name[1]}"
    if user.channel == WHATSAPP and user.id > 0:  # a number; a tombstone is negative
        return f"{WHATSAPP}:+{user.id}"
    return str(user)


async def subject_shown(store: Store, subject: str) -> str:
    """An audit trail's ``subject`` as operators name it: a customer written there as the
    bot's inner ``agents:<n>`` is shown by its channel's name and its own reference, a
    WhatsApp customer's ``whatsapp:<digits>`` as their number."""
    channel, colon, rest = subject.partition(":")
    if colon and channel in (AGENTS, WHATSAPP) and rest.isdecimal():
        return await customer_shown(store, UserRef(channel, int(rest)))
    return subject


def _whatsapp_customer(catalogue: Catalogue, typed: str, number: str) -> UserRef | NameRefused:
    """The WhatsApp customer whose number is ``number`` (with its country code, a ``+`` or
    not), or why ``typed`` names none."""
    e164 = normalise_phone(number, _NO_REGION)
    if e164 is None:
        return NameRefused(catalogue.say("safety.not_a_whatsapp_number", typed=_echo(typed)))
    return UserRef(WHATSAPP, int(e164.removeprefix("+")))


async def _no_such_delivery(catalogue: Catalogue, store: Store, typed: str) -> str:
    """No delivery has the reference ``typed``: say so, then how an agent channel's customer
    is named (the channels that know a customer ``typed``, else an example, unless ``typed``
    looks like a delivery reference)."""
    missing = catalogue.say("safety.no_such_delivery", ref=typed.upper())
    channels = await store.agents.channels_of(typed)
    if channels:
        names = ", ".join(f"{channel}:{typed}" for channel in channels)
        return f"{missing} {catalogue.say('safety.agent_customer_known_as', names=names)}"
    if _REFERENCE.fullmatch(typed):
        return missing  # written as a reference: a mistyped one, most likely
    example = f"shop-app:{_echo(typed)}"
    return f"{missing} {catalogue.say('safety.agent_customer_form', example=example)}"


async def _ordered(store: Store, typed: str) -> list[tuple[str, UserRef]]:
    if len(typed) < MIN_REFERENCE or not _REFERENCE.fullmatch(typed):
        return []
    return await store.customer_blocks.customers_of(typed)


def _echo(typed: str) -> str:
    return typed if len(typed) <= 40 else typed[:39] + "…"
