"""docs/flows.md cannot drift: its diagrams are the ones generated from the flows, and its worked
example (a flow file and its transcript) builds and replays against the in-process stack."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from conversations.diagram import mermaid
from conversations.flow import FlowRegistry
from conversations.flows import FLOWS

DOC = Path(__file__).parents[2] / "docs" / "flows.md"
_BLOCK = re.compile(
    r"<!-- (?P<kind>diagram|example): (?P<name>[\w./-]+) -->\n```\w*\n(?P<body>.*?)```", re.S
)


def blocks(kind: str) -> dict[str, str]:
    text = DOC.read_text(encoding="utf-8")
    return {m["name"]: m["body"] for m in _BLOCK.finditer(text) if m["kind"] == kind}


@pytest.mark.parametrize("flow", FLOWS, ids=lambda flow: flow.name)
def test_the_diagram_in_the_doc_is_the_generated_one(flow) -> None:
    drawn = blocks("diagram")
    assert flow.name in drawn, f"docs/flows.md has no diagram of {flow.name}"
    assert drawn[flow.name] == mermaid(flow)


def test_the_doc_draws_no_flow_that_does_not_exist() -> None:
    assert set(blocks("diagram")) == {flow.name for flow in FLOWS}


async def test_the_worked_example_builds_and_its_transcript_passes(replay, tmp_path: Path) -> None:
    examples = blocks("example")
    module_file = tmp_path / "documents.py"
    module_file.write_text(examples["conversations/flows/documents.py"], encoding="utf-8")
    spec = importlib.util.spec_from_file_location("worked_example_documents", module_file)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    transcript = tmp_path / "documents.txt"
    transcript.write_text(examples["tests/transcripts/documents.txt"], encoding="utf-8")
    await replay(transcript, registry=FlowRegistry((*FLOWS, module.DOCUMENTS)))
