"""A place answer is stored without the fields at their default (down to the saved place's
record), reads back into the same ``PlacePick``, and a session stored with the full form of
earlier releases still orders the same delivery and keeps its unit when the same place is
given again."""

from __future__ import annotations

import json
from typing import Any

from pydantic import JsonValue

from conversations import Session
from conversations.places import PlacePick

from .conftest import LAGOS, Chat, World

PLACE_STEPS = ("pickup_place", "dropoff_place")


def full_form(value: JsonValue) -> JsonValue:
    """A place answer as earlier releases stored it: every field, defaults included."""
    return PlacePick.model_validate(value).model_dump(mode="json")


def leaves(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return [leaf for item in value.values() for leaf in leaves(item)]
    if isinstance(value, list):
        return [leaf for item in value for leaf in leaves(item)] if value else [value]
    return [value]


async def test_place_answers_leave_their_defaults_out_and_read_back_the_same(chat: Chat) -> None:
    await chat.pickup_delivery_to_summary()
    assert chat.session is not None
    pin, saved = (chat.session.answers[step] for step in PLACE_STEPS)
    assert pin == {"kind": "location", "lat": LAGOS[0], "lng": LAGOS[1]}
    assert isinstance(saved, dict) and set(saved) == {"kind", "location"}
    # No null, no empty list, no default unit rule left in the saved place's record.
    assert None not in leaves(saved) and [] not in leaves(saved)
    for value in (pin, saved):
        pick = PlacePick.model_validate(value)
        assert pick == PlacePick.model_validate(full_form(value))
        assert PlacePick.model_validate(pick.stored()) == pick
    again = Session.model_validate_json(chat.session.stored_json())
    assert again == chat.session


async def test_a_typed_address_stores_its_query_and_candidates_only(chat: Chat) -> None:
    await chat.start()
    await chat.tap("pickup_delivery")
    await chat.say("15 Allen Avenue")
    assert chat.step == "pickup_confirm" and chat.session is not None
    stored = chat.session.answers["pickup_place"]
    assert isinstance(stored, dict) and set(stored) == {"kind", "query", "candidates"}


def with_full_place_answers(session: Session) -> Session:
    """``session`` as an earlier release saved it, read back from its JSON."""
    data = json.loads(session.stored_json())
    for step in PLACE_STEPS:
        data["answers"][step] = full_form(data["answers"][step])
    old = json.dumps(data)
    assert '"candidates": []' in old and '"query": null' in old
    return Session.model_validate_json(old)


async def test_a_session_with_full_place_answers_orders_the_same_delivery(world: World) -> None:
    new = world.chat()
    await new.pickup_delivery_to_summary()
    assert new.session is not None
    old = world.chat()
    old.session, old.prompt = with_full_place_answers(new.session), new.prompt
    for chat in (new, old):
        await chat.tap("confirm")
        assert chat.turn.order is not None
    first, second = world.creator.requests[-2:]
    assert first.model_dump(exclude={"idempotencyKey"}) == second.model_dump(
        exclude={"idempotencyKey"}
    )


async def test_the_same_saved_place_given_again_keeps_the_full_form_and_its_unit(
    world: World,
) -> None:
    new = world.chat()
    await new.pickup_delivery_to_summary()
    assert new.session is not None
    chat = world.chat()
    chat.session, chat.prompt = with_full_place_answers(new.session), new.prompt
    stored = chat.session.answers["dropoff_place"]
    await chat.tap("edit:dropoff_place")
    await chat.tap("saved:loc-hall")
    # Not taken for another place: the room is still the one given, one tap keeps it.
    assert chat.step == "dropoff_unit" and chat.prompt is not None
    assert chat.prompt.default == "A02"
    assert chat.session.answers["dropoff_place"] == stored
    await chat.tap("A02")
    assert chat.step == "summary"
