"""Drop-off codes never pass through a hand-off: a staff message that carries one of the
customer's deliveries' codes is not relayed.

A code may reach only the delivery's receiver, through the bot (``bot.ordering.
receiver_handoff``); staff can read it elsewhere (the service's dashboard) and could type it
into a reply by mistake. The codes the bot still holds are those waiting for their receiver
(``store.otp``), meant for someone other than the customer. A code whose receiver is the
customer is sent to them straight away and never held (it is theirs anyway); a held code is
erased once it reached its receiver, so from then on there is nothing left to compare.

A code is found in a message as a run of digits (spaces, dots and dashes between digits
ignored, the way people write "12 34" or "12-34") equal to the code; a code with letters is
found as a word, in any case.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from bot.chat_ref import UserRef
from bot.store import Store

DELIVERIES_CHECKED: Final = 20  # the customer's newest deliveries whose codes are compared
_DIGIT_RUN: Final = re.compile(r"\d(?:[\s.\-]?\d)*")
_SEPARATORS: Final = re.compile(r"[\s.\-]")


def carries_code(text: str, codes: Iterable[str]) -> bool:
    """Whether ``text`` contains one of ``codes`` (see the module docstring)."""
    runs = {_SEPARATORS.sub("", run) for run in _DIGIT_RUN.findall(text)}
    words = set(re.findall(r"\w+", text.casefold()))
    for code in codes:
        compact = _SEPARATORS.sub("", code)
        if not compact:
            continue
        if compact.isdigit() and compact in runs:
            return True
        if not compact.isdigit() and compact.casefold() in words:
            return True
    return False


async def waiting_codes(store: Store, user: UserRef) -> list[str]:
    """The drop-off codes of ``user``'s deliveries that still wait for their receiver."""
    codes = []
    for link in await store.deliveries.for_user(user, DELIVERIES_CHECKED):
        held = await store.otp.get(link.delivery_id)
        if held is not None and held.code:
            codes.append(held.code)
    return codes
