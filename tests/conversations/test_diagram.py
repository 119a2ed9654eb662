"""The Mermaid diagram is drawn from the flow, and says exactly what the flow declares."""

from __future__ import annotations

import re

import pytest

from conversations.diagram import CREATE_NODE, START_NODE, mermaid
from conversations.flow import CreateDelivery, Handoff, targets_of
from conversations.flows import FLOWS, PICKUP_DELIVERY

_EDGE = re.compile(r'^\s+(\w+) (-->|-\.->)(?:\|"([^"]*)"\|)? (\w+)$')
_NODE = re.compile(r"^\s+(\w+)[\[(]")


def _declared_edges(flow):
    def node(target):
        if isinstance(target, CreateDelivery):
            return CREATE_NODE
        if isinstance(target, Handoff):
            return f"to_{target.flow}"
        return str(target)

    edges = {(START_NODE, "-->", "", flow.start)}
    for step in flow.steps:
        for label, target in targets_of(step.next):
            edges.add((step.name, "-->", label, node(target)))
        if step.skip_to is not None:
            edges.add((step.name, "-.->", "skipped", node(step.skip_to)))
    return edges


@pytest.mark.parametrize("flow", FLOWS, ids=lambda flow: flow.name)
def test_the_diagram_draws_every_declared_route_and_nothing_else(flow):
    text = mermaid(flow)
    drawn = {m.groups("") for m in map(_EDGE.match, text.splitlines()) if m}
    assert drawn == _declared_edges(flow)


@pytest.mark.parametrize("flow", FLOWS, ids=lambda flow: flow.name)
def test_the_diagram_has_a_node_for_every_step_and_every_node_is_reached(flow):
    lines = mermaid(flow).splitlines()
    assert lines[0] == "flowchart TD"
    nodes = {m.group(1) for m in map(_NODE.match, lines) if m}
    assert {step.name for step in flow.steps} <= nodes
    targets = {edge[3] for edge in _declared_edges(flow)} | {START_NODE}
    assert nodes == targets


def test_conditional_steps_say_when_they_are_asked():
    text = mermaid(PICKUP_DELIVERY)
    assert (
        'pod_amount["Cash to collect<br/><i>text</i><br/>only when POD is enabled<br/>'
        'pre-set, changed from the summary"]'
    ) in text
    assert "class pickup_unit,dropoff_unit,pickup_contact,pod_amount sometimes" in text
    assert 'pickup_contact -.->|"skipped"| receiver_name' in text
