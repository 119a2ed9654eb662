"""What the bot remembers of a customer for their next order: their name and phone, how they
last paid, the places they last gave (the answers of each place group, by role), and whether
the phone was proven by their own shared contact (``[limits] verify_sender_phone``).

``remembered_from`` takes them from the order that made a delivery; the runner keeps the
result per customer and hands it to ``Engine.start``, and the session carries it. The sender's
name and phone, and the payment method while the business still offers it, are then pre-set
(shown on the summary, changed from there) and each place step offers the last place of its
role with one tap, pre-selected. Whether a remembered place
may still be offered (a saved place still listed, a pin still inside the area) is decided by
the place step when it asks, never here. When phones must be proven, only a phone remembered
as proven is pre-set or repeated (``with_proven_phone``).
"""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import BaseModel, ConfigDict, Field, JsonValue

from conversations.dialog import SavedOrder

# The sender's steps (``steps.parties``; importing them here would be a cycle via the session).
SENDER_NAME = "sender_name"
SENDER_PHONE = "sender_phone"
PAYMENT = "payment"
_PLACE_SUFFIX = "_place"
# The steps of a place group besides ``<role>_place`` (see ``places.PlaceNames``).
_GROUP_SUFFIXES = ("_unit", "_address", "_confirm")
_PLACE_KINDS = frozenset({"location", "saved", "typed"})  # "unknown" is no place to offer


class Remembered(BaseModel):
    """A customer's details from their last orders. ``places`` maps a place role
    (``pickup``, ``dropoff``) to the answers of its group, by step name."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    name: str = ""
    phone: str = ""
    # The phone came from their own shared contact (``[limits] verify_sender_phone``).
    phone_verified: bool = False
    payment: str = ""  # the collection method of their last order
    places: dict[str, dict[str, JsonValue]] = Field(default_factory=dict)

    def place(self, role: str) -> dict[str, JsonValue] | None:
        """The answers that gave the last ``role`` place, or None."""
        return self.places.get(role)


def remembered_from(
    order: SavedOrder, before: Remembered | None = None, *, phone_verified: bool = False
) -> Remembered | None:
    """What to remember after ``order`` made a delivery, over what was remembered ``before``
    (a place role this order did not use keeps its last place); None when nothing is known.
    ``phone_verified``: the order's sender phone was proven by the customer's own contact."""
    answers = order.answers
    name, phone = answers.get(SENDER_NAME), answers.get(SENDER_PHONE)
    known = before or Remembered()
    if isinstance(name, str) and name and isinstance(phone, str) and phone:
        update = {"name": name, "phone": phone, "phone_verified": phone_verified}
        known = known.model_copy(update=update)
    method = answers.get(PAYMENT)
    if isinstance(method, str) and method:
        known = known.model_copy(update={"payment": method})
    places = dict(known.places) | _places(answers)
    known = known.model_copy(update={"places": places})
    return known if known.name or known.places else None


def with_proven_phone(order: SavedOrder, known: Remembered | None) -> SavedOrder:
    """``order`` to repeat for a customer whose phone must be proven: its sender phone is kept
    only when it is the one they proved (``known``, remembered as verified); otherwise it is
    left out, so the repeat asks for their own contact."""
    phone = order.answers.get(SENDER_PHONE)
    if phone is None or (known is not None and known.phone_verified and known.phone == phone):
        return order
    answers = {step: value for step, value in order.answers.items() if step != SENDER_PHONE}
    return order.model_copy(update={"answers": answers})


def _places(answers: Mapping[str, JsonValue]) -> dict[str, dict[str, JsonValue]]:
    found: dict[str, dict[str, JsonValue]] = {}
    for step, value in answers.items():
        if not step.endswith(_PLACE_SUFFIX) or not isinstance(value, dict):
            continue
        if value.get("kind") not in _PLACE_KINDS:
            continue
        role = step.removesuffix(_PLACE_SUFFIX)
        group: dict[str, JsonValue] = {step: value}
        for suffix in _GROUP_SUFFIXES:
            if f"{role}{suffix}" in answers:
                group[f"{role}{suffix}"] = answers[f"{role}{suffix}"]
        found[role] = group
    return found
