"""``deliverybot demo``: the whole bot in a terminal, or a transcript replayed without one.

Exit codes: 0 done (or every line of the script matched), 1 the script did not match,
2 a bad scenario or script file. The interactive demo reads standard input to its end, whatever
it is (a terminal, a pipe, a file, /dev/null), and then exits 0; ``--script`` never reads it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import stat
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import TextIO

from bot.console.console_texts import CONSOLE_TEXTS
from bot.console.transcript import (
    TranscriptError,
    TranscriptMismatch,
    load_transcript,
    run_transcript,
)
from bot.demo.demo_bot import DemoChannel
from bot.demo.demo_time import LaterClock
from bot.demo.setup import demo_setup
from bot.demo.stack import DemoOptions, DemoStack
from bot.sandbox import ScenarioError
from conversations.flows import default_registry
from conversations.texts.catalogue import DEFAULT_TEXTS, Texts

EXIT_OK = 0
EXIT_MISMATCH = 1
EXIT_USAGE = 2
PROMPT = "you> "


def banner(org: str, language: str | None, texts: Texts = DEFAULT_TEXTS) -> str:
    """What the demo says first, in the customer's language (``console.banner``): said before
    the console registers its words, so from ``texts`` with them."""
    catalogue = texts.with_channels(CONSOLE_TEXTS).catalogue_for(language)
    return catalogue.say("console.banner", org=org)


async def _lines(stream: TextIO) -> AsyncIterator[str]:
    """Lines typed on ``stream``, read without blocking the event loop, until end of input."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    try:
        fd = stream.fileno()
        if not _watchable(fd):
            raise ValueError("the event loop cannot watch this input")
        was_blocking = os.get_blocking(fd)
        transport, _ = await loop.connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(reader), stream
        )
    except (OSError, ValueError, NotImplementedError):
        # A file, /dev/null, or a platform without pipes: each read is short or ends at once.
        while line := await asyncio.to_thread(stream.readline):
            yield line
        return
    try:
        while raw := await reader.readline():
            yield raw.decode("utf-8", errors="replace")
    finally:
        # The terminal is shared with the shell that started the demo: give it back as it was.
        with contextlib.suppress(OSError):
            os.set_blocking(fd, was_blocking)
        transport.close()


def _watchable(fd: int) -> bool:
    """Whether the event loop can wait on ``fd``: a terminal, a pipe or a socket.

    epoll refuses regular files and devices such as /dev/null; a reader registered for one
    would never be told anything, and the demo would wait for ever.
    """
    mode = os.fstat(fd).st_mode
    return os.isatty(fd) or stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


async def interactive(
    scenario_file: Path | None,
    *,
    stdin: TextIO,
    stdout: TextIO,
    language: str | None = None,
    channel: DemoChannel = "console",
) -> int:
    setup = demo_setup(scenario_file=scenario_file)
    with tempfile.TemporaryDirectory(prefix="deliverybot-demo-") as data_dir:
        options = DemoOptions(
            scenario=setup.scenario,
            data_dir=Path(data_dir),
            echo=stdout,
            live=True,
            language=language,
            channel=channel,
        )
        print(banner(setup.scenario.organization.name, language, options.texts), file=stdout)
        async with DemoStack(options) as demo:
            demo.screen.take()
            print(PROMPT, end="", file=stdout, flush=True)
            async for line in _lines(stdin):
                await demo.type_line(line.rstrip("\r\n"))
                if demo.quit:
                    break
                print(PROMPT, end="", file=stdout, flush=True)
    return EXIT_OK


async def replay(
    script: Path,
    scenario_file: Path | None,
    *,
    stdout: TextIO,
    stderr: TextIO,
    language: str | None = None,
    channel: DemoChannel = "console",
) -> int:
    try:
        transcript = load_transcript(script)
        setup = demo_setup(
            transcript.setup,
            source=str(script),
            base_dir=script.parent,
            scenario_file=scenario_file,
        )
    except (TranscriptError, ScenarioError) as problem:
        print(problem, file=stderr)
        return EXIT_USAGE
    if setup.flow is not None and setup.flow not in default_registry().names:
        print(f"{script}: @flow {setup.flow}: no such flow", file=stderr)
        return EXIT_USAGE
    channel = setup.channel or channel
    # A WhatsApp replay skips its waits (WhatsApp's pacing) by moving the demo's clock on.
    clock = LaterClock(time.time) if channel == "whatsapp" else None
    with tempfile.TemporaryDirectory(prefix="deliverybot-demo-") as data_dir:
        options = DemoOptions(
            scenario=setup.scenario,
            data_dir=Path(data_dir),
            stale=setup.stale,
            first_flow=setup.flow,
            photo_dir=script.parent,
            echo=stdout,
            language=setup.language or language,
            channel=channel,
        )
        if clock is not None:
            options = replace(options, clock=clock, sleep=clock.skip)
        async with DemoStack(options) as demo:
            greeting = demo.screen.take()
            try:
                await run_transcript(
                    transcript,
                    demo,
                    screen=greeting,
                    echo=lambda line: print(line, file=stdout, flush=True),
                )
            except TranscriptMismatch as mismatch:
                print(f"MISMATCH {mismatch}", file=stderr)
                return EXIT_MISMATCH
    print(f"ok: {script} replayed, every check matched", file=stdout)
    return EXIT_OK


def main(
    scenario_file: Path | None,
    script: Path | None,
    language: str | None = None,
    *,
    channel: DemoChannel = "console",
) -> int:
    """Run the demo; the CLI's ``demo`` command calls this. ``language`` is the console
    customer's (``fr``: the bot speaks French to them; missing or not shipped: English; WhatsApp
    tells no language, so a WhatsApp chat is in the business's); ``channel`` is where the
    customer orders (``console``, or ``whatsapp`` on the simulated Cloud API)."""
    try:
        if script is not None:
            return asyncio.run(
                replay(
                    script,
                    scenario_file,
                    stdout=sys.stdout,
                    stderr=sys.stderr,
                    language=language,
                    channel=channel,
                )
            )
        with contextlib.suppress(KeyboardInterrupt):
            return asyncio.run(
                interactive(
                    scenario_file,
                    stdin=sys.stdin,
                    stdout=sys.stdout,
                    language=language,
                    channel=channel,
                )
            )
    except ScenarioError as problem:
        print(problem, file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:
        # Whoever read the output went away (`deliverybot demo | head`): stop quietly, and
        # leave the interpreter's last flush nothing to fail on.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return EXIT_OK
