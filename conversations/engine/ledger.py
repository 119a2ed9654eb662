"""The answers of a session and what depends on them.

An answer is recorded under its step's name. When it changes, every answer declared as built on
it (``Step.depends_on``, followed transitively) is forgotten, and so is whatever those steps
filled in for other steps (a shared contact fills the phone step). A step's own answer always
wins over a filled one. Answers an earlier order gave ("repeat my last delivery") are recorded as
filled by ``REPLAYED``, and a step's pre-set default (``Step.preset``) as filled by ``PRESET``,
so the walk passes over them the same way; both stay editable from the summary.
"""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import JsonValue

from conversations.flow import Flow
from conversations.session import Session, Visit

REPLAYED = "@replayed"  # the source of answers an earlier order gave (not a step name)
PRESET = "@preset"  # the source of a default a step took without asking (not a step name)


def record(
    session: Session,
    flow: Flow,
    name: str,
    value: JsonValue,
    fills: Mapping[str, JsonValue] | None = None,
    *,
    auto: bool = False,
) -> None:
    """Store ``name``'s answer (``auto``: the step answered itself) and what it fills."""
    fills = dict(fills or {})
    _set(session, flow, name, value)
    session.filled_by.pop(name, None)
    if auto and name not in session.auto_answered:
        session.auto_answered.append(name)
    elif not auto and name in session.auto_answered:
        session.auto_answered.remove(name)
    for other, source in list(session.filled_by.items()):
        if source == name and other not in fills:
            clear(session, flow, other)
    for other, other_value in fills.items():
        _set(session, flow, other, other_value)
        session.filled_by[other] = name


def preset(session: Session, flow: Flow, name: str, value: JsonValue) -> None:
    """Store ``name``'s pre-set default: taken without asking, changed from the summary."""
    record(session, flow, name, value)
    session.filled_by[name] = PRESET


def own_fills(session: Session, name: str) -> dict[str, JsonValue]:
    """What ``name``'s answer filled in for other steps (kept when the answer is kept)."""
    return {
        other: session.answers[other]
        for other, source in session.filled_by.items()
        if source == name and other in session.answers
    }


def clear(session: Session, flow: Flow, name: str) -> None:
    """Forget ``name``'s answer, every answer built on it, and what they filled."""
    gone = {name} | flow.dependents(name)
    for each in gone:
        session.answers.pop(each, None)
        session.filled_by.pop(each, None)
        if each in session.auto_answered:
            session.auto_answered.remove(each)
    for other, source in list(session.filled_by.items()):
        if source in gone:
            clear(session, flow, other)


def remember_visit(session: Session, flow: Flow, name: str) -> None:
    """Note that the customer answered ``name`` (what "back" walks through)."""
    visit = Visit(flow=flow.name, step=name)
    if not session.history or session.history[-1] != visit:
        session.history.append(visit)


def _set(session: Session, flow: Flow, name: str, value: JsonValue) -> None:
    if name in session.answers and session.answers[name] != value:
        for dependent in flow.dependents(name):
            clear(session, flow, dependent)
    session.answers[name] = value
