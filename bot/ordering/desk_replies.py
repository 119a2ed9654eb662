"""What ``CustomerDesk`` answers: plain data, the same for every channel.

Each reply has an ``outcome`` a program can branch on (a JSON API's status, an agent's next
step) and ``text``, the sentence for the customer in plain words (``conversations.texts``).
A channel draws the text and, where it has them, buttons from the rest; it never words an
outcome itself. Nothing here carries a service error's text or code.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

StatusOutcome = Literal["found", "last_known", "unknown", "none_yet"]
"""``found``: as the service has it now; ``last_known``: the service could not be asked, so what
the chat was last told; ``unknown``: no delivery of the customer's by that reference (also
another customer's); ``none_yet``: the customer has ordered nothing."""

CancelOutcome = Literal[
    "cancelled", "usage", "bad_reason", "unknown", "not_allowed", "busy", "unreachable", "refused"
]
"""``usage``: no delivery named; ``bad_reason``: the reason is not 3 to 500 characters;
``not_allowed``: the status no longer permits it; ``busy`` / ``unreachable`` / ``refused``: the
service was rate limited, could not be reached, or did not accept the call."""

HandoffOutcome = Literal[
    "ask_for_contact",
    "handed_over",
    "unknown_link",
    "already_sent",
    "not_own_contact",
    "unreadable_phone",
    "wrong_phone",
    "not_for_handoff",
]
"""``handed_over``: ``codes`` are for this chat; ``not_for_handoff``: the contact was not the
hand-off's to answer (it belongs to the order conversation)."""


class _Reply(BaseModel):
    model_config = ConfigDict(frozen=True)


class DeliveryEntry(_Reply):
    """One of the customer's deliveries, as the customer may see it."""

    delivery_id: str
    ref: str  # the short reference chats use ("3F2A9C1E")
    status: str  # the service's status value, for programs
    status_text: str  # the status in words ("picked up")
    ordered_at: datetime
    ordered_on: str  # the order day in words ("07 Jan 2027")
    tracking_url: str | None = None
    line: str  # the entry as one line of a list


class StatusReply(_Reply):
    """``CustomerDesk.status``: one delivery in plain words."""

    outcome: StatusOutcome
    text: str
    delivery: DeliveryEntry | None = None


class DeliveryPage(_Reply):
    """``CustomerDesk.deliveries``: one page of the customer's deliveries, newest first."""

    page: int  # from 0, clamped to the last page
    pages: int  # 0 when there are none
    total: int
    entries: tuple[DeliveryEntry, ...] = ()
    title: str  # the first line (or, with no deliveries, the whole answer)
    hint: str | None = None  # how to see one delivery in detail
    text: str  # title, one line per entry and the hint

    @property
    def has_previous(self) -> bool:
        return self.page > 0

    @property
    def has_next(self) -> bool:
        return self.page + 1 < self.pages


class CancelReply(_Reply):
    """``CustomerDesk.cancel``: whether the delivery is cancelled, in plain words."""

    outcome: CancelOutcome
    text: str
    delivery_id: str | None = None  # the customer's delivery the reference named, when found


class HandoffCode(_Reply):
    """A drop-off code for the chat that proved the receiver's phone.

    Hand it over, then call ``CustomerDesk.code_handed_over``: the code is erased only then,
    so one that did not reach the receiver can be claimed again.
    """

    delivery_id: str
    ref: str
    # Kept out of repr(): whoever holds the code can take the delivery.
    code: str = Field(repr=False)
    text: str = Field(repr=False)


class HandoffReply(_Reply):
    """``CustomerDesk.open_handoff`` and ``share_contact``: the next step of a hand-off."""

    outcome: HandoffOutcome
    text: str | None = None  # what to say besides the codes (None: only codes, or nothing)
    codes: tuple[HandoffCode, ...] = ()
    wants_contact: bool = False  # offer a way to share one's own contact (Telegram's button)
    ended: bool = False  # the chat's hand-off is over: take away what ``wants_contact`` offered
    answered: bool = True  # False: give the contact to the order conversation as well
