"""Where the console's lines go: kept for whoever reads them next (a transcript check), and
printed as they come when the demo runs in a terminal."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TextIO


class Screen:
    """Lines written since the last ``take()``; echoed to ``echo`` (a terminal) when given."""

    def __init__(self, echo: TextIO | None = None) -> None:
        self._echo = echo
        self._lines: list[str] = []

    def write(self, lines: Iterable[str]) -> None:
        for line in lines:
            self._lines.append(line)
            if self._echo is not None:
                print(line, file=self._echo, flush=True)

    def take(self) -> list[str]:
        """The lines written since the last call."""
        lines, self._lines = self._lines, []
        return lines
