"""The delivery an operator names: its full id, or the short reference every chat shows
(``3F2A9C1E``, the id's first block), so operators can type what they read.

A reference is a prefix of the id, matched case-blind among the business's newest deliveries
(``SEARCHED``, through the Partner API's list). It must name exactly one: a reference that
matches several, or none, or that is no reference at all, is refused with a plain reason and
nothing is asked of the API for it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from bot.partner.client import PartnerClient
from conversations.texts.catalogue import Catalogue

MIN_REF: Final = 6  # shorter prefixes would match too much to mean anything
SEARCHED: Final = 500  # a reference is looked for among this many newest deliveries
_FULL_ID: Final = re.compile(r"[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}", re.IGNORECASE)
_REF: Final = re.compile(r"[0-9a-f][0-9a-f-]*", re.IGNORECASE)


@dataclass(frozen=True)
class RefRefused:
    """``typed`` names no single delivery; ``reason`` says why, for the operator (in the
    words ``delivery_id_for`` was given)."""

    reason: str


async def delivery_id_for(words: Catalogue, client: PartnerClient, typed: str) -> str | RefRefused:
    """The id of the delivery ``typed`` names (a full id is taken as it is, the API decides),
    or why it names none, in ``words``; raises ``PartnerError`` when the list cannot be read."""
    typed = typed.strip()
    if _FULL_ID.fullmatch(typed):
        return typed
    if len(typed) < MIN_REF or not _REF.fullmatch(typed):
        return RefRefused(words.say("ops.not_a_reference", typed=_echo(typed), shortest=MIN_REF))
    wanted = typed.casefold()
    found: list[str] = []
    looked = 0
    async for delivery in client.iter_deliveries():
        looked += 1
        if delivery.id.casefold().startswith(wanted):
            found.append(delivery.id)
        if len(found) > 1 or looked >= SEARCHED:
            break
    if not found:
        return RefRefused(
            words.say(
                "ops.no_delivery_among_newest", ref=typed.upper(), count=words.number(SEARCHED)
            )
        )
    if len(found) > 1:
        return RefRefused(
            words.say("ops.ambiguous_reference", ref=typed.upper(), ids=", ".join(found))
        )
    return found[0]


def _echo(typed: str) -> str:
    return typed if len(typed) <= 40 else typed[:39] + "…"
