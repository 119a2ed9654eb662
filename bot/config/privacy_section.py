"""``[privacy]``: how long the bot keeps each kind of personal data before its retention job
removes it (``bot.privacy.retention``, hourly, in one process of the store).

A customer's data is kept no longer than it serves them or the business's books (the Nigeria
Data Protection Act 2023, the GDPR): each kind has its own time, counted from its last use, and
a sensible default. Three of the keys were first written under ``[storage]``
(``MOVED_FROM_STORAGE``) and still may be: ``Config`` takes such a key from there when
``[privacy]`` leaves it out, and ``check-config`` notes the move; a key set in both places is a
problem naming both.
"""

from __future__ import annotations

from typing import Final

from pydantic import Field

from bot.config.section import Section

MOVED_FROM_STORAGE: Final = {
    "session_idle_days": "drafts_days",
    "media_ttl_hours": "photos_hours",
    "audit_days": "audit_days",
}
"""The ``[privacy]`` keys an older file writes under ``[storage]``: old name -> new name."""


class PrivacyConfig(Section):
    """``[privacy]``: how long each kind of personal data is kept (see the module docstring).

    The ranges of the moved keys are those they had under ``[storage]``, so a file valid
    before is valid now.
    """

    # Unfinished orders (sessions, and the drafts counted for [limits]) nobody answered for
    # this long: a customer who writes after that starts afresh. At least a day, so a draft
    # left overnight is still there in the morning; at most a year.
    drafts_days: float = Field(14.0, ge=1, le=365)
    # Agent conversations' transcripts (from their last entry) and their events, then the
    # conversations left with neither (and no draft, delivery or hand-off on them): the agent
    # reads a conversation's transcript back while it lasts, and its drafts wait on it, so it
    # is never shorter than drafts_days (checked by Config). A quarter covers an agent's
    # follow-up of a delivery and its complaints.
    transcripts_days: float = Field(90.0, ge=1, le=3650)
    # Delivered and cancelled deliveries keep their names, phones, addresses, route and chat
    # link (on WhatsApp, the customer's number) this long after their last change, then only
    # what the books need (id, status, dates, fee, currency, payment), anonymous: the books
    # never need who ordered, and the customer's "my deliveries" would have nothing of it left
    # to show, so the link has no time of its own. A week at least: a complaint or a late
    # payment about a delivery just finished needs its details; a year by default, for the
    # disputes of a year's orders.
    finished_orders_days: float = Field(365.0, ge=7, le=3650)
    # A returning customer's remembered name, places and verified phone, after this long
    # without an order (or, for a phone, without being verified again or receiving a
    # delivery): a customer back within the year finds them, one gone longer types them again.
    # An agent channel's reference for its customer, as long after it was first seen, once
    # nothing else of theirs is kept; the mark of a chat found unreachable (on WhatsApp, a phone
    # number), as long after it was marked when the chat ordered nothing since.
    customer_details_days: float = Field(365.0, ge=1, le=3650)
    # The partner's processed events, the relay's sent markers and WhatsApp's sent messages:
    # they keep a redelivered event or status from being sent twice, so they outlive every
    # redelivery (WhatsApp redelivers for seven days, hence the week's minimum).
    inbox_days: float = Field(30.0, ge=7, le=365)
    # Re-hosted package photos: the service fetches them when the delivery is created, and a
    # draft's photos past this are asked again. Under a month: they are the customers' photos.
    photos_hours: float = Field(48.0, gt=0, le=24 * 30)
    # The audit trail (operators' actions, limits customers hit; it names customers).
    audit_days: float = Field(90.0, ge=1, le=3650)
    # Hand-offs to a person and what was said in them, from their closing: staff may look back
    # at a conversation for a while after it ends; one never closed (no staff chat shows it,
    # or nobody answered), from its last message.
    handoffs_days: float = Field(90.0, ge=1, le=3650)

    @property
    def drafts_seconds(self) -> float:
        """``drafts_days`` in seconds (what unfinished orders are dropped by)."""
        return self.drafts_days * 86_400

    @property
    def photos_seconds(self) -> float:
        """``photos_hours`` in seconds (how long a re-hosted photo lives)."""
        return self.photos_hours * 3600

    def problems(self) -> list[tuple[tuple[str | int, ...], str]]:
        """The keys that are valid alone but not together, each with why (``Config`` reports
        them once the moved keys are in)."""
        if self.transcripts_days < self.drafts_days:
            return [
                (
                    ("transcripts_days",),
                    f"must be at least drafts_days ({self.drafts_days:g}): an agent's open "
                    "draft asks its question from the transcript's last entry",
                )
            ]
        return []
