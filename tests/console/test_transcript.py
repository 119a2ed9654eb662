"""The transcript format: reading it, and replaying it on a driver until the first mismatch."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.console.transcript import (
    Directive,
    Entry,
    TranscriptError,
    TranscriptMismatch,
    load_transcript,
    parse_transcript,
    run_transcript,
)

TEXT = """\
# A comment, then setup
@scenario default
@set capabilities.pod.enabled = false

< What would you like?
> 1
< How   will the RIDER
! warehouse
? Pick it up
?! Drop at a warehouse
= delivery_mode
$ delivery.status = matched
$ delivery.pickup.address ~ Yaba
>
"""


def test_every_kind_of_line() -> None:
    transcript = parse_transcript(TEXT, "t.txt")
    assert transcript.setup == (
        Directive(2, "scenario", "default"),
        Directive(3, "set", "capabilities.pod.enabled = false"),
    )
    assert [(e.kind, e.text) for e in transcript.entries] == [
        ("expect", "What would you like?"),
        ("say", "1"),
        ("expect", "How   will the RIDER"),
        ("absent", "warehouse"),
        ("offered", "Pick it up"),
        ("not_offered", "Drop at a warehouse"),
        ("at", "delivery_mode"),
        ("fact", "delivery.status = matched"),
        ("fact", "delivery.pickup.address ~ Yaba"),
        ("say", ""),
    ]
    assert transcript.entries[1] == Entry(6, "say", "1")


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("> 1\n@set a = 1\n", "t.txt:2: setup lines (@...) go before the rest"),
        ("hello\n", "t.txt:1: a line starts with one of"),
        ("$ delivery.status\n", "t.txt:1: write a fact as `$ path = value`"),
        ("?\n", "t.txt:1: `?` needs some text"),
    ],
)
def test_lines_that_cannot_be_read_are_named(text: str, problem: str) -> None:
    with pytest.raises(TranscriptError, match=re.escape(problem)):
        parse_transcript(text, "t.txt")


def test_a_file_that_cannot_be_read(tmp_path: Path) -> None:
    with pytest.raises(TranscriptError, match="cannot read the transcript"):
        load_transcript(tmp_path / "missing.txt")
    (tmp_path / "t.txt").write_text("> 1\n", encoding="utf-8")
    assert load_transcript(tmp_path / "t.txt").base_dir == tmp_path


class Driver:
    """Answers each line from a script of screens."""

    def __init__(self, screens: dict[str, list[str]]) -> None:
        self.screens = screens
        self.typed: list[str] = []
        self.options = ["Pick it up", "Keep: 12 Marina"]
        self.step: str | None = "delivery_mode"
        self.facts = {"delivery.status": "matched", "delivery.pickup.address": "12 Yaba Road"}

    async def type_line(self, line: str) -> list[str]:
        self.typed.append(line)
        return self.screens.get(line, [])

    def option_labels(self) -> list[str]:
        return self.options

    async def position(self) -> str | None:
        return self.step

    async def fact(self, path: str) -> str:
        return self.facts.get(path, "<none>")


async def test_a_matching_transcript_replays_to_the_end() -> None:
    driver = Driver({"1": ["bot: How will the rider", "     get it?"], "": []})
    echoed: list[str] = []
    await run_transcript(
        parse_transcript(TEXT), driver, screen=["bot: What would you like?"], echo=echoed.append
    )
    assert driver.typed == ["1", ""]
    assert echoed == ["> 1", "> "]


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("< Where to?", "expected the bot to say 'Where to?'"),
        ("! rider", "the bot said 'rider'"),
        (
            "? Warehouse",
            "expected an option like 'Warehouse'; options: ['Pick it up', 'Keep: 12 Marina']",
        ),
        ("?! keep", "did not expect 'keep'"),
        ("= summary", "expected to be at 'summary', not 'delivery_mode'"),
        (
            "$ delivery.status = pending",
            "expected delivery.status = 'pending', but it is 'matched'",
        ),
        ("$ delivery.pickup.address ~ Ikoyi", "expected delivery.pickup.address ~ 'Ikoyi'"),
    ],
)
async def test_the_first_mismatch_names_its_line_and_shows_the_screen(
    line: str, problem: str
) -> None:
    driver = Driver({"1": ["bot: How will the rider get it?"]})
    transcript = parse_transcript(f"> 1\n{line}\n> 2\n", "t.txt")
    with pytest.raises(TranscriptMismatch) as raised:
        await run_transcript(transcript, driver)
    message = str(raised.value)
    assert message.startswith(f"t.txt:2: {problem}")
    assert "    | bot: How will the rider get it?" in message
    assert driver.typed == ["1"]  # nothing after the mismatch was typed
