"""Horizontal bar charts the server draws as SVG (``templates/funnel_chart.html``): each bar's
place and width computed here, in the chart's own units (its ``viewBox``), so the page needs no
script and no inline style (the CSP forbids both) and a test reads the geometry back.

A bar's width is proportional to its value, the largest value filling ``BAR_SPACE``; a bar of
zero has no width but keeps its row, its label and its number. Each bar carries a ``title``
(what a screen reader says and a pointer shows); the page repeats the numbers in a table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

LABEL_SPACE: Final = 200.0
"""Room on the left for each bar's label (the step's name)."""
BAR_SPACE: Final = 320.0
"""The width of the largest bar."""
VALUE_SPACE: Final = 80.0
"""Room on the right of the largest bar for its number."""
ROW: Final = 26.0
BAR_HEIGHT: Final = 18.0
WIDTH: Final = LABEL_SPACE + BAR_SPACE + VALUE_SPACE


@dataclass(frozen=True)
class Bar:
    """One row of a chart: its label, value and the words of its ``<title>``; where it is."""

    label: str
    value: int
    title: str
    y: float
    width: float

    @property
    def text_y(self) -> float:
        """The baseline of the row's label and number (middle of the bar)."""
        return self.y + BAR_HEIGHT / 2 + 5

    @property
    def value_x(self) -> float:
        """Where the bar's number is written: just after its end."""
        return LABEL_SPACE + self.width + 6


@dataclass(frozen=True)
class BarChart:
    """A chart's bars, top to bottom, and its size; ``title`` names the whole chart."""

    title: str
    bars: tuple[Bar, ...]
    width: float = WIDTH
    label_space: float = LABEL_SPACE
    bar_height: float = BAR_HEIGHT

    @property
    def height(self) -> float:
        return len(self.bars) * ROW + 4


def bar_chart(title: str, rows: Sequence[tuple[str, int, str]]) -> BarChart:
    """A chart of ``rows`` (label, value, title each), in their order."""
    largest = max((value for _, value, _ in rows), default=0)
    bars = tuple(
        Bar(
            label=label,
            value=value,
            title=bar_title,
            y=2 + place * ROW,
            width=round(BAR_SPACE * value / largest, 2) if largest else 0.0,
        )
        for place, (label, value, bar_title) in enumerate(rows)
    )
    return BarChart(title, bars)
