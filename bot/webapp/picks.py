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
"""

from __future__ import annotations

from typing import Final, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic import ValidationError as ModelError

from conversations import Answer, ChoiceAnswer, CommandAnswer, LocationAnswer, TextAnswer
from conversations.steps.place_steps import SAVED_PREFIX

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

    def unit_step(self) -> str | None:
        """The step a saved place's unit answers (``dropoff_place`` -> ``dropoff_unit``)."""
        if self.saved is None or not self.step.endswith("_place"):
            return None
        return self.step.removesuffix("_place") + "_unit"


def read_pick(data: str) -> PagePick | None:
    """The pick in a ``web_app_data`` message, or None when it is not one the page sends."""
    if len(data.encode()) > MAX_PICK_BYTES:
        return None
    try:
        return PagePick.model_validate_json(data)
    except ModelError:
        return None
