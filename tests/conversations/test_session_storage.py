"""A session is stored compactly, reads back equal, and the longer form of earlier releases
is still read (a restart after an upgrade resumes every open chat)."""

from __future__ import annotations

import json

from conversations import Session
from conversations.session import Visit

OLD_RELEASE_JSON = json.dumps(
    {
        "id": "s1",
        "entry_flow": "order",
        "flow": "pickup_delivery",
        "flow_version": 2,
        "customer": "1",
        "step": "package_size",
        "answers": {"service_kind": "pickup_delivery", "pod_amount": None},
        "filled_by": {},
        "auto_answered": [],
        "history": [
            {"flow": "order", "step": "service_kind"},
            {"flow": "pickup_delivery", "step": "pickup_place"},
            {"flow": "pickup_delivery", "step": "package_description"},
        ],
        "prompt_version": 4,
        "failures": 0,
        "pending": None,
        "editing": False,
        "cancel_asked": False,
        "idempotency_key": None,
        "status": "open",
        "delivery_id": None,
        "delivery_status": None,
        "tracking_url": None,
        "out_of_area": [],
    }
)


def test_the_stored_form_leaves_defaults_out_and_groups_visits_by_flow() -> None:
    session = Session.model_validate_json(OLD_RELEASE_JSON)
    stored = json.loads(session.stored_json())
    assert stored == {
        "id": "s1",
        "entry_flow": "order",
        "flow": "pickup_delivery",
        "flow_version": 2,
        "customer": "1",
        "step": "package_size",
        # An answer's own null is the answer (the step was skipped): it stays.
        "answers": {"service_kind": "pickup_delivery", "pod_amount": None},
        "history": [
            ["order", "service_kind"],
            ["pickup_delivery", "pickup_place", "package_description"],
        ],
        "prompt_version": 4,
    }


def test_the_stored_form_reads_back_as_the_same_session() -> None:
    session = Session.model_validate_json(OLD_RELEASE_JSON)
    session.history.append(Visit(flow="order", step="service_kind"))  # a flow met again
    session.editing, session.idempotency_key, session.out_of_area = True, "key-1", ["p1"]
    again = Session.model_validate_json(session.stored_json())
    assert again == session
    assert [visit.flow for visit in again.history] == [
        "order",
        "pickup_delivery",
        "pickup_delivery",
        "order",
    ]


def test_a_session_from_an_earlier_release_is_read() -> None:
    session = Session.model_validate_json(OLD_RELEASE_JSON)
    assert session.history[1] == Visit(flow="pickup_delivery", step="pickup_place")
    assert len(session.stored_json()) < len(OLD_RELEASE_JSON) * 0.6
