"""The rider on the map in the terminal demo: after each ``:advance`` the customer reads where
their rider is now, as a map link, and nothing when nothing changed."""

from __future__ import annotations

import re
from pathlib import Path

from bot.console.console_rider_map import map_url
from bot.demo import DemoOptions, DemoStack
from bot.sandbox import default_scenario_data, parse_scenario
from bot.store.rider_positions import Point
from tests.support.clock import FakeClock

from .conftest import MakeStack
from .test_commands import order

_PIN = re.compile(r"mlat=(-?[\d.]+)&mlon=(-?[\d.]+)")
YABA = Point(6.5095, 3.3711)  # the pickup TO_SUMMARY types, where the demo's rider waits
RIDER = "rdr_tunde"  # the default scenario's rider nearest to it, dispatched at once


def rider_lines(screen: list[str]) -> list[str]:
    """The console rider map's lines: the rider's text, with a map link when one is shown."""
    said = ("On the map: ", "position is not available right now")
    return [line for line in screen if any(words in line for words in said)]


def pin(line: str) -> Point:
    found = _PIN.search(line)
    assert found is not None, line
    return Point(float(found.group(1)), float(found.group(2)))


async def advance(stack: DemoStack) -> list[str]:
    return rider_lines(await stack.type_line(":advance"))


async def test_advance_moves_the_riders_pin_and_the_estimate_towards_the_customer(
    make_stack: MakeStack,
) -> None:
    stack = await make_stack()
    (assigned,) = rider_lines(await order(stack))
    assert assigned.startswith("bot: Tunde is on the way to pick up ")
    assert "an estimate from the distance, not a promise." in assigned
    assert assigned.endswith(f" On the map: {map_url(YABA)}")
    assert map_url(YABA) == (
        "https://www.openstreetmap.org/?mlat=6.50950&mlon=3.37110#map=16/6.50950/3.37110"
    )
    # Lines that change nothing of the delivery print no rider line again.
    assert rider_lines(await stack.type_line(":paid")) == []
    assert rider_lines(await stack.type_line(":status")) == []

    (picked_up,) = await advance(stack)  # at the pickup already: a new leg, the same pin
    assert picked_up.startswith("bot: Tunde is bringing ") and pin(picked_up) == YABA
    (in_transit,) = await advance(stack)
    moved = pin(in_transit)
    assert moved != YABA and moved.latitude > YABA.latitude  # on towards UNILAG, north-east
    eta = re.compile(r"about (\d+) min")
    before, after = eta.search(picked_up), eta.search(in_transit)
    assert before is not None and after is not None
    assert int(after.group(1)) < int(before.group(1))

    # Delivered: the tracking ends with the relay's news, and no rider line follows it.
    assert await advance(stack) == []


async def test_a_rider_without_a_position_is_said_to_be_unavailable_until_one_comes(
    make_stack: MakeStack,
) -> None:
    stack = await make_stack()
    await order(stack)
    await stack.type_line(":paid")
    await stack.type_line(":advance")
    delivery_id = await stack.last_delivery_id()
    assert delivery_id is not None

    stack.sandbox.clear_rider_location(RIDER)
    (unavailable,) = rider_lines(await stack.type_line(":status"))
    assert unavailable == "bot: Tunde's position is not available right now."
    assert rider_lines(await stack.type_line(":status")) == []  # said once

    stack.sandbox.move_rider_along(delivery_id, 0.5)
    (back,) = rider_lines(await stack.type_line(":status"))
    assert "Tunde is bringing " in back and pin(back).latitude > YABA.latitude


async def test_a_french_customer_reads_the_map_link_in_french(
    tmp_path: Path, photo_dir: Path
) -> None:
    clock = FakeClock()
    options = DemoOptions(
        scenario=parse_scenario(default_scenario_data()),
        data_dir=tmp_path,
        clock=clock,
        sleep=clock.sleep,
        photo_dir=photo_dir,
        language="fr",
    )
    async with DemoStack(options) as stack:
        (line,) = [line for line in await order(stack) if "Sur la carte : " in line]
    assert line.startswith("bot: Tunde est en route pour récupérer ")
    assert line.endswith(f"Sur la carte : {map_url(YABA)}")
