"""``:wait`` out loud: the demo's sleeps say how long they have waited, only while shown."""

from __future__ import annotations

from bot.console.console_screen import Screen
from bot.demo.waiting import ShownWait
from tests.support.words import SHIPPED


class Slept:
    """A fake sleep that only adds up the seconds asked for."""

    def __init__(self) -> None:
        self.total = 0.0

    async def __call__(self, seconds: float) -> None:
        self.total += seconds


async def test_a_shown_wait_says_every_ten_seconds_of_demo_time() -> None:
    slept, screen = Slept(), Screen()
    waits = ShownWait(slept, screen)
    with waits.shown(SHIPPED):
        await waits.sleep(2.0)
        await waits.sleep(15.0)  # crosses 10 s
        await waits.sleep(13.0)  # crosses 20 s and 30 s
    assert slept.total == 30.0
    assert screen.take() == [
        "demo: still waiting for the service… (10 s)",
        "demo: still waiting for the service… (20 s)",
        "demo: still waiting for the service… (30 s)",
    ]


async def test_a_wait_outside_shown_is_quiet_and_counting_starts_again() -> None:
    slept, screen = Slept(), Screen()
    waits = ShownWait(slept, screen)
    await waits.sleep(45.0)
    assert screen.take() == []
    with waits.shown(SHIPPED):
        await waits.sleep(9.0)
    assert screen.take() == []
    with waits.shown(SHIPPED):
        await waits.sleep(12.0)
    assert screen.take() == ["demo: still waiting for the service… (10 s)"]
    assert slept.total == 66.0
