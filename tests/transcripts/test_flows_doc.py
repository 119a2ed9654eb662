"""docs/flows.md cannot drift: its diagrams are the ones generated from the flows, its worked
example is the shipped flow and transcript word for word (its excerpts are lines of the shipped
files), and its example of a flow that is not shipped builds and replays against the in-process
stack."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from conversations.diagram import mermaid
from conversations.flows import FLOWS, default_registry
from conversations.refusals import table_markdown
from conversations.request_fields import table_markdown as required_fields_table

ROOT = Path(__file__).parents[2]
DOC = ROOT / "docs" / "flows.md"
_BLOCK = re.compile(
    r"<!-- (?P<kind>diagram|example|excerpt|table): (?P<name>[\w./-]+) -->\n"
    r"```\w*\n(?P<body>.*?)```",
    re.S,
)
# The worked example: the shipped "return a parcel" flow and its transcript.
WORKED_EXAMPLE = ("conversations/flows/return_parcel.py", "tests/transcripts/return_parcel.txt")
REGISTRY = default_registry()
ALL_FLOWS = [REGISTRY[name] for name in REGISTRY.names]  # the entry flow, then FLOWS


def blocks(kind: str) -> dict[str, str]:
    text = DOC.read_text(encoding="utf-8")
    return {m["name"]: m["body"] for m in _BLOCK.finditer(text) if m["kind"] == kind}


@pytest.mark.parametrize("flow", ALL_FLOWS, ids=lambda flow: flow.name)
def test_the_diagram_in_the_doc_is_the_generated_one(flow) -> None:
    drawn = blocks("diagram")
    assert flow.name in drawn, (
        f"docs/flows.md has no diagram of {flow.name}; add this under Diagrams:\n"
        f"<!-- diagram: {flow.name} -->\n```mermaid\n{mermaid(flow)}```"
    )
    assert drawn[flow.name] == mermaid(flow)


def test_the_doc_draws_no_flow_that_does_not_exist() -> None:
    assert set(blocks("diagram")) == {flow.name for flow in ALL_FLOWS}


def test_the_refusal_table_is_the_one_the_engine_follows() -> None:
    assert blocks("table")["refusals"] == table_markdown()


def test_the_required_fields_table_is_the_one_the_flows_are_checked_against() -> None:
    assert blocks("table")["required-fields"] == required_fields_table()


def test_the_worked_example_is_the_shipped_flow_and_transcript() -> None:
    examples = blocks("example")
    for path in WORKED_EXAMPLE:
        assert path in examples, f"docs/flows.md no longer shows {path}"
        assert examples[path] == (ROOT / path).read_text(encoding="utf-8"), path


def test_an_example_of_a_shipped_file_is_that_file() -> None:
    for path, body in blocks("example").items():
        if (ROOT / path).exists():
            assert body == (ROOT / path).read_text(encoding="utf-8"), path


def test_each_line_of_an_excerpt_is_a_line_of_its_file() -> None:
    excerpts = blocks("excerpt")
    assert excerpts, "docs/flows.md shows no excerpt (the registration of the worked example)"
    for path, body in excerpts.items():
        lines = set((ROOT / path).read_text(encoding="utf-8").splitlines())
        missing = [line for line in body.splitlines() if line.strip() and line not in lines]
        assert missing == [], f"{path} no longer has {missing}"


async def test_the_unshipped_example_builds_and_its_transcript_passes(
    replay, tmp_path: Path
) -> None:
    examples = blocks("example")
    module_file = tmp_path / "documents.py"
    module_file.write_text(examples["conversations/flows/documents.py"], encoding="utf-8")
    spec = importlib.util.spec_from_file_location("worked_example_documents", module_file)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    transcript = tmp_path / "documents.txt"
    transcript.write_text(examples["tests/transcripts/documents.txt"], encoding="utf-8")
    await replay(transcript, registry=default_registry((*FLOWS, module.DOCUMENTS)))
