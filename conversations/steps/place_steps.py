"""The group of steps that settles one place, declared with ``place_steps("dropoff", ...)``,
which returns a ``PlacePiece``: its ``steps`` go in the flow, and its step names are attributes
(``piece.first`` to lead to it, ``piece.place``, ``piece.unit`` ...), never spelt by hand:

* ``dropoff_place``: pick a saved place, share a location, or type an address;
* ``dropoff_unit``: the saved place's unit (``none`` skips it; ``free_text`` asks for
  ``unit.label``; ``list`` offers ``values`` and the expanded ``ranges`` and matches typed
  text to them, custom text only with ``allowCustom``; skippable unless ``unit.required``;
  see ``unit_step``);
* ``dropoff_address``: the address text for a shared pin (a venue's own address fills it, and
  so does a house address the geocoder names clearly at a bare pin: see ``_pin_named``);
* ``dropoff_confirm``: the places the geocoder found, shown back before one is used.

Saved places are offered only when the plan has them, and never for an errand's shop.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from geopy.distance import great_circle
from pydantic import JsonValue

from conversations.context import Answers, Context
from conversations.dialog import (
    Answer,
    AnswerKind,
    ChoiceAnswer,
    LocationAnswer,
    Option,
    TextAnswer,
)
from conversations.engine.option_names import plain
from conversations.flow import (
    Accept,
    Ask,
    Branch,
    Invalid,
    Question,
    Redo,
    Result,
    Step,
    Target,
)
from conversations.order.locations import Coords, ServiceLocation
from conversations.places import Place, PlaceNames, PlacePick, real_coords, resolve
from conversations.rules import saved_places
from conversations.service_area import clearly_outside, place_key
from conversations.services import GeocodedPlace, Geocoder, ServiceUnavailable
from conversations.steps.common import bounded
from conversations.steps.piece import Piece
from conversations.steps.unit_step import unit_fits, unit_step
from conversations.texts import dialogue
from conversations.texts.catalogue import Catalogue
from conversations.texts.said import Words, said, words

PIN_ADDRESS_LENGTH = (3, 300)
QUERY_LENGTH = (3, 200)
MAX_CANDIDATES = 5
SAVED_PREFIX = "saved:"
LAST_PREFIX = "last:"  # "last:dropoff": the customer's last drop-off place again
UNKNOWN = "unknown"
RETYPE = "retype"
CLEARLY_TYPED = "typed_clearly"  # a typed address the geocoder found as it was typed
PIN_NAMED_WITHIN_M = 30.0  # a house the geocoder names farther from a bare pin is not taken
_HOUSE_NUMBER = re.compile(r"^\d+[A-Za-z]?\b")  # "12, Herbert Macaulay Way" / "15 Allen Avenue"


@dataclass(frozen=True)
class Instead:
    """An option a place step offers that answers ``step`` with the option's id instead of
    giving the place (``option`` returns None when it is not offered now)."""

    step: str
    option: Callable[[Context], Option | None]


def _pick(ctx: Context, names: PlaceNames) -> PlacePick | None:
    return ctx.answers.model(names.place, PlacePick)


def _answer(ctx: Context, names: PlaceNames, pick: PlacePick) -> JsonValue:
    """``pick`` as the place step's answer, in its stored form (``PlacePick.stored``).

    When it is the place already given, the value already stored is kept as it is: a session
    saved in the full form of earlier releases compares equal, so the answers built on the
    place (its unit, its address text) are not dropped as if the place had changed.
    """
    if pick == _pick(ctx, names):
        return ctx.session.answers[names.place]
    return pick.stored()


@dataclass(frozen=True)
class PlacePiece(Piece[Place]):
    """The steps that settle one place; ``result`` is the settled ``Place`` (None while it is
    not settled, or when the customer does not know where it is). Lead to ``first`` (the
    place step); ``unit`` is None when the group offers no saved places."""

    names: PlaceNames

    @property
    def place(self) -> str:
        return self.names.place

    @property
    def unit(self) -> str | None:
        return self.names.unit if self.names.unit in {s.name for s in self.steps} else None

    @property
    def address(self) -> str:
        return self.names.address

    @property
    def confirm(self) -> str:
        return self.names.confirm


def place_steps(
    role: str,
    *,
    title: Words,
    question: Words,
    next: Target,
    fields: tuple[str, str],
    saved: bool = True,
    unknown_flag: str | None = None,
    unknown: Callable[[Context], bool] | None = None,
    unknown_next: Target | None = None,
    instead: Instead | None = None,
    depends_on: Sequence[str] = (),
) -> PlacePiece:
    """The steps that settle the ``role`` place, then lead to ``next``. ``fields`` are the
    request's address and coordinates fields; the place step writes both once the group has
    settled the place (``places.resolve``), whatever way it was given.

    ``unknown_flag`` names a request field the place step sets to whether the customer said
    they don't know where the place is (an errand's ``pickupLocationUnknown``).

    ``saved`` offers the business's saved places (never for an errand's shop). ``unknown``
    (when it holds) offers "I don't know where it is", which leads to ``unknown_next``.
    ``instead`` offers an option that answers an earlier step instead (the pickup place
    offers dropping the package at a warehouse, which answers the delivery mode).
    """
    names = PlaceNames.of(role)
    last_id = f"{LAST_PREFIX}{role}"
    routes: dict[str, Target] = {
        "location": names.address,
        "typed": names.confirm,
        CLEARLY_TYPED: next,
    }
    if saved:
        routes["saved"] = names.unit
    if unknown is not None:
        routes[UNKNOWN] = unknown_next or next

    def offered(ctx: Context) -> list[ServiceLocation]:
        if not saved:
            return []
        return [row for row in saved_places(ctx.caps, ctx.locations) if _in_area(ctx, row)]

    def last(ctx: Context) -> dict[str, JsonValue] | None:
        """The answers that gave the customer's last place of this role, while it may still
        be offered (a saved place still listed, a place still inside the area)."""
        known = ctx.session.remembered
        group = known.place(role) if known is not None else None
        if group is None:
            return None
        pick = Answers(group).model(names.place, PlacePick)
        place = resolve(Answers(group), role)
        if pick is None or place is None or _outside(ctx, place.coords) is not None:
            return None
        if pick.kind == "saved" and not any(
            pick.location is not None and row.id == pick.location.id for row in offered(ctx)
        ):
            return None
        if pick.kind == "saved" and pick.location is not None:
            unit = group.get(names.unit)
            if isinstance(unit, str) and not unit_fits(ctx.catalogue, pick.location.unit, unit):
                group = {name: value for name, value in group.items() if name != names.unit}
        return group

    def ask(ctx: Context) -> Ask:
        options = [
            Option(id=f"{SAVED_PREFIX}{row.id}", label=row.name, detail=row.address)
            for row in offered(ctx)
        ]
        again = last(ctx)
        default = None
        if again is not None:
            place = resolve(Answers(again), role)
            assert place is not None  # ``last`` offers only a place that resolves
            options.insert(
                0,
                Option(id=last_id, label=dialogue.same_place_as_last(ctx.catalogue, place.address)),
            )
            # Pre-selected on the way through; from the summary the answer given is kept.
            default = last_id if names.place not in ctx.session.answers else None
        if unknown is not None and unknown(ctx):
            options.append(Option(id=UNKNOWN, label=ctx.catalogue.say("steps.place.unknown")))
        ways = [ctx.catalogue.say("steps.place.way.pick")] if options else []
        other = instead.option(ctx) if instead is not None else None
        if other is not None:
            options.append(other)  # not a place: the question does not count it as a way
        ways.append(ctx.catalogue.say("steps.place.way.pin"))
        accepts: tuple[AnswerKind, ...] = ("location", "choice")
        if ctx.geocoder is not None:
            ways.append(ctx.catalogue.say("steps.place.way.type"))
            accepts += ("text",)
        either = ways[-1]
        if len(ways) > 1:
            first = ctx.catalogue.say("steps.place.way.joiner").join(ways[:-1])
            either = ctx.catalogue.say("steps.place.way.last", first=first, last=ways[-1])
        text = ctx.catalogue.say(
            "steps.place.question", question=words(question, ctx.catalogue), ways=either
        )
        return Question(text, accepts=accepts, options=tuple(options), default=default)

    async def accept(ctx: Context, answer: Answer) -> Result:
        if isinstance(answer, LocationAnswer):
            at = real_coords(answer.lat, answer.lng)
            if at is None:
                return Invalid(ctx.catalogue.say("steps.pin_not_real"))
            outside = _outside(ctx, at)
            if outside is not None:
                return outside
            pick = PlacePick(kind="location", lat=answer.lat, lng=answer.lng)
            venue = bounded(ctx.catalogue, answer.address or "", *PIN_ADDRESS_LENGTH)
            if not isinstance(venue, Invalid):
                return Accept(_answer(ctx, names, pick), fills={names.address: venue})
            named = (
                await _pin_named(ctx.catalogue, ctx.geocoder, at)
                if ctx.geocoder is not None
                else None
            )
            if named is None:
                return Accept(_answer(ctx, names, pick))  # its address is asked next
            note = ctx.catalogue.say("steps.place.pin_named", address=named)
            return Accept(_answer(ctx, names, pick), fills={names.address: named}, note=note)
        again = last(ctx) if isinstance(answer, ChoiceAnswer) and answer.option == last_id else None
        if again is not None:
            fills = {name: value for name, value in again.items() if name != names.place}
            last_pick = Answers(again).model(names.place, PlacePick)
            assert last_pick is not None  # ``last`` gives only a group whose place resolves
            return Accept(_answer(ctx, names, last_pick), fills=fills)
        if isinstance(answer, ChoiceAnswer):
            if answer.option == UNKNOWN:
                return Accept(_answer(ctx, names, PlacePick(kind=UNKNOWN)))
            other = instead.option(ctx) if instead is not None else None
            if instead is not None and other is not None and answer.option == other.id:
                return Redo(instead.step, "", answer=other.id)
            row_id = answer.option.removeprefix(SAVED_PREFIX)
            for row in offered(ctx):
                if row.id == row_id:
                    return Accept(_answer(ctx, names, PlacePick(kind="saved", location=row)))
            return Invalid(ctx.catalogue.say("steps.saved_place_gone"))
        if isinstance(answer, TextAnswer):
            return await _geocode(ctx, names, answer.text)
        return Invalid(ctx.catalogue.say("steps.place_ways"))

    def describe(ctx: Context, value: JsonValue) -> str:
        place = resolve(ctx.answers, role)
        if place is not None:
            return place.address
        pick = _pick(ctx, names)
        return ctx.catalogue.say("steps.place.not_known") if pick and pick.kind == UNKNOWN else "-"

    def still_valid(ctx: Context, value: JsonValue) -> bool:
        pick = _pick(ctx, names)
        if pick is None:
            return True
        if pick.kind == "saved":
            # A saved place the business removed (or a repeated order's) is not used again.
            return pick.location is not None and any(
                row.id == pick.location.id for row in offered(ctx)
            )
        return pick.kind != UNKNOWN or (unknown is not None and unknown(ctx))

    def write(ctx: Context, value: JsonValue) -> Mapping[str, object]:
        pick = _pick(ctx, names)
        written: dict[str, object] = {}
        if unknown_flag is not None:
            written[unknown_flag] = pick is not None and pick.kind == UNKNOWN
        place = resolve(ctx.answers, role)
        if place is not None:  # not known: the step that describes it writes the pickup
            address_field, coords_field = fields
            written |= {address_field: place.address, coords_field: place.coords}
        return written

    place = Step(
        name=names.place,
        title=title,
        input="place",
        ask=ask,
        accept=accept,
        next=Branch("how the place was given", lambda ctx: _kind(ctx, names), routes),
        depends_on=tuple(str(d) for d in depends_on),
        fields=(*fields, unknown_flag) if unknown_flag else fields,
        write=write,
        describe=describe,
        still_valid=still_valid,
    )
    steps = [place]
    if saved:
        steps.append(unit_step(names, title, next, fields))
    steps += [
        _pin_address_step(names, title, next, fields),
        _confirm_step(names, title, next, fields),
    ]
    return PlacePiece(tuple(steps), names.place, lambda ctx: resolve(ctx.answers, role), names)


def _in_area(ctx: Context, row: ServiceLocation) -> bool:
    """A saved place this order may offer: not refused by the service, not clearly outside."""
    if place_key(row.id, None) in ctx.session.out_of_area:
        return False
    return not clearly_outside(ctx.caps, ctx.warehouses, row.coords)


def _outside(ctx: Context, at: Coords) -> Invalid | None:
    """Why a place at ``at`` cannot be taken (refused by the service, or clearly outside the
    area), or None."""
    if place_key(None, at) in ctx.session.out_of_area:
        return Invalid(dialogue.REFUSED_PLACE.render(ctx.catalogue))
    if clearly_outside(ctx.caps, ctx.warehouses, at):
        return Invalid(dialogue.outside_area(ctx.catalogue, ctx.caps.coverage.radiusKm or 0))
    return None


def _kind(ctx: Context, names: PlaceNames) -> str:
    pick = _pick(ctx, names)
    if pick is None:
        return ""
    if pick.kind == "typed" and names.confirm in ctx.session.answers and _clear(pick):
        return CLEARLY_TYPED  # the place found is the one typed: taken without asking
    return pick.kind


_WORD = re.compile(r"\w+")


def _words(text: str) -> set[str]:
    return {word for word in _WORD.findall(plain(text)) if len(word) > 1 or word.isdigit()}


def _clear(pick: PlacePick) -> bool:
    """Whether the geocoder's one find is clearly the place typed: it has every word typed,
    and adds none but its last part's (the city or state: "Lagos"). Anything more (another
    area, a house number, a venue's street) is shown back to be confirmed."""
    if len(pick.candidates) != 1 or not pick.query:
        return False
    found = pick.candidates[0].address
    typed, named = _words(pick.query), _words(found)
    last = _words(found.rsplit(",", 1)[-1]) if "," in found else set()
    return bool(typed) and typed <= named and named - typed <= last


