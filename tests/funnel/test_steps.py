"""``bot.funnel.steps``: what each kind of turn counts, at which step, for which reason."""

from __future__ import annotations

from typing import Any

import pytest

from bot.funnel.steps import StepEvent, abandoned_idle, events_of, mark
from conversations import DeliveryCreated, Session, Turn
from conversations.session import Visit

FLOW = "errand"


def session(step: str | None, *, back: int = 0, failures: int = 0, **more: Any) -> Session:
    history = [Visit(flow=FLOW, step=f"s{n}") for n in range(back)]
    return Session(id="conv-1", entry_flow=FLOW, flow=FLOW, flow_version=1, step=step,
                   history=history, failures=failures, **more)  # fmt: skip


def turn(status: str = "open", *effects: object) -> Turn:
    return Turn.model_construct(messages=(), prompt=None, status=status, effects=effects)


def at(step: str, kind: str, reason: str | None = None) -> StepEvent:
    return StepEvent(FLOW, step, kind, reason)


def test_a_new_order_reaches_its_first_step() -> None:
    assert events_of(None, session("what"), turn()) == [at("what", "reached")]


def test_an_answer_moves_on_to_the_next_step() -> None:
    before = mark(session("what", back=1))
    after = session("where", back=2)
    assert events_of(before, after, turn()) == [at("what", "answered"), at("where", "reached")]


@pytest.mark.parametrize(("failures_after", "reason"), [(1, "invalid_answer"), (0, "asked_again")])
def test_the_same_question_again_is_a_reask_with_its_reason(
    failures_after: int, reason: str
) -> None:
    before = mark(session("phone", back=2))
    after = session("phone", back=2, failures=failures_after)
    assert events_of(before, after, turn()) == [at("phone", "reasked", reason)]


def test_a_refused_create_with_no_field_to_fix_is_a_reask_of_the_confirmation() -> None:
    answers = {"what": "shoes", "where": "Yaba"}
    before = mark(session("summary", back=5, answers=answers))
    refused = "rate_limited"  # the creator, during the turn: the summary again
    after = session("summary", back=5, answers=answers)
    assert events_of(before, after, turn(), refused) == [
        at("summary", "reasked", "refused_rate_limited")
    ]


def test_a_refused_create_is_a_reask_of_each_field_it_asks_again() -> None:
    answers = {"pickup_place": "Yaba", "package_size": "small", "photos": []}
    before = mark(session("summary", back=5, answers=answers))
    refused = "coverage"  # the creator, during the turn
    # The refused fields' steps lose their answers; the first of them is asked now.
    after = session("pickup_place", back=5, answers={"photos": []}, editing=True)
    assert events_of(before, after, turn(), refused) == [
        at("pickup_place", "reasked", "refused_coverage"),
        at("package_size", "reasked", "refused_coverage"),
        at("pickup_place", "reached"),
    ]
    # The next turn starts with no refusal noted.
    again = mark(session("pickup_place", back=5))
    assert events_of(again, session("summary", back=6), turn())[0] == at("pickup_place", "answered")


def test_each_create_answered_reask_on_package_size_is_a_reask_there() -> None:
    """The API answered two creates with ``reask: true`` on ``packageSize``: two re-asks at
    ``package_size``, none at the summary."""
    answers = {"package_description": "shoes", "package_size": "small"}
    events = []
    for _ in range(2):
        before = mark(session("summary", back=5, answers=answers))
        after = session("package_size", back=5, answers={"package_description": "shoes"})
        events += events_of(before, after, turn(), "validation")
        # The customer answers it again, and is back at the summary.
        events += events_of(mark(after), session("summary", back=6, answers=answers), turn())
    reasks = [(e.step, e.reason) for e in events if e.kind == "reasked"]
    assert reasks == [("package_size", "refused_validation")] * 2


def test_going_back_counts_at_the_step_left() -> None:
    before = mark(session("where", back=2))
    after = session("what", back=1)
    assert events_of(before, after, turn()) == [at("where", "went_back"), at("what", "reached")]


@pytest.mark.parametrize("status", ["cancelled", "ended"])
def test_an_order_ending_unfinished_is_abandoned_there(status: str) -> None:
    before = mark(session("phone", back=2))
    after = session("phone", back=2, status=status)
    assert events_of(before, after, turn(status)) == [at("phone", "abandoned", status)]


def test_a_created_delivery_counts_at_the_confirmation() -> None:
    before = mark(session("summary", back=5))
    created = DeliveryCreated.model_construct(delivery=None, request=None, order=None)
    after = session("summary", back=5, status="created")
    assert events_of(before, after, turn("created", created)) == [
        at("summary", "answered"),
        at("summary", "created"),
    ]


def test_a_create_whose_answer_was_lost_is_answered_not_abandoned() -> None:
    before = mark(session("summary", back=5))
    after = session("summary", back=5, status="unconfirmed")
    assert events_of(before, after, turn("unconfirmed")) == [at("summary", "answered")]


def test_a_question_about_the_order_itself_counts_nothing() -> None:
    before = mark(session("phone", back=2))
    assert events_of(before, session("phone", back=2, cancel_asked=True), turn()) == []
    assert events_of(before, session("phone", back=2, starting_over=FLOW), turn()) == []


def test_an_idle_order_is_abandoned_at_its_step() -> None:
    assert abandoned_idle(session("where")) == [at("where", "abandoned", "idle")]
    assert abandoned_idle(session(None)) == []
