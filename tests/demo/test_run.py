"""`deliverybot demo`: a script replayed without a terminal (exit 0, 1 on the first mismatch,
2 for a bad file), and the interactive loop reading typed lines from a pipe, a file or
/dev/null, to their end."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from bot.cli import main
from bot.demo.demo_cli import interactive

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """\
# A whole order in a script: the greeting, a warehouse drop-off, then delivered.
< What would you like to order?
> 1
> I'll drop it at a warehouse
> 2
> 1
> Ada Obi
> 08031234567
> contact 08022223333 Bola Ahmed
> Shoes
> 1
> parcel.png
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
    assert f"MISMATCH {script}:14: expected the bot to say 'Your parcel is on the moon'" in (
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


def _deliverybot(
    *args: str, stdin: int | None = subprocess.DEVNULL
) -> subprocess.CompletedProcess[str]:
    """``deliverybot <args>`` in its own process, its input /dev/null: no terminal at all."""
    return subprocess.run(  # noqa: S603 - a fixed argument list, no shell
        [sys.executable, "-m", "bot", *args],
        stdin=stdin,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )


def test_the_interactive_demo_exits_0_at_the_end_of_dev_null() -> None:
    result = _deliverybot("demo")
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.startswith("deliverybot demo: Swift Lagos Deliveries")
    assert result.stdout.rstrip().endswith("you>")


def test_the_interactive_demo_reads_a_file_to_its_end(tmp_path: Path) -> None:
    typed = tmp_path / "typed.txt"
    typed.write_text("1\ncancel\ncancel\n", encoding="utf-8")  # cancel, then yes: lose it
    with typed.open("rb") as stdin:
        result = _deliverybot("demo", stdin=stdin.fileno())
    assert (result.returncode, result.stderr) == (0, "")
    assert "Cancelled. Nothing was ordered." in result.stdout


def test_a_script_needs_no_terminal(tmp_path: Path, photo_dir: Path) -> None:
    script = write_script(tmp_path, SCRIPT, (photo_dir / "parcel.png").read_bytes())
    result = _deliverybot("demo", "--script", str(script))
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.rstrip().endswith(f"ok: {script} replayed, every check matched")


def test_the_demo_stops_quietly_when_its_reader_goes_away() -> None:
    """``deliverybot demo | head``: the next line written finds the pipe closed; the demo
    exits 0 with no traceback instead of hanging on what it had started."""
    demo = subprocess.Popen(
        [sys.executable, "-m", "bot", "demo"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert demo.stdout is not None and demo.stderr is not None
    demo.stdout.close()  # the reader is gone before the answer to "1" is written
    _, stderr = demo.communicate("1\n", timeout=60)
    assert (demo.returncode, stderr) == (0, "")


# Run in its own interpreter: the demo, its input /dev/null, then the distributions of every
# module it imported, by name.
IMPORTED_BY_THE_DEMO = """\
import contextlib, importlib.metadata, os, sys
from bot.cli import main
with open(os.devnull) as nothing, contextlib.redirect_stdout(open(os.devnull, "w")):
    sys.stdin = nothing
    main(["demo"])
owners = importlib.metadata.packages_distributions()
tops = {name.split(".")[0] for name in sys.modules}
print("\\n".join(sorted({dist for top in tops for dist in owners.get(top, [])})))
"""


def test_the_demo_imports_none_of_the_test_tools() -> None:
    """`make demo` installs no [dev] extras: nothing the demo imports may need one."""
    with (ROOT / "pyproject.toml").open("rb") as handle:
        project = tomllib.load(handle)["project"]
    names = [re.split(r"[ <>=!~;\[]", req)[0] for req in project["optional-dependencies"]["dev"]]
    runtime = {re.split(r"[ <>=!~;\[]", req)[0].lower() for req in project["dependencies"]}
    # setuptools is in the demo's .venv too (`make demo` builds the project with it), and its
    # .pth file loads `_distutils_hack` into every interpreter there.
    test_only = {name.lower().replace("_", "-") for name in names} - runtime - {"setuptools"}
    result = subprocess.run(  # noqa: S603 - a fixed argument list, no shell
        [sys.executable, "-c", IMPORTED_BY_THE_DEMO],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
        cwd=ROOT,
    )
    assert result.returncode == 0, result.stderr
    imported = {line.lower().replace("_", "-") for line in result.stdout.split()}
    assert "deliverybot" in imported or "babel" in imported  # the demo did run
    assert {"pytest", "mypy", "playwright"} <= test_only
    assert imported & test_only == set()