async def _pin_named(catalogue: Catalogue, geocoder: Geocoder, at: Coords) -> str | None:
    """The address the geocoder names clearly at a bare pin, which then needs no question: a
    house address (its first part is a house number) whose own point is within
    ``PIN_NAMED_WITHIN_M`` of the pin. A venue, a street, a market or anything farther is only
    near the door, so the customer is asked (as they are when the geocoder is down)."""
    try:
        found = await geocoder.reverse(at.lat, at.lng)
    except ServiceUnavailable:
        return None
    if found is None or _HOUSE_NUMBER.match(found.address.strip()) is None:
        return None
    if great_circle((at.lat, at.lng), (found.lat, found.lng)).meters > PIN_NAMED_WITHIN_M:
        return None
    text = bounded(catalogue, found.address, *PIN_ADDRESS_LENGTH)
    return None if isinstance(text, Invalid) else text


async def _geocode(ctx: Context, names: PlaceNames, typed: str) -> Result:
    if ctx.geocoder is None:
        return Invalid(ctx.catalogue.say("steps.no_address_search"))
    query = bounded(ctx.catalogue, typed, *QUERY_LENGTH, what="steps.what.address")
    if isinstance(query, Invalid):
        return query
    try:
        found = await ctx.geocoder.geocode(query)
    except ServiceUnavailable:
        return Invalid(ctx.catalogue.say("steps.address_search_down"))
    usable: list[GeocodedPlace] = []
    outside: Invalid | None = None
    for place in found:
        at = real_coords(place.lat, place.lng)
        if at is None or not place.address.strip() or place in usable:
            continue
        outside = _outside(ctx, at)
        if outside is None:
            usable.append(place)
    if not usable:
        return outside or Invalid(dialogue.address_not_found(ctx.catalogue, query))
    pick = PlacePick(kind="typed", query=query, candidates=usable[:MAX_CANDIDATES])
    if _clear(pick):
        only = pick.candidates[0]
        taken = {names.confirm: only.model_dump(mode="json")}
        note = ctx.catalogue.say("steps.place.taken", address=only.address)
        return Accept(_answer(ctx, names, pick), fills=taken, note=note)
    return Accept(_answer(ctx, names, pick))


