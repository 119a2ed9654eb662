"""`deliverybot demo`: a script replayed without a terminal (exit 0, 1 on the first mismatch,
2 for a bad file), and the interactive loop reading typed lines from a pipe."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from bot.cli import main
from bot.demo.demo_cli import interactive

SCRIPT = """\
# A whole order in a script: the greeting, a warehouse drop-off, then delivered.
< What would you like to order?
> 1
> 2
> 2
> 1
> Ada Obi
> 08031234567
> skip
> contact 08022223333 Bola Ahmed
> Shoes
> 1
> 2
> parcel.png
> done
> 1
> 1
> 1
< Done! Your order reference is
$ delivery.pickup.address = 3 Admiralty Way, Lekki Phase 1, Lagos
> :paid
> :assign rdr_tunde
> :advance
> :advance
> :advance
< Your package has been delivered.
"""


def write_script(directory: Path, text: str, png: bytes) -> Path:
    (directory / "parcel.png").write_bytes(png)
    script = directory / "order.txt"
    script.write_text(text, encoding="utf-8")
    return script


def test_a_script_that_matches_exits_0(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], photo_dir: Path
) -> None:
    script = write_script(tmp_path, SCRIPT, (photo_dir / "parcel.png").read_bytes())
    assert main(["demo", "--script", str(script)]) == 0
    out = capsys.readouterr().out
    assert "> :paid" in out
    assert "Your package has been delivered." in out
    assert out.rstrip().endswith(f"ok: {script} replayed, every check matched")


def test_a_mismatch_exits_1_at_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], photo_dir: Path
) -> None:
    text = SCRIPT.replace("< Done! Your order reference is", "< Your parcel is on the moon")
    script = write_script(tmp_path, text, (photo_dir / "parcel.png").read_bytes())
    assert main(["demo", "--script", str(script)]) == 1
    captured = capsys.readouterr()
    assert f"MISMATCH {script}:19: expected the bot to say 'Your parcel is on the moon'" in (
        captured.err
    )
    assert "> :paid" not in captured.out  # nothing after the mismatch ran


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("> 1\nnonsense\n", "a line starts with one of"),
        ("@wish upon a star\n> 1\n", "unknown setup line @wish"),
        ("@set capabilities.pod.enabled = maybe\n", "is not a TOML value"),
        ("@set capabilities.currency = 5\n", "capabilities.currency"),
        ("@scenario nowhere.toml\n", "cannot read the scenario file"),
        ("@flow teleport\n", "@flow teleport: no such flow"),
    ],
)
def test_a_bad_script_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, problem: str
) -> None:
    script = tmp_path / "bad.txt"
    script.write_text(text, encoding="utf-8")
    assert main(["demo", "--script", str(script)]) == 2
    assert problem in capsys.readouterr().err


def test_a_bad_scenario_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    scenario = tmp_path / "broken.toml"
    scenario.write_text('name = "x"\n[organization]\nid = "o"\n', encoding="utf-8")
    assert main(["demo", "--scenario", str(scenario), "--script", str(scenario)]) == 2
    assert "broken.toml" in capsys.readouterr().err


async def test_the_interactive_demo_reads_typed_lines(photo_dir: Path) -> None:
    read_end, write_end = os.pipe()
    typed = ["1", "cancel", "yes", "new", ":status", ":quit", "never read"]
    os.write(write_end, "".join(f"{line}\n" for line in typed).encode())
    os.close(write_end)
    out = io.StringIO()
    with os.fdopen(read_end, "r") as stdin:
        assert await interactive(None, stdin=stdin, stdout=out) == 0
    text = out.getvalue()
    assert text.startswith("deliverybot demo: Swift Lagos Deliveries")
    assert "you> " in text
    assert "Cancelled. Nothing was ordered." in text
    assert text.count("What would you like to order?") == 2
    assert "demo: there is no delivery yet" in text
    assert text.rstrip().endswith("demo: bye")
