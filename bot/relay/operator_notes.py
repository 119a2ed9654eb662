"""The service's ``agent_notes`` as operators read them: a note asking for what the bot has
already done is said once in the bot's words instead, so staff are never told to do it again.

The notes are free text for whoever relays the event (the spec gives them no codes), so the
two tasks the bot does itself are recognised by their words:

==================  ===========================================================================
the tracking link   a note asking to share, send or give the tracking link, when the customer
                    has had it from the bot (``tracking``: its first answer or an update gave
                    it; an agent channel's app gets it with every event)
the drop-off code   any note about the code (it names a code or an OTP) of an event whose code
                    the bot took to hand to the receiver only (``code``)
==================  ===========================================================================

Every other note is passed on as the service wrote it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from conversations.texts import deliveries_texts as wording
from conversations.texts.catalogue import Catalogue

_TRACKING: Final = re.compile(r"\btracking\b", re.IGNORECASE)
_ASKS_TO_PASS_ON: Final = re.compile(r"\b(share|send|give|forward|tell)\b", re.IGNORECASE)
_CODE: Final = re.compile(r"\b(code|otp)\b", re.IGNORECASE)


def operator_notes(
    catalogue: Catalogue, notes: Sequence[str], *, tracking: bool, code: bool
) -> list[str]:
    """``notes`` for operators: ``tracking`` says the customer has the tracking link from the
    bot, ``code`` that the bot took this event's drop-off code for the receiver (see the
    module docstring). Said from ``catalogue`` (the business's)."""
    shown: list[str] = []
    for note in (note.strip() for note in notes):
        if not note:
            continue
        if code and _CODE.search(note):
            note = wording.note_code_handled(catalogue)
        elif tracking and _TRACKING.search(note) and _ASKS_TO_PASS_ON.search(note):
            note = wording.note_tracking_sent(catalogue)
        if note not in shown:
            shown.append(note)
    return shown
