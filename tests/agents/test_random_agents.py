"""Random agents: whatever an agent answers (option ids real or invented, any text, any pin,
contacts, photo URLs, commands), every create the flows send passes the sandbox's validation.

Each example is a fresh bot over a fresh SQLite file, driven through ``HeadlessConversations``
(what the JSON API and the MCP server call) with answers drawn against the open question. A
photo link on a host the business does not allow is refused by the service itself: that create
must come back as the photo question asked again, never as an operator alert.
"""

from __future__ import annotations

import asyncio
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.partner.models import CreateDeliveryRequest
from conversations import CreateOutcome, Refused

from .conftest import CONFIRM, PHOTO_URL, AgentWorld, confirm_answer

TEXTS = [
    "Bola Ahmed", "08031234567", "+234 802 222 3333", "12", "x", "", "🙂" * 200,
    "15 allen avenue", "A pair of shoes", "ada@example.com", "5000", "abc", "skip",
]  # fmt: skip
COMMANDS = ["back", "skip", "done", "help", "cancel", "edit"]
ACCEPTED_REFUSALS = {"coverage"}  # a pin outside the area is the customer's, not the flow's
# A photo URL on a host the service does not allowlist is the agent's too: the bot cannot know
# the allowlist (the capabilities do not give it), so the service refuses that create itself,
# and the photo question is asked again (``photo_link``) without alerting anyone.
FOREIGN_PHOTO = "https://elsewhere.example/p.jpg"


class Recording:
    """Every create outcome the flows get, with whether it sent ``FOREIGN_PHOTO``."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.outcomes: list[tuple[CreateOutcome, bool]] = []

    async def create(
        self, request: CreateDeliveryRequest, turn: object = None, *, flow: str
    ) -> CreateOutcome:
        outcome: CreateOutcome = await self.inner.create(request, turn, flow=flow)
        self.outcomes.append((outcome, FOREIGN_PHOTO in request.packageImages))
        return outcome


FITTING = {
    "phone": ["08031234567", "+234 802 222 3333", "12"],
    "text": ["Bola Ahmed", "A pair of shoes", "12 Herbert Macaulay Way, Yaba", "B"],
}


def answer_for(prompt: dict[str, Any] | None, move: tuple[int, int, float, float]) -> Any:
    """Mostly an answer that fits the open question, sometimes anything at all."""
    kind, pick, lat, lng = move
    if prompt is not None and kind < 70:
        return fitting(prompt, pick, lat, lng)
    options = [option["id"] for option in (prompt or {}).get("options", [])]
    if kind < 75:
        return {"kind": "choice", "option": f"invented_{pick}"}
    if kind < 82:
        return {"kind": "text", "text": TEXTS[pick % len(TEXTS)]}
    if kind < 87:
        return {"kind": "location", "lat": lat, "lng": lng}
    if kind < 89 and options:
        return {"kind": "choice", "option": options[pick % len(options)].upper()}
    if kind < 91:
        return {"kind": "contact", "phone": TEXTS[pick % 4], "first_name": "Ada"}
    if kind < 93:
        return {"kind": "photos", "urls": [FOREIGN_PHOTO]}
    if kind < 99:
        return {"kind": "command", "name": COMMANDS[pick % len(COMMANDS)]}
    return ["not", "an", "answer"]


def fitting(prompt: dict[str, Any], pick: int, lat: float, lng: float) -> Any:
    options = [option["id"] for option in prompt["options"]]
    accepts = prompt["accepts"]
    if prompt["input"] == "confirm" and pick % 4:
        # Now and then without the total shown: refused with the summary, nothing sent.
        return confirm_answer({"prompt": prompt}) if pick % 7 else {**CONFIRM, "total": {}}
    if options and (prompt["input"] in ("choice", "confirm") or pick % 3 == 0):
        return {"kind": "choice", "option": options[pick % len(options)]}
    if "photos" in accepts:
        have = (prompt["photos"] or {}).get("have", 0)
        if have and pick % 2:
            return {"kind": "command", "name": "done"}
        # Now and then the agent's own link, which the service will refuse at the create.
        return {"kind": "photos", "urls": [FOREIGN_PHOTO if pick % 5 == 0 else PHOTO_URL]}
    if "location" in accepts and pick % 2:
        near = pick % 5 != 0  # mostly in the service area, sometimes anywhere
        return {
            "kind": "location",
            "lat": 6.5 + (pick % 7) / 100 if near else lat,
            "lng": 3.37 + (pick % 5) / 100 if near else lng,
        }
    texts = FITTING["phone" if prompt["input"] in ("phone", "contact") else "text"]
    return {"kind": "text", "text": texts[pick % len(texts)]}


async def one_agent(
    moves: list[tuple[int, int, float, float]],
) -> list[tuple[CreateOutcome, bool]]:
    with tempfile.TemporaryDirectory() as scratch:
        world = AgentWorld(Path(scratch))
        await world.start(serve=False)
        try:
            assert world.agents is not None
            engine = world.core.chats.engine
            recording = Recording(engine.services.creator)
            engine.services = replace(engine.services, creator=recording)
            service = world.agents.conversations
            view = await service.start("shop", "random")
            for move in moves:
                if view.finished:
                    break
                made = len(recording.outcomes)
                view = await service.answer("shop", view.id, answer_for(view.prompt, move))
                if recording.outcomes[made:] and recording.outcomes[-1][1]:
                    # The refused link's create: the photo question is open again, the order
                    # is not over, and the agent is told why in the bot's words.
                    assert not view.finished and view.prompt is not None
                    assert view.prompt["input"] == "photos", view
                    assert "links given" in " ".join(view.messages)
            # Nothing an agent answers makes the bot alert the business's operators.
            assert world.channel.sent == []
        finally:
            await world.stop()
            await world.sandbox.aclose()
    return recording.outcomes


def test_random_agent_answers_only_ever_send_valid_creates() -> None:
    outcomes: list[CreateOutcome] = []

    @settings(
        max_examples=35,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(
        moves=st.lists(
            st.tuples(
                st.integers(0, 99),
                st.integers(0, 999),
                st.floats(-90, 90) | st.sampled_from([6.5095, 6.45, 6.52]),
                st.floats(-180, 180) | st.sampled_from([3.3711, 3.438, 3.39]),
            ),
            min_size=20,
            max_size=60,
        )
    )
    def agent(moves: list[tuple[int, int, float, float]]) -> None:
        made = asyncio.run(one_agent(moves))
        for outcome, foreign in made:
            if isinstance(outcome, Refused) and foreign:
                assert outcome.reason == "photo_link", outcome
                assert outcome.reask == ("packageImages",) and not outcome.alert_operators
            elif isinstance(outcome, Refused):
                assert outcome.reason in ACCEPTED_REFUSALS, outcome
            else:
                assert not foreign, "the sandbox took a photo from a host it does not allow"
        outcomes.extend(made)

    agent()
    assert outcomes, "no random agent ever reached a create"
    refused_links = [o for o, foreign in outcomes if foreign and isinstance(o, Refused)]
    assert refused_links, "no random agent ever gave a photo link the service refuses"
