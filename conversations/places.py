"""Places as the request carries them: an address text and a real pin.

``resolve(answers, "dropoff")`` turns the answers of the ``dropoff`` place group (see
``place_steps``) into one ``Place``: a saved place's text is ``{name} — {address} — {unit}``
(shortened in its address, never in its unit, when it is over the request's limit) with the
coordinates copied from ``coords`` whatever the unit, never re-geocoded; a shared pin
keeps the customer's coordinates with the address text they gave; a typed address uses the
place the customer confirmed among those the geocoder found. A warehouse's pickup is copied from
its row. Nothing here ever makes up a coordinate: a zero pin is refused, and a place without a
real pin has no ``Place``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, ValidationError

from conversations.context import Answers, Context
from conversations.dialog import Option
from conversations.order.locations import Coords, ServiceLocation, Warehouse
from conversations.rules import usable_warehouses
from conversations.service_area import place_key
from conversations.services import GeocodedPlace
from conversations.shortening import shorten

ADDRESS_LIMIT = 500  # the request's pickupAddress / deliveryAddress limit


class PlacePick(BaseModel):
    """How the customer gave a place (the answer of the ``<role>_place`` step).

    A saved place keeps its whole ``ServiceLocation`` record, so the order stays as the customer
    saw it even if the business changes its catalogue mid-order.
    """

    model_config = ConfigDict(frozen=True)

    kind: Literal["location", "saved", "typed", "unknown"]
    lat: float | None = None
    lng: float | None = None
    location: ServiceLocation | None = None
    query: str | None = None
    candidates: list[GeocodedPlace] = Field(default_factory=list)

    def stored(self) -> dict[str, JsonValue]:
        """The answer as a session keeps it: every field still at its default is left out,
        down to the saved place's record (its empty unit rules, unknown state names ...), since
        it reads back the same. A session is saved on every turn and kept per open chat, so its
        size is what a page of the store holds; the full form earlier releases wrote is read
        the same way."""
        return self.model_dump(mode="json", exclude_defaults=True)


class Place(BaseModel):
    """A settled place: the address text and the real coordinates the request carries."""

    model_config = ConfigDict(frozen=True)

    address: str
    coords: Coords


@dataclass(frozen=True)
class PlaceNames:
    place: str
    unit: str
    address: str
    confirm: str

    @classmethod
    def of(cls, role: str) -> PlaceNames:
        return cls(f"{role}_place", f"{role}_unit", f"{role}_address", f"{role}_confirm")


def cut_address(text: str) -> str:
    """The address text within the request's limit; a saved place's unit is never cut off."""
    return shorten(text, ADDRESS_LIMIT)


def real_coords(lat: float | None, lng: float | None) -> Coords | None:
    if lat is None or lng is None:
        return None
    try:
        return Coords(lat=lat, lng=lng)
    except ValidationError:
        return None


def resolve(answers: Answers, role: str) -> Place | None:
    """The place the ``role`` group settled, or None (not answered yet, or shop unknown)."""
    names = PlaceNames.of(role)
    pick = answers.model(names.place, PlacePick)
    if pick is None:
        return None
    if pick.kind == "location":
        coords = real_coords(pick.lat, pick.lng)
        text = answers.text(names.address)
        return Place(address=cut_address(text), coords=coords) if coords and text else None
    if pick.kind == "saved" and pick.location is not None:
        unit = answers.text(names.unit) or None
        return Place(
            address=cut_address(pick.location.composed_address(unit)), coords=pick.location.coords
        )
    if pick.kind == "typed":
        found = answers.model(names.confirm, GeocodedPlace)
        coords = real_coords(found.lat, found.lng) if found else None
        if found is None or coords is None:
            return None
        return Place(address=cut_address(found.address), coords=coords)
    return None


def remembered_key(answers: Answers, place_step: str) -> str | None:
    """The ``coverage.place_key`` of the place a ``<role>_place`` step settled, or None."""
    role = place_step.removesuffix("_place")
    pick = answers.model(place_step, PlacePick) if role != place_step else None
    if pick is None:
        return None
    saved = pick.location.id if pick.kind == "saved" and pick.location is not None else None
    place = resolve(answers, role)
    return place_key(saved, place.coords if place is not None else None)


# --- warehouses ---------------------------------------------------------------------------------


def warehouse_options(ctx: Context) -> list[Option]:
    return [
        Option(id=row.id, label=row.name, detail=row.address)
        for row in usable_warehouses(ctx.caps, ctx.warehouses)
    ]


def warehouse_named(ctx: Context, value: JsonValue) -> str:
    """A chosen warehouse as the summary names it: its name and address ("Ikeja Hub, 12 Allen
    Avenue"), so a warehouse the bot chose on its own says where the package goes."""
    for row in usable_warehouses(ctx.caps, ctx.warehouses):
        if row.id == value:
            return f"{row.name}, {row.address}" if row.address else row.name
    return "-"  # no longer usable: never its raw id; the summary asks again before sending


def warehouse_place(ctx: Context, warehouse_id: str) -> tuple[Warehouse, Place] | None:
    """The usable row and its place, address and pin copied from the row."""
    for row in usable_warehouses(ctx.caps, ctx.warehouses):
        if row.id == warehouse_id and row.coords is not None:
            return row, Place(address=cut_address(row.address), coords=row.coords)
    return None
