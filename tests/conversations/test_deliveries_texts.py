"""A delivery's words, for the relay and every channel: statuses in plain language, short
references, operator texts."""

from __future__ import annotations

from typing import Any

import pytest

from bot.partner.models import Delivery
from conversations.texts import deliveries_texts as wording
from tests.support.words import SHIPPED


def delivery(status: str, **fields: Any) -> Delivery:
    return Delivery.model_validate(
        {"id": "3f2a9c1e-5b7d-4c1a-9e2f-0a1b2c3d4e5f", "status": status, **fields}
    )


@pytest.mark.parametrize(
    ("status", "sentence"),
    [
        ("awaiting_price", "Your request is waiting for the team to set the delivery fee."),
        ("pending", "Your delivery is booked and waiting for a rider."),
        ("matched", "A rider is assigned and heading to pickup."),
        ("picked_up", "The rider has picked up your package."),
        ("in_transit", "Your package is on its way to the drop-off."),
        ("delivered", "Your package has been delivered."),
        ("cancelled", "Your delivery was cancelled."),
        ("held_at_depot", "Your delivery's status is now: held at depot."),
    ],
)
def test_every_status_has_plain_words(status: str, sentence: str) -> None:
    assert wording.status_sentence(SHIPPED, delivery(status)) == sentence


@pytest.mark.parametrize(
    ("rider", "who"),
    [
        (
            {"id": "r", "name": "Tunde Bakare", "vehicle_type": "motorbike"},
            "A rider (Tunde, motorbike)",
        ),
        ({"id": "r", "name": "Chiamaka Obi", "vehicle_type": None}, "A rider (Chiamaka)"),
        ({"id": "r", "name": None, "vehicle_type": "van"}, "A rider (van)"),
        ({"id": "r", "name": "  ", "vehicle_type": None}, "A rider"),
    ],
)
def test_a_matched_delivery_names_what_is_known_of_the_rider(
    rider: dict[str, Any], who: str
) -> None:
    assert wording.status_sentence(SHIPPED, delivery("matched", rider=rider)) == (
        f"{who} is assigned and heading to pickup."
    )


def test_a_cancellation_gives_its_reason() -> None:
    cancelled = delivery("cancelled", cancellation_reason="Customer changed their mind.")

    assert wording.status_sentence(SHIPPED, cancelled) == (
        "Your delivery was cancelled. Reason: Customer changed their mind."
    )


@pytest.mark.parametrize(
    ("delivery_id", "ref"),
    [("3f2a9c1e-5b7d-4c1a-9e2f-0a1b2c3d4e5f", "3F2A9C1E"), ("dlv_123", "DLV_123"), ("-x", "-x")],
)
def test_short_references(delivery_id: str, ref: str) -> None:
    assert wording.short_ref(delivery_id) == ref


def test_operator_text_skips_what_is_empty() -> None:
    assert wording.operator_update(SHIPPED, "  ", ["", " "]) is None
    assert wording.operator_update(SHIPPED, None, ["Check the fee."]) == "• Check the fee."
    assert wording.operator_update(SHIPPED, "Paid.", []) == "Paid."
