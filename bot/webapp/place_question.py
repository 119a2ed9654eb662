"""The open place question of a chat, as the Mini App draws it.

``ChatPlaceQuestions.question(catalogue, chat_id)`` reads the chat's saved session and, when it
is at a place step (``<role>_place``, input ``place``), gives what the page shows (its words
from ``catalogue``, the customer's): the saved places the
question offers now (the same ones the chat lists, with their unit rules), the coverage hint,
the answer already given (back, or a change from the summary) and the prompt's step and version,
which the pick carries back so a pick for a question no longer open is refused like a stale tap.

The coverage hint is the engine's own early refusal drawn on the map: with ``radius_from_hub``
the hub is not given, so a place farther than twice the radius (and half a kilometre of slack)
from every warehouse is refused (``conversations.service_area``); the page shades those circles.
With regions or worldwide nothing is refused early and nothing is shaded.
"""

from __future__ import annotations

from typing import Literal, Protocol

from pydantic import BaseModel, ConfigDict

from bot.chat_ref import TELEGRAM, ChatRef
from bot.ordering.chats import ChatService
from bot.partner.models import Capabilities, LocationUnit, ServiceLocation, Warehouse
from conversations.context import Answers
from conversations.places import PlaceNames, PlacePick, resolve
from conversations.session import Session
from conversations.steps.place_steps import SAVED_PREFIX
from conversations.texts.catalogue import Catalogue

_SLACK_KM = 0.5  # as ``service_area``: the shaded circles are exactly what is taken


class _Out(BaseModel):
    model_config = ConfigDict(frozen=True)


class UnitRules(_Out):
    """A saved place's unit question, as ``unit_step`` asks it in chat."""

    mode: Literal["none", "free_text", "list"] | str
    label: str
    choices: list[str]
    allow_custom: bool
    required: bool

    @classmethod
    def of(cls, unit: LocationUnit) -> UnitRules:
        choices = unit.choices() if unit.mode == "list" else []
        return cls(
            mode=unit.mode,
            label=unit.label,
            choices=choices,
            allow_custom=unit.allowCustom,
            required=unit.required,
        )


class SavedPlace(_Out):
    id: str
    name: str
    address: str
    lat: float
    lng: float
    unit: UnitRules

    @classmethod
    def of(cls, row: ServiceLocation) -> SavedPlace:
        return cls(
            id=row.id,
            name=row.name,
            address=row.address,
            lat=row.coords.lat,
            lng=row.coords.lng,
            unit=UnitRules.of(row.unit),
        )


class Circle(_Out):
    lat: float
    lng: float
    radius_m: float


class Coverage(_Out):
    """Where a place is taken: inside any of ``circles`` (all of them empty: anywhere)."""

    mode: str
    circles: list[Circle]
    radius_km: float | None


class CurrentAnswer(_Out):
    """The answer the question already has: a saved place (with its unit) or a pin."""

    kind: Literal["saved", "pin"]
    saved_id: str | None = None
    unit: str | None = None
    lat: float | None = None
    lng: float | None = None
    address: str | None = None


class PlaceQuestion(_Out):
    """What the page needs to draw one open place question; ``title`` names what it picks
    (the step's own title: "Pickup place", "Drop-off place"), in the customer's language."""

    step: str
    version: int
    role: str
    title: str
    saved: list[SavedPlace]
    coverage: Coverage
    current: CurrentAnswer | None
    search: bool


class PlaceQuestions(Protocol):
    """Where the page's question comes from (the chats, or a test's stand-in)."""

    async def question(self, catalogue: Catalogue, chat_id: int) -> PlaceQuestion | None:
        """The chat's open place question, its words said from ``catalogue`` (the customer's),
        or None when none is open."""
        ...


class ChatPlaceQuestions:
    """``PlaceQuestions`` read from the chats' saved sessions (see the module docstring)."""

    def __init__(self, chats: ChatService) -> None:
        self._chats = chats

    async def question(self, catalogue: Catalogue, chat_id: int) -> PlaceQuestion | None:
        # The page's chat is a Telegram chat (its initData's): named by Telegram's id here.
        return await self.question_in(catalogue, ChatRef(TELEGRAM, chat_id))

    async def question_in(self, catalogue: Catalogue, chat: ChatRef) -> PlaceQuestion | None:
        """The open place question of ``chat``, of any channel (the staff's console asks for
        the chat of a hand-off), or None."""
        session = await self._chats.session(chat)
        if session is None or session.finished or session.step is None:
            return None
        step, version = session.step, session.prompt_version
        engine = self._chats.engine
        # The question as the chat shows it, asked again over a copy: nothing is saved.
        prompt = (await engine.resume(catalogue, session.model_copy(deep=True))).prompt
        if prompt is None or prompt.step != step or prompt.input != "place":
            return None
        caps, warehouses, locations = await engine.services.catalog.catalogue()
        flow = engine.registry.get(session.flow)
        title = flow.step(step).said_title(catalogue) if flow is not None and step in flow else ""
        offered = {o.id.removeprefix(SAVED_PREFIX) for o in prompt.options if _saved(o.id)}
        return PlaceQuestion(
            step=step,
            version=version,
            role=step.removesuffix("_place"),
            title=title or catalogue.say("webapp.title"),
            saved=[SavedPlace.of(row) for row in locations if row.id in offered],
            coverage=coverage_of(caps, warehouses),
            current=current_answer(session, step.removesuffix("_place")),
            search="text" in prompt.accepts,
        )


def _saved(option_id: str) -> bool:
    return option_id.startswith(SAVED_PREFIX)


def coverage_of(caps: Capabilities, warehouses: list[Warehouse]) -> Coverage:
    """The early-refusal area of ``caps`` around ``warehouses`` (see the module docstring)."""
    radius = caps.coverage.radiusKm
    circles: list[Circle] = []
    if caps.coverage.mode == "radius_from_hub" and radius and radius > 0:
        reach_m = (2 * radius + _SLACK_KM) * 1000
        for row in warehouses:
            at = row.coords
            if at is not None:
                circles.append(Circle(lat=at.lat, lng=at.lng, radius_m=reach_m))
    return Coverage(mode=str(caps.coverage.mode), circles=circles, radius_km=radius)


def current_answer(session: Session, role: str) -> CurrentAnswer | None:
    """The place the ``role`` question already has, to preselect on the page."""
    answers = Answers(session.answers)
    names = PlaceNames.of(role)
    pick = answers.model(names.place, PlacePick)
    if pick is None:
        return None
    if pick.kind == "saved" and pick.location is not None:
        return CurrentAnswer(
            kind="saved", saved_id=pick.location.id, unit=answers.text(names.unit) or None
        )
    place = resolve(answers, role)
    if place is None:
        return None
    return CurrentAnswer(
        kind="pin", lat=place.coords.lat, lng=place.coords.lng, address=place.address
    )
