"""The unit of a saved place (``dropoff_unit``): a room, a floor, a shop number.

The place's ``unit`` rules decide the question (the spec's service location): ``free_text``
asks for ``unit.label``; ``list`` offers ``values`` and the expanded ``ranges``, and takes custom
text only with ``allowCustom``; either is skippable unless ``unit.required``.

What the customer types is matched to a list leniently (``unit_match``): ``b12`` is ``B012``,
and a number is the unit's number, never an option's position (the prompt says so with
``numbers_are_values``). Text that may mean several units, or a part of one, narrows the
options to those (a search: ``B`` offers ``B001`` .. ``B040``); text that means none is asked
again with what the units look like and whether other text is taken. A long list says that
typing searches it, so nobody pages through 81 rooms.

The unit can be changed from the summary on its own ("Change drop-off place: room"), and
picking the same saved place again asks it again; the unit given is pre-selected (or offered
to keep, when it was typed), so Enter or one tap keeps it.
"""

from __future__ import annotations

from conversations.context import Context
from conversations.dialog import KEEP, PAGE_SIZE, Answer, ChoiceAnswer, Option, TextAnswer
from conversations.flow import (
    Accept,
    Ask,
    Condition,
    Invalid,
    Partial,
    Question,
    Result,
    Step,
    Target,
)
from conversations.order.locations import LocationUnit
from conversations.places import PlaceNames, PlacePick
from conversations.steps.common import bounded
from conversations.texts.catalogue import Catalogue
from conversations.texts.dialogue import quoted
from conversations.texts.said import Words, said, words
from conversations.unit_match import match_unit

UNIT_LENGTH = (1, 60)
# The option that drops a search and offers the whole list again (an id no unit has: units are
# listed by their own text, and a colon-prefixed id like this one is never a room name).
WHOLE_LIST = "list:whole"
_SEARCH = "search"  # the key of the step's pending value: the text that narrowed the list
_EXAMPLES = 2  # units named in "like A001 or B001"
_FORM_PARTS = 4  # ranges and values named when saying what the units look like


def saved_unit(ctx: Context, names: PlaceNames) -> LocationUnit | None:
    """The unit rules of the saved place the ``names`` group picked, if it picked one."""
    pick = ctx.answers.model(names.place, PlacePick)
    return pick.location.unit if pick and pick.location else None


def unit_step(names: PlaceNames, title: Words, next: Target, fields: tuple[str, str]) -> Step:
    """The ``<role>_unit`` step of a place group (see the module)."""

    def rules(ctx: Context) -> LocationUnit:
        return saved_unit(ctx, names) or LocationUnit()

    def has_units(ctx: Context) -> bool:
        unit = saved_unit(ctx, names)
        return unit is not None and unit.mode != "none"

    def search(ctx: Context) -> str | None:
        """What the customer typed that narrowed the list, while this step is open."""
        pending = ctx.session.pending
        if ctx.session.step != names.unit or not isinstance(pending, dict):
            return None
        typed = pending.get(_SEARCH)
        return typed if isinstance(typed, str) else None

    def kept(ctx: Context, offered: list[str]) -> str | None:
        """Pre-select the unit already given: itself when listed, else "Keep: ..."."""
        given = ctx.session.answers.get(names.unit)
        if not isinstance(given, str):
            return None
        return given if given in offered else KEEP

    def ask(ctx: Context) -> Ask:
        unit = rules(ctx)
        label = unit_label(unit).lower()
        optional = "" if unit.required else ctx.catalogue.say("steps.unit.or_skip")
        if not listed(unit):
            return Question(
                ctx.catalogue.say("steps.unit.type_it", unit=unit_label(unit), optional=optional),
                accepts=("text",),
                default=kept(ctx, []),
                allow_skip=not unit.required,
                input="text",
                numbers_are_values=True,
            )
        choices = unit.choices()
        typed = search(ctx)
        default = None
        if typed is not None:
            match = match_unit(typed, choices, unit.label)
            found = [match.value] if match.value is not None else list(match.candidates)
            options = [Option(id=value, label=value) for value in found]
            own = _own(ctx.catalogue, unit, typed)
            if own is not None:
                options.append(
                    Option(id=own, label=ctx.catalogue.say("steps.unit.as_typed", own=own))
                )
            options.append(Option(id=WHOLE_LIST, label=ctx.catalogue.say("steps.unit.whole_list")))
            text = ctx.catalogue.say(
                "steps.unit.matches", typed=quoted(typed), unit=label, optional=optional
            )
        else:
            options = [Option(id=value, label=value) for value in choices]
            text = _list_question(ctx.catalogue, unit, label, optional)
            default = kept(ctx, choices)
        return Question(
            text,
            accepts=("choice", "text"),
            options=tuple(options),
            default=default,
            allow_skip=not unit.required,
            numbers_are_values=True,
        )

    async def accept(ctx: Context, answer: Answer) -> Result:
        unit = rules(ctx)
        label = unit_label(unit).lower()
        if isinstance(answer, ChoiceAnswer):
            if answer.option == WHOLE_LIST:
                return Partial(None, new_options=True)
            return Accept(answer.option)
        if not isinstance(answer, TextAnswer):
            return Invalid(ctx.catalogue.say("steps.give_unit", unit=label))
        if not listed(unit):
            value = bounded(ctx.catalogue, answer.text, *UNIT_LENGTH, what=label)
            return value if isinstance(value, Invalid) else Accept(value)
        return _typed_in_list(ctx.catalogue, unit, label, answer.text)

    return Step(
        name=names.unit,
        title=said("steps.unit.title", title=title),
        titled=lambda ctx: ctx.catalogue.say(
            "steps.unit.titled",
            title=words(title, ctx.catalogue),
            unit=unit_label(rules(ctx)).lower(),
        ),
        input="choice",
        ask=ask,
        accept=accept,
        next=next,
        when=Condition("the saved place has units", has_units),
        depends_on=(names.place,),
        fields=fields,
        skip_value="",
        summarize=False,  # the place's line shows it: "Moremi Hall — ... — B012"
    )


