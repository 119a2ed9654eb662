"""The console's order words on the demo stack: ``new <flow>``, ``repeat``, and a first flow."""

from __future__ import annotations

from pathlib import Path

from bot.demo import DemoOptions, DemoStack
from bot.sandbox import default_scenario_data, parse_scenario
from conversations.texts import dialogue
from tests.support.clock import FakeClock
from tests.support.words import SHIPPED

from .conftest import TO_SUMMARY, MakeStack


async def test_new_with_a_flow_name_starts_that_flow(make_stack: MakeStack) -> None:
    stack = await make_stack()
    screen = "\n".join(await stack.type_line("new return_parcel"))
    assert "The parcel goes back to Ikeja Hub" in screen
    assert stack.bot.console.prompt is not None
    assert stack.bot.console.prompt.step == "pickup_place"
    session = await stack.bot.chats.session(stack.bot.console.chat)
    assert session is not None and session.flow == "return_parcel"


async def test_new_with_an_unknown_flow_lists_the_flows(make_stack: MakeStack) -> None:
    stack = await make_stack()
    screen = "\n".join(await stack.type_line("new teleport"))
    assert "There is no order form called teleport" in screen
    assert "return_parcel" in screen and "errand" in screen
    assert stack.bot.console.prompt is not None
    assert stack.bot.console.prompt.step == "service_kind"  # the open order is untouched


async def test_new_and_a_word_is_an_answer_where_text_is_asked(make_stack: MakeStack) -> None:
    stack = await make_stack()
    lines = TO_SUMMARY[: TO_SUMMARY.index("Shoes")]
    for line in lines:
        await stack.type_line(line)
    assert stack.bot.console.prompt is not None
    assert stack.bot.console.prompt.step == "package_description"
    await stack.type_line("new shoes")
    session = await stack.bot.chats.session(stack.bot.console.chat)
    assert session is not None and session.answers["package_description"] == "new shoes"


async def test_repeat_orders_the_last_order_again(make_stack: MakeStack) -> None:
    stack = await make_stack()
    none_yet = "\n".join(await stack.type_line("repeat"))
    assert dialogue.NOTHING_TO_REPEAT.render(SHIPPED) in none_yet
    for line in [*TO_SUMMARY, "1"]:
        await stack.type_line(line)
    assert stack.bot.console.status == "created"
    again = "\n".join(await stack.type_line("repeat"))
    assert dialogue.repeating(SHIPPED, "Pickup & delivery") in again
    assert stack.bot.console.prompt is not None and stack.bot.console.prompt.step == "photos"
    for line in ("parcel.png", "1"):
        await stack.type_line(line)
    assert stack.bot.console.status == "created"
    links = await stack.bot.store.deliveries.for_user(stack.bot.console.user, 10)
    assert len(links) == 2


async def test_the_first_order_starts_in_the_first_flow(tmp_path: Path, photo_dir: Path) -> None:
    clock = FakeClock()
    options = DemoOptions(
        scenario=parse_scenario(default_scenario_data()),
        data_dir=tmp_path,
        clock=clock,
        sleep=clock.sleep,
        photo_dir=photo_dir,
        first_flow="errand",
    )
    async with DemoStack(options) as stack:
        assert stack.bot.console.prompt is not None
        assert stack.bot.console.prompt.step == "errand_mode"
        # A later new order starts in the entry flow again.
        await stack.type_line("new")
        assert stack.bot.console.prompt is not None
        assert stack.bot.console.prompt.step == "service_kind"