def _pin_address_step(
    names: PlaceNames, title: Words, next: Target, fields: tuple[str, str]
) -> Step:
    def ask(ctx: Context) -> Ask:
        return Question(ctx.catalogue.say("steps.place.pin_address"), accepts=("text",))

    async def accept(ctx: Context, answer: Answer) -> Result:
        if not isinstance(answer, TextAnswer):
            return Invalid(ctx.catalogue.say("steps.address_as_message"))
        value = bounded(ctx.catalogue, answer.text, *PIN_ADDRESS_LENGTH, what="steps.what.address")
        return value if isinstance(value, Invalid) else Accept(value)

    return Step(
        name=names.address,
        title=said("steps.place.address_title", title=title),
        input="text",
        ask=ask,
        accept=accept,
        next=next,
        depends_on=(names.place,),
        fields=fields,
        summarize=False,
        editable=False,
    )


def _confirm_step(names: PlaceNames, title: Words, next: Target, fields: tuple[str, str]) -> Step:
    def candidates(ctx: Context) -> list[GeocodedPlace]:
        pick = _pick(ctx, names)
        return list(pick.candidates) if pick else []

    def ask(ctx: Context) -> Ask:
        found = candidates(ctx)
        options = [Option(id=str(i), label=place.address) for i, place in enumerate(found)]
        options.append(Option(id=RETYPE, label=ctx.catalogue.say("steps.place.retype")))
        text = ctx.catalogue.say(
            "steps.place.found_one" if len(found) == 1 else "steps.place.found_several"
        )
        return Question(text, accepts=("choice",), options=tuple(options))

    async def accept(ctx: Context, answer: Answer) -> Result:
        if not isinstance(answer, ChoiceAnswer):
            return Invalid(ctx.catalogue.say("steps.right_place"))
        if answer.option == RETYPE:
            pick = _pick(ctx, names)
            return Redo(
                names.place,
                dialogue.address_again(ctx.catalogue, (pick.query if pick else None) or ""),
            )
        found = candidates(ctx)
        return Accept(found[int(answer.option)].model_dump(mode="json"))

    def describe(ctx: Context, value: JsonValue) -> str:
        # The place as its option shows it, so going back pre-selects it (never a dict).
        if isinstance(value, dict) and isinstance(value.get("address"), str):
            return str(value["address"])
        return "-"

    return Step(
        name=names.confirm,
        title=said("steps.place.found_title", title=title),
        input="choice",
        ask=ask,
        accept=accept,
        next=next,
        depends_on=(names.place,),
        fields=fields,
        describe=describe,
        summarize=False,
        editable=False,
    )
