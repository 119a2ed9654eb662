"""The fields each service kind requires, as ``request_fields`` derives them, are exactly the
fields the request model refuses a request without: a request with only those validates, and
one without any of them is refused naming it."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from bot.partner.models import CreateDeliveryRequest
from conversations.request_fields import SERVICE_KINDS, required_fields

EVERY_REQUEST = {
    "serviceKind": None,  # set per kind
    "senderName": "Ada Obi",
    "senderPhone": "+2348031234567",
    "pickupAddress": "12 Marina Road",
    "pickupCoords": {"lat": 6.5, "lng": 3.3},
    "deliveryAddress": "1 Admiralty Way",
    "deliveryCoords": {"lat": 6.4, "lng": 3.4},
    "packageDescription": "Books",
    "packageSize": "small",
    "customerCollectionMethod": "cash_on_delivery",
}
OF_KIND = {
    "pickup_delivery": {
        "receiverName": "Bola Ade",
        "receiverPhone": "+2348022223333",
        "packageImages": ["https://media.example/p/1.jpg"],
    },
    "errand": {
        "errandMode": "at_place",
        "errandLinks": [],
        "errandBudgetNgn": "",
        "errandSubstituteOk": False,
        "shopPhone": "",
        "pickupLocationUnknown": False,
    },
}


def smallest(kind: str) -> dict[str, object]:
    return {**EVERY_REQUEST, "serviceKind": kind, **OF_KIND[kind]}


@pytest.mark.parametrize("kind", SERVICE_KINDS)
def test_a_request_with_only_the_required_fields_is_accepted(kind):
    assert set(smallest(kind)) == set(required_fields(kind))
    CreateDeliveryRequest.model_validate(smallest(kind))


@pytest.mark.parametrize(
    ("kind", "name"),
    [(kind, name) for kind in SERVICE_KINDS for name in required_fields(kind)],
)
def test_a_request_without_one_of_them_is_refused_naming_it(kind, name):
    body = {key: value for key, value in smallest(kind).items() if key != name}
    with pytest.raises(ValidationError, match=name):
        CreateDeliveryRequest.model_validate(body)
