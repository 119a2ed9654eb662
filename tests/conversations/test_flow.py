"""Flows are checked when they are declared, so a mistake in a flow file fails at import."""

from __future__ import annotations

import pytest

from conversations.flow import CREATE, Branch, Condition, Flow, FlowError, FlowRegistry, Handoff
from conversations.steps import summary, text, yes_no


def _text(name, next, **extra):
    return text(name, title=name, question="?", next=next, **extra)


def _summary():
    return summary("summary", title="Summary", heading="Check:", hints=lambda ctx: [])


def _flow(*steps, name="f", build=lambda ctx: None, start="a"):
    return Flow(name=name, title=name, version=1, start=start, steps=steps, build=build)


def test_a_well_formed_flow_is_accepted():
    flow = _flow(_text("a", "summary", fields=("senderName",)), _summary())
    assert "a" in flow
    assert flow.summary_step is not None and flow.summary_step.name == "summary"


@pytest.mark.parametrize(
    ("steps", "start", "message"),
    [
        ((_text("a", "b"), _summary()), "a", "leads to unknown 'b'"),
        ((_text("a", "summary"), _text("a", "summary"), _summary()), "a", "declared twice"),
        ((_text("a", "summary"), _summary()), "z", "start step 'z' is not declared"),
        ((_text("a", "summary", depends_on=("q",)), _summary()), "a", "depends on unknown"),
        ((_text("a", "summary", fields=("senderNmae",)), _summary()), "a", "unknown fields"),
    ],
)
def test_mistakes_are_found_when_the_flow_is_built(steps, start, message):
    with pytest.raises(FlowError, match=message):
        _flow(*steps, start=start)


def test_a_skippable_step_that_branches_on_itself_needs_somewhere_to_go():
    branching = yes_no(
        "a",
        title="A",
        question="?",
        when=Condition("sometimes", lambda ctx: False),
        next=Branch("a", lambda ctx: "yes", {"yes": "summary", "no": "summary"}),
    )
    with pytest.raises(FlowError, match="no skip_to"):
        _flow(branching, _summary())


def test_creating_needs_a_build_and_is_done_by_the_summary():
    with pytest.raises(FlowError, match="has no build"):
        _flow(_text("a", "summary"), _summary(), build=None)
    with pytest.raises(FlowError, match="only the summary may create"):
        _flow(_text("a", CREATE))


def test_handoffs_must_land_on_a_registered_flow_with_its_own_step_names():
    source = _flow(_text("a", Handoff("g")), name="f", build=None)
    with pytest.raises(FlowError, match="unknown flow 'g'"):
        FlowRegistry([source])
    clash = _flow(_text("a", "summary"), _summary(), name="g")
    with pytest.raises(FlowError, match="both declare"):
        FlowRegistry([source, clash])
    fine = _flow(_text("b", "summary"), _summary(), name="g", start="b")
    assert FlowRegistry([source, fine]).names == ["f", "g"]
    with pytest.raises(FlowError, match="registered twice"):
        FlowRegistry([fine, fine])
