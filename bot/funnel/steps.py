"""What one turn did at which step: ``StepMark`` before it, ``events_of`` after it.

=================  ============================================================================
reached            the step's question was shown (a new order's first step, a step moved to)
answered           the step was answered and the conversation moved on (forward, or finished)
reasked            the same question again: ``invalid_answer`` (the answer was not accepted),
                   a create refusal's reason (``refused_validation``, ``refused_coverage``...:
                   counted at each step whose answer the refusal cleared to ask it again,
                   ``package_size`` for a create answered ``reask: true`` on ``packageSize``;
                   at the step that confirmed when none was cleared, the summary asked
                   again), or ``asked_again`` (anything else that kept the step)
went_back          the customer went back from the step
abandoned          the order ended there: ``cancelled`` by the customer, ``ended`` by the flow
                   (it could not go on), or ``idle`` (dropped by housekeeping)
created            the delivery was created from the step (the confirmation)
handoff            the customer asked for a person there (a hand-off opened at the step, not
                   from a turn: ``handed_off``); each hand-off counts
=================  ============================================================================
"""

from __future__ import annotations

from dataclasses import dataclass

from conversations import DeliveryCreated, Session, Turn

KINDS = ("reached", "answered", "reasked", "went_back", "abandoned", "created", "handoff")


@dataclass(frozen=True)
class StepMark:
    """Where a conversation stood before a turn."""

    flow: str
    step: str | None
    back_steps: int
    failures: int
    answered: tuple[str, ...] = ()  # the steps that had answers, in the order given


@dataclass(frozen=True)
class StepEvent:
    """One event of ``KINDS`` at ``flow``'s ``step``."""

    flow: str
    step: str
    kind: str
    reason: str | None = None


def mark(session: Session) -> StepMark:
    """``session`` before its turn."""
    return StepMark(
        session.flow, session.step, len(session.history), session.failures, tuple(session.answers)
    )


def events_of(
    before: StepMark | None, session: Session, turn: Turn, refusal: str | None = None
) -> list[StepEvent]:
    """The events of the turn that took ``before`` (None: a new order) to ``session``;
    ``refusal``: why the service refused the turn's create for certain, when it did (the
    turn's creator notes it, ``bot.ordering.turn_creates.TurnCreates.refusal``, and the
    turn-taker hands it here)."""
    if session.cancel_asked or session.starting_over is not None:
        return []  # a question about the order itself, not an answer to its step
    if before is None or before.step is None:
        return _reached(session)
    at = (before.flow, before.step)
    if turn.effect(DeliveryCreated) is not None:
        return [StepEvent(*at, "answered"), StepEvent(*at, "created")]
    if turn.status in ("cancelled", "ended"):
        return [StepEvent(*at, "abandoned", turn.status)]
    if turn.finished:  # unconfirmed: the create's answer was lost, and is followed up
        return [StepEvent(*at, "answered")]
    if refusal is not None:  # the create was refused: the questions it clears, asked again
        return _refused(at, before, session, f"refused_{refusal}")
    if len(session.history) < before.back_steps:
        return [StepEvent(*at, "went_back"), *_reached(session)]
    if (session.flow, session.step) == at:
        return [StepEvent(*at, "reasked", _reask_reason(before, session))]
    return [StepEvent(*at, "answered"), *_reached(session)]


def handed_off(session: Session) -> list[StepEvent]:
    """The customer asked for a person while the order was at its step (none without one)."""
    if session.step is None or session.finished:
        return []
    return [StepEvent(session.flow, session.step, "handoff")]


def abandoned_idle(session: Session) -> list[StepEvent]:
    """An unfinished order dropped for being idle: abandoned at its step."""
    if session.step is None:
        return []
    return [StepEvent(session.flow, session.step, "abandoned", "idle")]


def _reached(session: Session) -> list[StepEvent]:
    if session.step is None or session.finished:
        return []
    return [StepEvent(session.flow, session.step, "reached")]


def _refused(
    at: tuple[str, str], before: StepMark, session: Session, reason: str
) -> list[StepEvent]:
    """A refused create's re-asks: one at each step whose answer it cleared (they are in the
    flow the session is now in: this one, or the earlier flow that asks the field), each
    asked again in turn; the confirmation's own when it cleared none (the summary again)."""
    cleared = [step for step in before.answered if step not in session.answers]
    if not cleared:
        moved = (session.flow, session.step) != at
        return [StepEvent(*at, "reasked", reason), *(_reached(session) if moved else [])]
    reasked = [StepEvent(session.flow, step, "reasked", reason) for step in cleared]
    return reasked + _reached(session)


def _reask_reason(before: StepMark, session: Session) -> str:
    if session.failures > before.failures:
        return "invalid_answer"
    return "asked_again"
