"""``:wait`` out loud: while the demo waits for the service (a lost create's follow-up, a
create re-sent after a rate limit), a line every few seconds of demo time says it is still
waiting, so a follow-up due 30 to 95 s later is not a silent terminal.

``ShownWait.sleep`` is the bot's sleep in the demo (``Seams.sleep``); it only speaks inside
``shown(catalogue)``, which the ``:wait`` command opens with the catalogue the demo narrates in
(the business's default: the demo's lines are for whoever plays the business), so nothing else
the bot waits for is narrated.
On the transcripts' fake clock the lines come at the same points of demo time as live.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from bot.clocks import Sleep
from bot.console.console_render import said
from bot.console.console_screen import Screen
from conversations.texts.catalogue import Catalogue

PROGRESS_EVERY = 10.0  # seconds of demo time between two "still waiting" lines
WHO = "demo"


class ShownWait:
    """A sleep that, while shown, says every ``PROGRESS_EVERY`` s how long it has waited."""

    def __init__(self, sleep: Sleep, screen: Screen) -> None:
        self._sleep = sleep
        self._screen = screen
        self._shown_in: Catalogue | None = None  # while shown: what the lines are said from
        self._waited = 0.0
        self._next_line = PROGRESS_EVERY

    @contextmanager
    def shown(self, catalogue: Catalogue) -> Iterator[None]:
        """Narrate the sleeps inside this block from ``catalogue``, counting from zero."""
        self._shown_in, self._waited, self._next_line = catalogue, 0.0, PROGRESS_EVERY
        try:
            yield
        finally:
            self._shown_in = None

    async def sleep(self, seconds: float) -> None:
        catalogue = self._shown_in
        if catalogue is None:
            await self._sleep(seconds)
            return
        left = seconds
        while left > 0:
            # Cut at the next line's moment, so each line comes when it says.
            step = min(left, self._next_line - self._waited)
            await self._sleep(step)
            self._waited += step
            left -= step
            if self._waited >= self._next_line:
                waited = catalogue.number(round(self._waited))
                text = catalogue.say("console.still_waiting", seconds=waited)
                self._screen.write(said(text, WHO))
                self._next_line += PROGRESS_EVERY
