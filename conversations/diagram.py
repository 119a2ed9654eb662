"""A Mermaid flowchart drawn from a flow itself, so the picture cannot drift from the code.

::

    print(mermaid(PICKUP_DELIVERY))

Each step is a node (title, input kind, the condition when it is only sometimes asked, and
whether it takes a pre-set default without asking; sometimes-asked steps are drawn dashed);
each route of ``next`` is an arrow, labelled with the branch key.
A hand-off to another flow and the final create are drawn as their own nodes.
"""

from __future__ import annotations

from dataclasses import dataclass

from conversations.flow import CreateDelivery, Flow, Handoff, Step, Target, targets_of
from conversations.texts.catalogue import SOURCE_LANGUAGE, Texts
from conversations.texts.said import words

START_NODE = "flow_start"
CREATE_NODE = "create_delivery"
SHIPPED_ENGLISH = Texts().catalogue_for(SOURCE_LANGUAGE)


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    label: str = ""
    skipped: bool = False  # the route a conditional step takes when it is not asked


def node_id(target: Target) -> str:
    if isinstance(target, CreateDelivery):
        return CREATE_NODE
    if isinstance(target, Handoff):
        return f"to_{target.flow}"
    return str(target)


def edges(flow: Flow) -> list[Edge]:
    """Every arrow of the diagram: the start, then each step's routes in declaration order."""
    found = [Edge(START_NODE, str(flow.start))]
    for step in flow.steps:
        for label, target in targets_of(step.next):
            found.append(Edge(step.name, node_id(target), label))
        for label, target in flow.skip_edges(step):
            found.append(Edge(step.name, node_id(target), label, skipped=True))
    return found


def _quoted(text: str) -> str:
    return '"' + text.replace('"', "#quot;") + '"'


def _step_node(step: Step) -> str:
    parts = [step.said_title(SHIPPED_ENGLISH), f"<i>{step.input}</i>"]
    if step.when is not None:
        parts.append(f"only when {step.when.label}")
    if step.preset is not None:
        parts.append("pre-set, changed from the summary")
    return f"{step.name}[{_quoted('<br/>'.join(parts))}]"


def mermaid(flow: Flow) -> str:
    """The flow as Mermaid ``flowchart`` text, its titles in the shipped English (the docs'
    language, whatever a business overrides or speaks)."""
    lines = ["flowchart TD", f'    {START_NODE}(("start: {words(flow.title, SHIPPED_ENGLISH)}"))']
    lines += [f"    {_step_node(step)}" for step in flow.steps]
    specials: dict[str, str] = {}
    for step in flow.steps:
        for _, target in targets_of(step.next) + flow.skip_edges(step):
            if isinstance(target, CreateDelivery):
                specials[CREATE_NODE] = f'{CREATE_NODE}(("create the delivery"))'
            elif isinstance(target, Handoff):
                specials[node_id(target)] = f"{node_id(target)}[[{_quoted(target.flow + ' flow')}]]"
    lines += [f"    {node}" for node in specials.values()]
    for edge in edges(flow):
        line = "-.->" if edge.skipped else "-->"
        arrow = f"{line}|{_quoted(edge.label)}|" if edge.label else line
        lines.append(f"    {edge.source} {arrow} {edge.target}")
    sometimes = [step.name for step in flow.steps if step.when is not None]
    if sometimes:
        lines.append("    classDef sometimes stroke-dasharray: 5 5")
        lines.append(f"    class {','.join(sometimes)} sometimes")
    return "\n".join(lines) + "\n"
