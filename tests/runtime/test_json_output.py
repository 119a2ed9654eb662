"""``bot.runtime.json_output``: once ``write_json_lines`` runs, whatever a process writes is one
JSON object a line: prints, Python warnings, an exception in a thread, an uncaught one.

Each case runs in a child Python process (the hooks are the process's), whose stdout and stderr
are read line by line."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

from bot.runtime.json_output import asked_format

ROOT = Path(__file__).resolve().parents[2]


def _run(script: str) -> tuple[int, list[dict[str, Any]], list[dict[str, Any]]]:
    """The exit code and the lines of stdout and of stderr of ``script``, each parsed (a line
    that is not a JSON object fails the test)."""
    prelude = "from bot.runtime.json_output import write_json_lines\nwrite_json_lines()\n"
    done = subprocess.run(  # noqa: S603 - this interpreter, a fixed script
        [sys.executable, "-c", prelude + textwrap.dedent(script)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    parsed = []
    for output in (done.stdout, done.stderr):
        lines = [json.loads(line) for line in output.splitlines()]
        assert all(isinstance(line, dict) for line in lines), output
        parsed.append(lines)
    return done.returncode, parsed[0], parsed[1]


def test_printed_lines_become_objects_and_a_warning_prefix_sets_the_level() -> None:
    code, out, err = _run(
        """
        import sys
        print("listening")
        print("warning: [operators] chat_ids: empty", file=sys.stderr)
        print("run: the port is taken\\nsecond line", file=sys.stderr)
        sys.stderr.write("no newline at the end")
        """
    )

    assert code == 0
    assert [(line["level"], line["message"]) for line in out] == [("INFO", "listening")]
    assert [(line["level"], line["message"]) for line in err] == [
        ("WARNING", "[operators] chat_ids: empty"),
        ("ERROR", "run: the port is taken"),
        ("ERROR", "second line"),
        ("ERROR", "no newline at the end"),
    ]
    assert {line["logger"] for line in out + err} == {"bot.cli"}


def test_a_log_record_passes_once_and_a_python_warning_is_logged() -> None:
    code, out, err = _run(
        """
        import logging, warnings
        logging.getLogger("uvicorn.error").warning("Started server process")
        warnings.warn("a deprecated call", DeprecationWarning, stacklevel=1)
        """
    )

    assert code == 0 and out == []
    assert [(line["logger"], line["level"]) for line in err] == [
        ("uvicorn.error", "WARNING"),
        ("py.warnings", "WARNING"),
    ]
    assert "a deprecated call" in err[1]["message"]


def test_an_uncaught_exception_is_one_object_with_its_traceback() -> None:
    code, out, err = _run(
        """
        import threading
        def fail():
            raise ValueError("in a thread")
        worker = threading.Thread(target=fail, name="worker")
        worker.start()
        worker.join()
        raise RuntimeError("boom")
        """
    )

    assert code == 1 and out == []
    assert [(line["level"], line["message"]) for line in err] == [
        ("ERROR", "uncaught ValueError in worker"),
        ("CRITICAL", "uncaught RuntimeError: the process stops"),
    ]
    assert "RuntimeError: boom" in err[1]["exception"]
    assert "ValueError: in a thread" in err[0]["exception"]


def test_the_format_is_read_before_the_file_is_validated(tmp_path: Path) -> None:
    config = tmp_path / "bot.toml"
    config.write_text('[logging]\nformat = "JSON"\nlevel = 7\n[partner]\nbogus = true\n')
    assert asked_format(config) == "json"
    config.write_text('[logging]\nformat = "json\n')  # not TOML: nothing can be read
    assert asked_format(config) == "text"
    assert asked_format(tmp_path / "absent.toml") == "text"
    config.write_text("logging = 3\n")
    assert asked_format(config) == "text"
