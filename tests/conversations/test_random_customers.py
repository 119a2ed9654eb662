"""Random customers against the in-memory services: whatever they send, the engine never
crashes, always has a question open until the end, and every create it sends passes the
request model and the capability rules (the fake creator checks both)."""

from __future__ import annotations

import asyncio
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conversations.dialog import (
    ChoiceAnswer,
    CommandAnswer,
    ContactAnswer,
    LocationAnswer,
    PhotosAnswer,
    TextAnswer,
)
from conversations.refusals import decide

ORGS = [
    {},
    {"enabledServiceKinds": ["pickup_delivery"], "allowWarehouseDropoff": False},
    {"enabledServiceKinds": ["errand"], "errand": {"enabledModes": ["link"]}},
    {"features": {"serviceLocations": False, "maxWarehouses": 1}, "pod": {"enabled": False}},
    {"errand": {"allowUnknownShopLocation": False}, "paymentCollection": {"onlineCheckout": False}},
    {"paymentCollection": {"onlineCheckout": False, "cashOnDelivery": False}},
]
TEXTS = [
    "Ada Obi",
    "08031234567",
    "+234 802 222 3333",
    "15 Allen Avenue",
    "ozone cinema",
    "Plot 7, Admiralty Way",
    "5000",
    "ada@example.com",
    "shop.example.ng/item",
    "x",
    "",
    "   ",
    "🙂" * 600,
    "A02",
    "yes",
]
REFUSALS = [
    decide("validation", field_errors={"receiverPhone": ["bad"], "x": ["?"]}),
    decide("unavailable"),
    decide("rate_limited", retry_after=3),
    decide("coverage"),
    decide("image_host"),
    decide("payment"),
    decide("service_disabled"),
    decide("other", message="key revoked"),
]


def _random_answer(rnd: random.Random, prompt):
    stamp = {"step": prompt.step, "version": prompt.version} if prompt else {}
    roll = rnd.random()
    if prompt and prompt.options and roll < 0.55:
        return ChoiceAnswer(option=rnd.choice(prompt.options).id, **stamp)
    if roll < 0.70:
        return TextAnswer(text=rnd.choice(TEXTS))
    if roll < 0.75:
        return LocationAnswer(lat=rnd.choice([6.5, 0.0, 95.0]), lng=3.4)
    if roll < 0.79:
        return ContactAnswer(phone=rnd.choice(["2348031234567", "12"]), first_name="Ada")
    if roll < 0.86:
        count = rnd.randint(1, 7)
        return PhotosAnswer(urls=[f"https://media.example/{rnd.random()}.jpg"] * count)
    name = rnd.choice(["back", "skip", "done", "help", "edit", "skip", "done"])
    target = rnd.choice(["photos", "sender_name", "dropoff_place", None])
    if rnd.random() < 0.1:
        stamp = {"step": "old", "version": 0}
    return CommandAnswer(name=name, target=target, **stamp)


async def _customer(world, seed: int) -> None:
    rnd = random.Random(seed)
    world.creator.script = [rnd.choice(REFUSALS) for _ in range(rnd.randint(0, 2))]
    chat = world.chat()
    await chat.start()
    for _ in range(120):
        if chat.turn.finished:
            break
        if chat.turn.prompt is not None:
            assert chat.turn.prompt.step == chat.session.step
        await chat.send(_random_answer(rnd, chat.prompt))
    if not chat.turn.finished:
        await chat.command("cancel")
    if not chat.turn.finished:
        await chat.command("cancel")  # "cancel" again: yes, lose the answers
    assert chat.turn.status in ("created", "cancelled", "ended", "unconfirmed")


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(org=st.sampled_from(ORGS), seed=st.integers(0, 2**32))
def test_random_customers_never_break_the_engine(new_world, org, seed):
    asyncio.run(_customer(new_world(**org), seed))
