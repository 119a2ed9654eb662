"""The summary's "Change ..." choices, grouped so the summary stays short.

A pickup & delivery can have sixteen answers to change; sixteen buttons under a summary are a
wall. The summary offers one choice per group instead (places, people, package, payment,
other details), and a group opens a second menu of its fields, so every answer is two taps
away. A group with one field is that field's own "Change ..." choice (one tap).

A step's group follows from the request fields it fills (``Step.fields``), so a new step
lands in the right group without declaring one; a step that fills none is an "other detail".
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from conversations.flow import Step
from conversations.texts.catalogue import Catalogue
from conversations.texts.said import Words, said, words


class Group(StrEnum):
    PLACES = "places"
    PEOPLE = "people"
    PACKAGE = "package"
    PAYMENT = "payment"
    OTHER = "other"


# The request fields each group holds, by how their names start.
_FIELD_STARTS: tuple[tuple[str, Group], ...] = (
    ("pickupAddress", Group.PLACES),
    ("pickupCoords", Group.PLACES),
    ("delivery", Group.PLACES),  # deliveryAddress, deliveryCoords, deliveryMode
    ("warehouse", Group.PLACES),
    ("errand", Group.PLACES),  # errandMode, errandLinks: where the errand goes
    ("sender", Group.PEOPLE),
    ("receiver", Group.PEOPLE),
    ("pickupContact", Group.PEOPLE),
    ("shopPhone", Group.PEOPLE),
    ("package", Group.PACKAGE),
    ("isFragile", Group.PACKAGE),
    ("errandBudget", Group.PAYMENT),
    ("errandSubstitute", Group.PACKAGE),
    ("customerCollection", Group.PAYMENT),
    ("isPOD", Group.PAYMENT),
    ("pod", Group.PAYMENT),
)
# More specific starts first: "errandBudget" is money, "errandSubstitute" the goods.
_ORDERED = sorted(_FIELD_STARTS, key=lambda pair: -len(pair[0]))

TITLES: dict[Group, Words] = {
    Group.PLACES: said("steps.summary.group.places"),
    Group.PEOPLE: said("steps.summary.group.people"),
    Group.PACKAGE: said("steps.summary.group.package"),
    Group.PAYMENT: said("steps.summary.group.payment"),
    Group.OTHER: said("steps.summary.group.other"),
}


def group_of(step: Step) -> Group:
    """The group ``step``'s answer is changed from: that of the first field it fills."""
    for name in step.fields:
        for start, group in _ORDERED:
            if name.startswith(start):
                return group
    return Group.OTHER


def grouped(steps: Sequence[Step]) -> list[tuple[Group, list[Step]]]:
    """``steps`` by group, the groups in the order their first step comes on the route."""
    groups: dict[Group, list[Step]] = {}
    for step in steps:
        groups.setdefault(group_of(step), []).append(step)
    return list(groups.items())


def group_title(catalogue: Catalogue, group: Group) -> str:
    """The group's name in the language of the turn ("people")."""
    return words(TITLES[group], catalogue)
