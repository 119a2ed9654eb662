"""Flows are checked when they are declared, so a mistake in a flow file fails at import."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from conversations.context import Context
from conversations.flow import CREATE, Branch, Condition, Flow, FlowError, FlowRegistry, Handoff
from conversations.flows import ENTRY_FLOW, ERRAND, FLOWS, PICKUP_DELIVERY, default_registry
from conversations.session import Session
from conversations.steps import choice, summary, text, yes_no
from tests.support.words import SHIPPED


def _text(name, next, **extra):
    return text(name, title=name, question="?", next=next, **extra)


def _summary():
    return summary(heading="Check:", hints=lambda ctx: [])


BASE = {
    "senderName": "Base",
    "senderPhone": "+2348031234567",
    "receiverName": "Bola Ade",
    "receiverPhone": "+2348022223333",
    "pickupAddress": "12 Marina Road",
    "pickupCoords": {"lat": 6.5, "lng": 3.3},
    "deliveryAddress": "1 Admiralty Way",
    "deliveryCoords": {"lat": 6.4, "lng": 3.4},
    "packageDescription": "Books",
    "packageImages": ["https://media.example/p/1.jpg"],
    "customerCollectionMethod": "cash_on_delivery",
}
# What a toy flow that creates sends besides its steps' answers: every field its kind requires.
FILLED = {**BASE, "packageSize": "small"}


def _flow(*steps, name="f", service_kind="pickup_delivery", start="a", fixed=None, **extra):
    return Flow(
        name=name,
        title=name,
        version=1,
        start=start,
        steps=steps,
        service_kind=service_kind,
        fixed=FILLED if fixed is None and service_kind else (fixed or {}),
        **extra,
    )


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
        (
            (_text("a", "summary", write=lambda ctx, value: {}), _summary()),
            "a",
            "writes but names no fields",
        ),
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


def test_creating_needs_a_service_kind_and_is_done_by_the_summary():
    with pytest.raises(FlowError, match="creates but names no service_kind"):
        _flow(_text("a", "summary"), _summary(), service_kind=None)
    with pytest.raises(FlowError, match="only the summary may create"):
        _flow(_text("a", CREATE))


def test_fixed_values_and_commands_are_checked_too():
    with pytest.raises(FlowError, match=r"fixed values for unknown fields \['deliveryMod'\]"):
        _flow(_text("a", "summary"), _summary(), fixed={**FILLED, "deliveryMod": "pickup"})
    for bad in ("Return", "/return", "", "r" * 33, "re-turn"):
        with pytest.raises(FlowError, match="is not 1-32 of a-z, 0-9, _"):
            _flow(_text("a", "summary"), _summary(), command=bad)
    assert _flow(_text("a", "summary"), _summary(), command="return_2").command == "return_2"


def test_handoffs_must_land_on_a_registered_flow_with_its_own_step_names():
    source = _flow(_text("a", Handoff("g")), name="f", service_kind=None)
    with pytest.raises(FlowError, match="unknown flow 'g'"):
        FlowRegistry([source])
    clash = _flow(_text("a", "summary"), _summary(), name="g")
    with pytest.raises(FlowError, match="both declare"):
        FlowRegistry([source, clash])
    fine = _flow(_text("b", "summary"), _summary(), name="g", start="b")
    assert FlowRegistry([source, fine]).names == ["f", "g"]
    with pytest.raises(FlowError, match="registered twice"):
        FlowRegistry([fine, fine])


def test_a_registry_knows_its_entry_and_its_commands():
    f = _flow(_text("a", "summary"), _summary(), name="f")
    g = _flow(_text("a", "summary"), _summary(), name="g", command="gee", label="Gee!")
    h = _flow(_text("a", "summary"), _summary(), name="h", command="aitch")
    registry = FlowRegistry([f, g, h])
    assert registry.entry == "f"  # the first flow unless named
    assert FlowRegistry([f, g], entry="g").entry == "g"
    assert "g" in registry and "z" not in registry
    assert [flow.name for flow in registry.with_commands] == ["g", "h"]
    assert registry.by_command("gee") is g
    assert registry.by_command("f") is None
    assert (g.menu_label(SHIPPED), h.menu_label(SHIPPED)) == (
        "Gee!",
        "h",
    )  # the title when no label
    with pytest.raises(FlowError, match="entry flow 'z' is not registered"):
        FlowRegistry([f, g], entry="z")
    with pytest.raises(FlowError, match="at least one flow"):
        FlowRegistry([])


def test_two_flows_may_not_declare_the_same_command():
    g = _flow(_text("a", "summary"), _summary(), name="g", command="go")
    h = _flow(_text("a", "summary"), _summary(), name="h", command="go")
    with pytest.raises(FlowError, match="two flows declare the same command"):
        FlowRegistry([g, h])


# --- assembling the request ---------------------------------------------------------------------


def _assembling_flow() -> Flow:
    """Declared out of route order: the route is base -> name -> never -> summary."""
    return _flow(
        _text("name", "never", fields=("senderName",)),
        _text(
            "never",
            "summary",
            fields=("packageDescription",),
            when=Condition("never", lambda ctx: False),
        ),
        _text("base", "name", fields=tuple(BASE), write=lambda ctx, value: BASE),
        _text("unused", "summary", fields=("senderEmail",)),  # not on the route
        _summary(),
        start="base",
        fixed={"packageSize": "small", "deliveryMode": "pickup"},
    )


def _ctx(flow: Flow, answers, caps) -> Context:
    session = Session(id="s", entry_flow=flow.name, flow=flow.name, flow_version=1)
    session.answers.update(answers)
    return Context(
        session=session,
        flow=flow,
        caps=caps(),
        warehouses=(),
        locations=(),
        phone_region="NG",
        geocoder=None,
        catalogue=SHIPPED,
    )


def test_assemble_writes_the_kind_the_fixed_values_then_each_answer_in_route_order(caps):
    flow = _assembling_flow()
    answers = {
        "base": "anything",
        "name": "Ada Obi",
        "never": "not on the route",
        "unused": "ada@example.com",
    }
    request = flow.assemble(_ctx(flow, answers, caps))

    assert request.serviceKind == "pickup_delivery"
    assert (request.packageSize, request.deliveryMode) == ("small", "pickup")  # fixed
    assert request.senderName == "Ada Obi"  # name comes after base on the route: it wins
    assert request.packageDescription == "Books"  # the skipped step writes nothing
    assert request.senderEmail == ""  # an answer off the route writes nothing
    assert request.receiverPhone == "+2348022223333"


def test_assemble_leaves_out_unanswered_steps_and_fails_like_the_model(caps):
    flow = _assembling_flow()
    assert flow.assemble(_ctx(flow, {"base": "x"}, caps)).senderName == "Base"
    with pytest.raises(ValidationError):
        flow.assemble(_ctx(flow, {"name": "Ada Obi"}, caps))  # base unanswered: no route


# --- the fields each kind requires ----------------------------------------------------------------

ERRAND_FILLED = {
    **{name: value for name, value in FILLED.items() if not name.startswith("receiver")},
    "packageImages": [],
    "errandMode": "at_place",
    "errandLinks": [],
    "errandSubstituteOk": False,
    "pickupLocationUnknown": False,
}


def test_a_flow_that_cannot_fill_a_field_its_kind_requires_fails_when_built():
    # The errand's budget and shop phone are sent even when empty: forgetting them is found
    # here, naming the flow, the kind and the fields, not at a customer's confirm.
    message = r"f: the errand request must carry \['errandBudgetNgn', 'shopPhone'\]"
    with pytest.raises(FlowError, match=message):
        _flow(_text("a", "summary"), _summary(), service_kind="errand", fixed=ERRAND_FILLED)
    fixed = {**ERRAND_FILLED, "errandBudgetNgn": "", "shopPhone": ""}
    assert _flow(_text("a", "summary"), _summary(), service_kind="errand", fixed=fixed)
    by_steps = (
        _text("a", "b", fields=("errandBudgetNgn",)),
        _text("b", "summary", fields=("shopPhone",)),
        _summary(),
    )
    assert _flow(*by_steps, service_kind="errand", fixed=ERRAND_FILLED)


def test_every_route_to_the_create_must_fill_them():
    without_phone = {k: v for k, v in FILLED.items() if k != "receiverPhone"}
    sometimes = _text(
        "phone",
        "summary",
        fields=("receiverPhone",),
        when=Condition("sometimes", lambda ctx: True),
    )
    with pytest.raises(
        FlowError, match=r"\['receiverPhone'\], but the route a > \(phone\) > summary"
    ):
        _flow(_text("a", "phone"), sometimes, _summary(), fixed=without_phone)
    branching = yes_no(
        "a",
        title="A",
        question="?",
        next=Branch("a", lambda ctx: "yes", {"yes": "phone", "no": "summary"}),
    )
    always = _text("phone", "summary", fields=("receiverPhone",))
    with pytest.raises(FlowError, match=r"the route a > summary fills none"):
        _flow(branching, always, _summary(), fixed=without_phone)
    assert _flow(_text("a", "phone"), always, _summary(), fixed=without_phone)


def test_a_step_that_names_a_field_but_does_not_write_it_does_not_fill_it():
    without_name = {k: v for k, v in FILLED.items() if k != "senderName"}
    names_only = choice(
        "a",
        title="A",
        question="?",
        options=(),
        fields=("senderName",),
        writes=False,
        next="summary",
    )
    with pytest.raises(FlowError, match=r"\['senderName'\]"):
        _flow(names_only, _summary(), fixed=without_name)


# --- the shipped registry and a menu of a test's own ---------------------------------------------


def test_a_registry_with_a_menu_of_its_own_offers_only_that_menu_but_starts_every_flow():
    registry = default_registry(menu=(ERRAND,))
    offered = registry[ENTRY_FLOW].step("service_kind").next
    assert isinstance(offered, Branch) and list(offered.routes) == ["errand"]
    assert registry.names == [ENTRY_FLOW, *(flow.name for flow in FLOWS)]
    with pytest.raises(FlowError, match=r"not registered: \['errand'\]"):
        default_registry((PICKUP_DELIVERY,), menu=(ERRAND,))
