"""Setting a demo run up from a transcript's @ lines."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.console.transcript import Directive, TranscriptError
from bot.demo import demo_setup
from bot.sandbox import ScenarioError


def lines(*texts: str) -> list[Directive]:
    found = []
    for number, text in enumerate(texts, start=1):
        name, _, argument = text.partition(" ")
        found.append(Directive(number, name, argument))
    return found


def test_the_default_scenario_with_edits_and_a_stale_copy() -> None:
    setup = demo_setup(
        lines(
            "set capabilities.pod.enabled = false",
            'set capabilities.enabledServiceKinds = ["pickup_delivery"]',
            "set organization.plan = 'basic'",
            "stale pod.enabled = true",
        )
    )
    caps = setup.scenario.capabilities
    assert caps.pod.enabled is False
    assert caps.enabledServiceKinds == ["pickup_delivery"]
    assert setup.scenario.max_warehouses == 1
    assert setup.stale == {"pod.enabled": True}
    assert setup.flow is None
    assert demo_setup(lines("flow errand")).flow == "errand"


def test_a_scenario_file_relative_to_the_transcript(tmp_path: Path) -> None:
    source = Path(__file__).parents[1] / "transcripts" / "scenarios" / "campus_errands.toml"
    (tmp_path / "campus.toml").write_bytes(source.read_bytes())
    setup = demo_setup(lines("scenario campus.toml"), base_dir=tmp_path)
    assert setup.scenario.organization.slug == "unilag-runners"


@pytest.mark.parametrize(
    ("directive", "error", "problem"),
    [
        ("set capabilities.pod.enabled", TranscriptError, "write @set KEY = VALUE"),
        ("stale = true", TranscriptError, "write @stale KEY = VALUE"),
        ("set a..b = 1", TranscriptError, "write @set KEY = VALUE"),
        ("set capabilities.currency = naira", TranscriptError, "is not a TOML value"),
        ("set capabilities.currency = 'naira'", ScenarioError, "capabilities.currency"),
        ("scenario missing.toml", ScenarioError, "cannot read the scenario file"),
        ("sandbox fast", TranscriptError, "unknown setup line @sandbox"),
        ("flow", TranscriptError, "unknown setup line @flow"),
    ],
)
def test_bad_setup_lines(directive: str, error: type[Exception], problem: str) -> None:
    with pytest.raises(error, match=problem):
        demo_setup(lines(directive), source="t.txt")