def unit_fits(catalogue: Catalogue, unit: LocationUnit, value: str) -> bool:
    """Whether ``value``, a unit given for this place before, is still one it takes."""
    if unit.mode == "none":
        return False
    if not value:
        return not unit.required  # skipped last time: still skippable
    if listed(unit) and not unit.allowCustom:
        return value in unit.choices()
    return isinstance(bounded(catalogue, value, *UNIT_LENGTH), str)


def _typed_in_list(catalogue: Catalogue, unit: LocationUnit, label: str, typed: str) -> Result:
    """Typed text at a list: the unit it means, the units it may mean, or custom text."""
    text = " ".join(typed.split())
    found = match_unit(text, unit.choices(), unit.label)
    if found.value is not None:
        return Accept(found.value)
    if len(found.candidates) == 1 and not unit.allowCustom:
        return Accept(found.candidates[0])
    if found.candidates:
        return Partial({_SEARCH: text}, new_options=True)
    if unit.allowCustom:
        value = bounded(catalogue, text, *UNIT_LENGTH, what=label)
        return value if isinstance(value, Invalid) else Accept(value)
    units = list_form(catalogue, unit)
    return Invalid(
        catalogue.say("steps.unit_not_listed", typed=quoted(text), unit=label, units=units)
    )


def _own(catalogue: Catalogue, unit: LocationUnit, typed: str) -> str | None:
    """The typed text as a custom unit, when the list takes one and the text fits."""
    if not unit.allowCustom:
        return None
    value = bounded(catalogue, typed, *UNIT_LENGTH)
    return None if isinstance(value, Invalid) else value


def _list_question(catalogue: Catalogue, unit: LocationUnit, label: str, optional: str) -> str:
    choices = unit.choices()
    custom = "custom" if unit.allowCustom else "listed"
    if len(choices) <= PAGE_SIZE:
        return catalogue.say(f"steps.unit.pick_{custom}", unit=label, optional=optional)
    like = catalogue.say("steps.unit.examples_joiner").join(_examples(unit))
    return catalogue.say(
        f"steps.unit.search_{custom}",
        unit=label,
        like=like,
        count=catalogue.number(len(choices)),
        optional=optional,
    )


def _examples(unit: LocationUnit) -> list[str]:
    """A few units that show the list's form: the first of each range, then listed values."""
    firsts = [expanded[0] for r in unit.ranges if (expanded := r.expand())]
    return (firsts + [v for v in unit.values if v not in firsts])[:_EXAMPLES]


def list_form(catalogue: Catalogue, unit: LocationUnit) -> str:
    """What a list's units look like: its values, then its ranges as "A001 to A040"."""
    parts = list(unit.values)
    for unit_range in unit.ranges:
        expanded = unit_range.expand()
        if expanded:
            first, last = expanded[0], expanded[-1]
            ranged = catalogue.say("steps.unit.range", first=first, last=last)
            parts.append(first if first == last else ranged)
    shown = parts[:_FORM_PARTS]
    more = ", …" if len(parts) > len(shown) else ""
    return ", ".join(shown) + more


def unit_label(unit: LocationUnit) -> str:
    return unit.label.strip() or "Unit"  # the service may send an empty label


def listed(unit: LocationUnit) -> bool:
    """A list unit with something to list (an empty list can only be typed: see the docs)."""
    return unit.mode == "list" and bool(unit.choices())
