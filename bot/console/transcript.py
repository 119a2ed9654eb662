"""Transcripts: a conversation written down as what the customer types and what the bot must
say or offer, replayed against the real stack (``deliverybot demo --script FILE``, and the
transcript tests). ``docs/flows.md`` documents the format; in short::

    # comment
    @scenario default                  setup, before the first input: see ``bot.demo``
    > 1                                the customer types a line (``>`` alone: Enter)
    < How will the rider get the package?   the bot said this since the last input
    ! warehouse                        ... and did not say this
    ? A rider picks it up              the open question offers an option like this
    ?! warehouse                       ... and no option like this
    = dropoff_place                    the open question is this step (or: created,
                                       cancelled, ended once the conversation is over)
    $ delivery.status = matched        a fact about the run equals a value (``~``: contains)

``{ref}`` in any line is the short reference of the chat's latest delivery (``3F2A9C1E``), the
way the bot shows it: ``> cancel_delivery {ref} I ordered it twice``.

Text is compared case-insensitively with runs of white space made one space. The first check
that fails stops the run with ``TranscriptMismatch``, which names the line and shows the screen.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal, Protocol

from bot.console.console_errors import ConsoleError

Kind = Literal["say", "expect", "absent", "offered", "not_offered", "at", "fact"]
_MARKERS: tuple[tuple[str, Kind], ...] = (
    ("?!", "not_offered"),
    (">", "say"),
    ("<", "expect"),
    ("!", "absent"),
    ("?", "offered"),
    ("=", "at"),
    ("$", "fact"),
)
REF = "{ref}"  # in any line: the short reference of the chat's latest delivery
_FACT = re.compile(r"^(?P<path>[\w.\[\]-]+)\s*(?P<op>=|~)\s*(?P<value>.*)$")


class TranscriptError(ConsoleError, ValueError):
    """A transcript that cannot be read; the message names the file and line."""


class TranscriptMismatch(ConsoleError, AssertionError):
    """The bot did not do what the transcript says; the message names the line."""


@dataclass(frozen=True)
class Directive:
    """``@name argument``: how to set the run up (read by whoever builds the stack)."""

    line: int
    name: str
    argument: str


@dataclass(frozen=True)
class Entry:
    line: int
    kind: Kind
    text: str


@dataclass(frozen=True)
class Transcript:
    source: str
    setup: tuple[Directive, ...]
    entries: tuple[Entry, ...]

    @property
    def base_dir(self) -> Path | None:
        """The transcript file's directory (relative paths in it start there)."""
        path = Path(self.source)
        return path.parent if path.is_file() else None


def parse_transcript(text: str, source: str = "<transcript>") -> Transcript:
    """Read a transcript; ``TranscriptError`` for a line that is none of the kinds above."""
    setup: list[Directive] = []
    entries: list[Entry] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if line.startswith("@"):
            if entries:
                raise TranscriptError(f"{source}:{number}: setup lines (@...) go before the rest")
            name, _, argument = line[1:].partition(" ")
            setup.append(Directive(number, name.strip(), argument.strip()))
            continue
        entries.append(_entry(line, number, source))
    return Transcript(source, tuple(setup), tuple(entries))


def load_transcript(path: str | Path) -> Transcript:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise TranscriptError(f"{path}: cannot read the transcript ({exc.strerror})") from None
    return parse_transcript(text, str(path))


def _entry(line: str, number: int, source: str) -> Entry:
    for marker, kind in _MARKERS:
        if line.startswith(marker):
            text = line[len(marker) :].strip()
            if kind == "fact" and not _FACT.match(text):
                raise TranscriptError(f"{source}:{number}: write a fact as `$ path = value`")
            if kind not in ("say", "expect") and not text:
                raise TranscriptError(f"{source}:{number}: `{marker}` needs some text")
            return Entry(number, kind, text)
    raise TranscriptError(
        f"{source}:{number}: a line starts with one of > < ! ? ?! = $ @ # ({line[:40]!r})"
    )


# --- running ------------------------------------------------------------------------------------


class TranscriptDriver(Protocol):
    """The stack a transcript runs against (``bot.demo`` provides one)."""

    async def type_line(self, line: str) -> list[str]:
        """Type ``line`` as the customer; the screen lines it produced."""
        ...

    def option_labels(self) -> list[str]:
        """The labels of the open question's options."""
        ...

    async def position(self) -> str | None:
        """The open question's step, or the status the conversation ended with."""
        ...

    async def fact(self, path: str) -> str:
        """A fact about the run as text (``delivery.status``, ``calls.create_delivery`` ...)."""
        ...


def normalise(text: str) -> str:
    return " ".join(text.split()).casefold()


async def run_transcript(
    transcript: Transcript,
    driver: TranscriptDriver,
    *,
    echo: Callable[[str], None] | None = None,
    screen: Sequence[str] = (),
) -> None:
    """Replay ``transcript`` on ``driver``; ``TranscriptMismatch`` at the first failed check.

    ``screen`` is what was shown before the first input (the greeting); ``echo`` sees each
    typed line as ``> line``.
    """
    shown = list(screen)
    for entry in transcript.entries:
        if REF in entry.text:
            # The delivery's reference is made by the service: a transcript names it so.
            entry = replace(entry, text=entry.text.replace(REF, await driver.fact("ref")))
        if entry.kind == "say":
            if echo is not None:
                echo(f"> {entry.text}")
            shown = await driver.type_line(entry.text)
            continue
        problem = await _check(entry, driver, shown)
        if problem is not None:
            where = f"{transcript.source}:{entry.line}"
            screen_text = "\n".join(f"    | {line}" for line in shown) or "    | (nothing)"
            raise TranscriptMismatch(
                f"{where}: {problem}\n  the screen after the input:\n{screen_text}"
            )


async def _check(entry: Entry, driver: TranscriptDriver, shown: list[str]) -> str | None:
    wanted = normalise(entry.text)
    screen = normalise("\n".join(shown))
    match entry.kind:
        case "expect":
            return None if wanted in screen else f"expected the bot to say {entry.text!r}"
        case "absent":
            return f"the bot said {entry.text!r}" if wanted in screen else None
        case "offered" | "not_offered":
            labels = driver.option_labels()
            found = any(wanted in normalise(label) for label in labels)
            if found == (entry.kind == "offered"):
                return None
            verb = "expected an option like" if entry.kind == "offered" else "did not expect"
            return f"{verb} {entry.text!r}; options: {labels}"
        case "at":
            where = await driver.position()
            if where == entry.text:
                return None
            return f"expected to be at {entry.text!r}, not {where!r}"
        case "fact":
            return await _check_fact(entry.text, driver)
    return None  # "say" is not a check


async def _check_fact(text: str, driver: TranscriptDriver) -> str | None:
    match = _FACT.match(text)
    assert match is not None, "checked when parsed"
    path, op, value = match["path"], match["op"], match["value"]
    actual = await driver.fact(path)
    if op == "=":
        passed = normalise(actual) == normalise(value)
    else:
        passed = normalise(value) in normalise(actual)
    if passed:
        return None
    return f"expected {path} {op} {value!r}, but it is {actual!r}"
