"""Random customers against the whole stack in process (the sandbox, the store, the chat
service, the console): whatever they type, nothing crashes, every conversation ends in a
create or a cancel, and every create the flows send passes the sandbox's validation."""

from __future__ import annotations

import asyncio
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.demo import DemoOptions, DemoStack
from bot.demo.transports import set_path
from bot.partner.models import CreateDeliveryRequest
from bot.sandbox import default_scenario_data, parse_scenario
from conversations import CreateOutcome, Prompt, Refused
from tests.support.clock import FakeClock

from .conftest import JPEG

ORGS: list[dict[str, Any]] = [
    {},
    {"capabilities.pod.enabled": False, "capabilities.allowWarehouseDropoff": False},
    {
        "capabilities.enabledServiceKinds": ["errand"],
        "capabilities.defaultServiceKind": "errand",
        "capabilities.errand.enabledModes": ["link", "photo"],
        "capabilities.errand.defaultMode": "link",
    },
    {
        "organization.plan": "basic",
        "capabilities.features.serviceLocations": False,
        "capabilities.paymentCollection.onlineCheckout": False,
    },
    {
        "capabilities.errand.allowUnknownShopLocation": False,
        "capabilities.publicRequest.autoDispatch": False,
    },
]
NOISE = [
    "back", "help", "skip", "done", "", "999", "x", "🙂" * 300, "notes.txt", "cancel",
    "edit receiver_phone", "edit photos", "location 0 0", "location 95 3", "contact 12",
    "new", "repeat", "new return_parcel", "new errand", "new no_such_flow",
]  # fmt: skip
PLACES = [
    "location 6.5095 3.3711 Ozone Cinema, Yaba",
    "location 6.45 3.438",
    "location 9.065 7.47 Wuse Market, Abuja",
    "15 allen avenue",
    "ozone cinema",
    "1",
]
TEXTS = {
    "phone": ["08031234567", "+234 802 222 3333", "12", "contact 2348031234567 Ada Obi"],
    "contact": ["Ada Obi", "contact 08022223333 Bola Ahmed", "B", "contact 0802 Bola"],
    "email": ["ada@example.com", "skip", "not-an-email"],
    "amount": ["5000", "skip", "5,000.50", "abc"],
    "text": ["Two books", "A bag of rice", "shop.example.ng/item", "B12", "skip", "Floor 31"],
}
ACCEPTED_REFUSALS = {"coverage"}  # an address outside the area is the customer's, not the flow's


def line_for(prompt: Prompt | None, pick: int, noise: int) -> str:
    """A typed line: mostly one that fits the open question, sometimes anything at all."""
    if prompt is None or noise >= 90:
        return NOISE[pick % len(NOISE)]
    if prompt.options and (prompt.input in ("choice", "confirm") or pick % 3 == 0):
        return str(pick % len(prompt.options) + 1)
    if "photos" in prompt.accepts:
        have = prompt.photos.have if prompt.photos else 0
        return "done" if have and pick % 2 else "parcel.png"
    if prompt.input == "place":
        return PLACES[pick % len(PLACES)]
    if prompt.step.endswith("email"):
        kind = "email"
    elif prompt.step in ("pod_amount", "errand_budget"):
        kind = "amount"
    else:
        kind = prompt.input if prompt.input in TEXTS else "text"
    return TEXTS[kind][pick % len(TEXTS[kind])]


class Recording:
    """Records every create outcome the flows get."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.outcomes: list[CreateOutcome] = []

    async def create(
        self, request: CreateDeliveryRequest, turn: object = None, *, flow: str
    ) -> CreateOutcome:
        outcome: CreateOutcome = await self.inner.create(request, turn, flow=flow)
        self.outcomes.append(outcome)
        return outcome


async def one_customer(org: dict[str, Any], moves: list[tuple[int, int]]) -> list[CreateOutcome]:
    data = default_scenario_data()
    for key, value in org.items():
        set_path(data, key, value)
    clock = FakeClock()
    with tempfile.TemporaryDirectory() as scratch:
        files = Path(scratch)
        (files / "parcel.png").write_bytes(b"\x89PNG\r\n\x1a\n" + JPEG)
        (files / "notes.txt").write_text("not a photo")
        options = DemoOptions(
            scenario=parse_scenario(data),
            data_dir=files,
            clock=clock,
            sleep=clock.sleep,
            photo_dir=files,
        )
        async with DemoStack(options) as demo:
            services = demo.bot.chats.engine.services
            recording = Recording(services.creator)
            demo.bot.chats.engine.services = replace(services, creator=recording)
            console = demo.bot.console
            for pick, noise in moves:
                if console.status != "open":
                    break
                await demo.type_line(line_for(console.prompt, pick, noise))
            if console.status == "open":
                await demo.type_line("cancel")
            if console.status == "open":
                await demo.type_line("yes")  # cancel the order, losing its answers
            assert console.status in ("created", "cancelled"), demo.screen.take()
    return recording.outcomes


def test_random_customers_only_ever_send_valid_creates() -> None:
    outcomes: list[CreateOutcome] = []

    @settings(
        max_examples=40,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(
        org=st.sampled_from(ORGS),
        moves=st.lists(
            st.tuples(st.integers(0, 999), st.integers(0, 99)), min_size=30, max_size=60
        ),
    )
    def customer(org: dict[str, Any], moves: list[tuple[int, int]]) -> None:
        made = asyncio.run(one_customer(org, moves))
        for outcome in made:
            if isinstance(outcome, Refused):
                assert outcome.reason in ACCEPTED_REFUSALS, outcome
        outcomes.extend(made)

    customer()
    assert any(not isinstance(outcome, Refused) for outcome in outcomes), "nothing was created"
