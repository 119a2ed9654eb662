"""The way back: what the page sends with ``Telegram.WebApp.sendData``, as the chat's answers.

The button is a reply-keyboard ``web_app`` button, so the pick comes back as a ``web_app_data``
service message in the customer's own chat, from the customer (Telegram vouches for the
sender; only the keyboard's owner can send it). An inline button would need
``answerWebAppQuery``: the page would post the pick to the bot, and the bot would send a message
on the customer's behalf, a second path into the chat with its own state to keep. The place
question already sits on a reply keyboard (its "Share my location" button), so the map button
joins it there and the pick arrives like a shared pin: one update, through the same inbox,
under the same chat lock.

A pick becomes exactly what the chat would get: a saved place is the tap on that place
(``saved:<id>``) and then the unit as typed text (or /skip), matched by the unit step like
anything typed; a pin is a shared location with its address text. Both carry the question's
step and version, so the engine refuses a pick for a question no longer open as a stale tap.

In the chat a pick shows only as Telegram's "data sent" line, so once it is taken the reply
names the place in one line (``picked_line``: "Drop-off place: Moremi Hall · Room A012").
"""

from __future__ import annotations

from typing import Final, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from conversations import Answer, ChoiceAnswer, CommandAnswer, LocationAnswer, Session, TextAnswer
from conversations.context import Answers
from conversations.places import PlaceNames, PlacePick, resolve
from conversations.steps.place_steps import SAVED_PREFIX
from conversations.texts.catalogue import Catalogue

MAX_PICK_BYTES: Final = 4096  # Telegram's limit on sendData


class _Data(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class SavedChoice(_Data):
    id: str = Field(min_length=1, max_length=200)
    unit: str = Field("", max_length=200)


class PinChoice(_Data):
    lat: float
    lng: float
    address: str = Field("", max_length=500)


class PagePick(_Data):
    """One pick from the page: exactly one of ``saved`` and ``pin``."""

    v: Literal[1]
    step: str = Field(min_length=1, max_length=100)
    version: int
    saved: SavedChoice | None = None
    pin: PinChoice | None = None

    @model_validator(mode="after")
    def _one_place(self) -> PagePick:
        if (self.saved is None) == (self.pin is None):
            raise ValueError("a pick is a saved place or a pin")
        return self

    def place_answer(self) -> Answer:
        """The answer to the place question itself."""
        if self.saved is not None:
            option = f"{SAVED_PREFIX}{self.saved.id}"
            return ChoiceAnswer(option=option, step=self.step, version=self.version)
        assert self.pin is not None
        address = self.pin.address.strip() or None
        return LocationAnswer(
            lat=self.pin.lat,
            lng=self.pin.lng,
            address=address,
            step=self.step,
            version=self.version,
        )

    def unit_answer(self, step: str, version: int) -> Answer | None:
        """The answer to the unit question that follows a saved place (None for a pin)."""
        if self.saved is None:
            return None
        unit = self.saved.unit.strip()
        if not unit:
            return CommandAnswer(name="skip", step=step, version=version)
        return TextAnswer(text=unit, step=step, version=version)

    @property
    def names(self) -> PlaceNames:
        """The steps of the place group the pick answers (``dropoff_place``, ``dropoff_unit``
        ...)."""
        return PlaceNames.of(self.step.removesuffix("_place"))


def read_pick(data: str) -> PagePick | None:
    """The pick in a ``web_app_data`` message, or None when it is not one the page sends."""
    if len(data.encode()) > MAX_PICK_BYTES:
        return None
    try:
        return PagePick.model_validate_json(data)
    except ValidationError:
        return None


def picked_line(
    catalogue: Catalogue, session: Session, names: PlaceNames, title: str
) -> str | None:
    """The chat's one line about the place ``session`` took for the ``names`` group, said
    from ``catalogue`` (the customer's), once the group is settled (the session has moved past
    its steps); None before that. ``title`` is the place question's title ("Drop-off place")."""
    group = {names.place, names.unit, names.address, names.confirm}
    if session.step in group:
        return None
    answers = Answers(session.answers)
    pick = answers.model(names.place, PlacePick)
    if pick is None:
        return None
    if pick.kind == "saved" and pick.location is not None:
        unit = answers.text(names.unit)
        if not unit:
            return catalogue.say("telegram.map_picked", title=title, place=pick.location.name)
        label = pick.location.unit.label
        return catalogue.say(
            "telegram.map_picked_unit",
            title=title,
            place=pick.location.name,
            label=label,
            unit=unit,
        )
    place = resolve(answers, names.place.removesuffix("_place"))
    if place is None:
        return None
    return catalogue.say("telegram.map_picked", title=title, place=place.address)
