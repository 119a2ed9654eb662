"""``deliverybot`` processes forked from one interpreter that imported the bot once.

The real-instance tests start ``deliverybot run`` processes, several per test and again after
each kill or redeploy, and each process spent about 2.5 s of CPU importing the bot (some 1,500
modules) before it did anything: most of those tests' CPU, on a 2-core machine the whole suite
shares. A ``Preloader`` is one process (``python -m tests.e2e.preloaded_runs SOCKET``) that
imported ``bot.cli`` and ``bot.runtime`` and forks a child for each start. The child is a
process of its own (its pid, memory, signals and store connections; SIGKILL ends it alone):
it takes its working directory, environment and output from the request, then calls
``bot.cli.main``, what ``python -m bot`` calls. Only the interpreter's start and the imports
are skipped; a real command's start is what tests/test_startup_imports.py and the run tests
that launch ``python -m bot`` themselves (tests/e2e/test_run_logs.py) still cover.

One start is one connection to the socket: the request goes in as a JSON line (``argv``,
``cwd``, ``env``, ``output``); the child's pid comes back as a line, then, once the child ended,
its return code (negative: the signal that ended it, as ``asyncio`` reports it). A manager
process forked per start waits for the child and writes that code, so the preloader itself
only accepts and forks.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import traceback
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

SOCKET_VARIABLE = "E2E_PRELOADED_RUNS"  # where start_instance finds the preloader, if any
REPO = Path(__file__).resolve().parents[2]


class RunningProcess(Protocol):
    """What the tests use of a started process: ``asyncio.subprocess.Process`` or a
    ``PreloadedProcess``."""

    @property
    def pid(self) -> int: ...

    @property
    def returncode(self) -> int | None: ...

    async def wait(self) -> int: ...

    def send_signal(self, sig: int) -> None: ...

    def kill(self) -> None: ...


class PreloadedProcess:
    """A child of the preloader, seen from the test: its ``returncode`` is set as soon as it
    ended (a task reads it from the connection), like an ``asyncio`` subprocess's."""

    def __init__(self, pid: int, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        self.pid = pid
        self.returncode: int | None = None
        self._writer = writer
        self._ended = asyncio.ensure_future(self._read_code(reader))

    async def _read_code(self, reader: asyncio.StreamReader) -> int:
        line = await reader.readline()
        self.returncode = int(line) if line.strip() else -signal.SIGKILL
        self._writer.close()
        with contextlib.suppress(OSError):
            await self._writer.wait_closed()
        return self.returncode

    async def wait(self) -> int:
        return await asyncio.shield(self._ended)

    def send_signal(self, sig: int) -> None:
        if self.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, sig)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


async def launch(
    socket_path: str, argv: Sequence[str], *, cwd: Path, env: Mapping[str, str], output: Path
) -> PreloadedProcess:
    """``deliverybot ARGV`` forked by the preloader at ``socket_path``, its stdout and stderr
    appended to ``output``."""
    reader, writer = await asyncio.open_unix_connection(socket_path)
    request = {"argv": list(argv), "cwd": str(cwd), "env": dict(env), "output": str(output)}
    writer.write(json.dumps(request).encode() + b"\n")
    await writer.drain()
    line = await reader.readline()
    if not line.strip():
        writer.close()
        raise RuntimeError(f"the preloader at {socket_path} started nothing")
    return PreloadedProcess(int(line), reader, writer)


@contextlib.contextmanager
def preloader(base: Path) -> Iterator[str]:
    """A preloader serving on a socket under ``base``; its path. Stopped at the end (children
    still running are the tests' to stop)."""
    path = base / "preloaded-runs.sock"
    env = {**os.environ, "PYTHONPATH": str(REPO), "PTB_TIMEDELTA": "true"}
    with (base / "preloader.log").open("ab") as log:
        process = subprocess.Popen(  # noqa: S603 - a fixed argument list, no shell
            [sys.executable, "-m", "tests.e2e.preloaded_runs", str(path)],
            cwd=REPO, env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while not path.exists():  # another process: nothing to await but its socket file
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError((base / "preloader.log").read_text(errors="replace"))
            time.sleep(0.05)
        yield str(path)
    finally:
        process.kill()
        process.wait()


# --- the preloader's side (another process) ---------------------------------------------------


def _serve(path: str) -> None:
    """Import the bot, then fork a manager per connection, forever."""
    import bot.cli  # imported here once, for every child
    import bot.runtime  # noqa: F401

    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path + ".new")
    listener.listen(16)
    os.rename(path + ".new", path)  # the path appears once it accepts
    while True:
        connection, _ = listener.accept()
        with contextlib.suppress(ChildProcessError):
            while os.waitpid(-1, os.WNOHANG)[0]:  # managers that are done
                pass
        if os.fork() == 0:
            listener.close()
            _manage(connection)
        connection.close()


def _manage(connection: socket.socket) -> None:
    """Fork the child the request asks for, report its pid, then its return code; exit."""
    with connection.makefile("rb") as lines:
        request = json.loads(lines.readline())
    child = os.fork()
    if child == 0:
        connection.close()
        _become(request)
    connection.sendall(f"{child}\n".encode())
    _, status = os.waitpid(child, 0)
    with contextlib.suppress(OSError):
        connection.sendall(f"{os.waitstatus_to_exitcode(status)}\n".encode())
    os._exit(0)


def _become(request: dict[str, Any]) -> None:
    """In the child: the request's directory, environment and output, then the command."""
    code = 1
    try:
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        output = os.open(request["output"], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        nothing = os.open(os.devnull, os.O_RDONLY)
        os.dup2(nothing, 0)
        os.dup2(output, 1)
        os.dup2(output, 2)
        os.close(output)
        os.close(nothing)
        from bot.cli import main

        sys.argv = ["deliverybot", *request["argv"]]
        code = main(request["argv"])
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else 1
    except BaseException:
        traceback.print_exc()
    finally:
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code)


if __name__ == "__main__":
    _serve(sys.argv[1])
