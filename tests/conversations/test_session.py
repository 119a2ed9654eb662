"""``Session.working_copy``: the copy each turn works on shares nothing mutable."""

from __future__ import annotations

from pydantic import JsonValue

from conversations.session import Session, Visit

# Fields that hold containers (the ones working_copy must copy); the rest are immutable.
CONTAINERS = {"answers", "filled_by", "auto_answered", "history", "pending", "out_of_area"}


def a_session() -> Session:
    return Session(
        id="s1",
        entry_flow="order",
        flow="pickup_delivery",
        flow_version=3,
        customer="42",
        step="photos",
        answers={
            "pickup": {"lat": 6.5, "lng": 3.3, "address": "12 Herbert Macaulay Way"},
            "tags": ["fragile", {"note": "box"}],
            "count": 2,
        },
        filled_by={"sender_phone": "sender_contact"},
        auto_answered=["vehicle"],
        history=[Visit(flow="order", step="kind"), Visit(flow="pickup_delivery", step="pickup")],
        prompt_version=7,
        pending={"photos": ["https://example.invalid/media/a"]},
        idempotency_key="chat-1",
        out_of_area=["saved:loc-1"],
    )


def test_the_working_copy_equals_a_deep_copy():
    session = a_session()
    assert session.working_copy() == session.model_copy(deep=True) == session


def test_changing_the_working_copy_leaves_the_session_as_it_was():
    session = a_session()
    before = session.model_copy(deep=True)
    work = session.working_copy()

    pickup = work.answers["pickup"]
    assert isinstance(pickup, dict)
    pickup["address"] = "elsewhere"
    tags = work.answers["tags"]
    assert isinstance(tags, list)
    nested = tags[1]
    assert isinstance(nested, dict)
    nested["note"] = "bag"
    tags.append("heavy")
    work.answers["new"] = True
    work.filled_by["x"] = "y"
    work.auto_answered.append("size")
    work.history.append(Visit(flow="order", step="size"))
    pending = work.pending
    assert isinstance(pending, dict)
    photos: JsonValue = pending["photos"]
    assert isinstance(photos, list)
    photos.append("https://example.invalid/media/b")

    assert session == before


def test_every_container_field_is_copied():
    # A new list or dict field on Session must be added to working_copy (and to CONTAINERS).
    session = a_session()
    for name in Session.model_fields:
        if isinstance(getattr(session, name), list | dict | set):
            assert name in CONTAINERS, name
