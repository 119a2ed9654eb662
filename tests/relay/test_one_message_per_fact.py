"""One message per fact: whatever events a delivery's life brings, in whatever mix of repeats
and echoes, with the service's hints or without, in English or French, its customer is told
each fact once (the rider, the fee, the payment, the drop-off code, each status) and never two
facts that contradict each other (a status going backwards, the code both texted and linked).

Events are made the way the service sends them (``support.event``) along a random life: how
the delivery was created (priced or not, a rider at once or not, and what the answer to the
create told), optional re-pricing, assignment, payment, the code, the statuses to the end or
a cancel, and ``delivery.updated`` echoes carrying nothing new, each with the sandbox's own
hint or none. Each is relayed as it comes; the messages are then read for their facts.

The create is answered in the turn (what its reply told is drawn), or its answer was lost and
the follow-up settled it (``unconfirmed_worker``): then its notice is the first message read.
"""

from __future__ import annotations

import asyncio
import itertools
import re
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.chat_ref import ChatRef
from bot.config import RelayConfig
from bot.ordering.settled_links import settled_link
from bot.partner.models import WebhookEvent
from bot.relay import Relay
from bot.store import Store
from conversations.texts import dialogue
from tests.support.clock import FakeClock
from tests.support.words import SHIPPED_TEXTS

from .support import (
    CUSTOMER_CHAT,
    CUSTOMER_USER,
    DELIVERY,
    RECEIVER_PHONE,
    START,
    TRACKING,
    TUNDE,
    RecordingChannel,
    event,
    otp,
    put,
)

# Each fact, by the words that tell it (the bot's catalogue in both languages, the sandbox's
# hints): a message's facts are those whose words it has.
FACT_WORDS: dict[str, tuple[str, ...]] = {
    "rider": (
        "is assigned and heading",
        "is your rider",
        "est attribué",
        "has already been assigned",
        "a déjà été désigné",
    ),
    "paid": ("received your payment", "reçu votre paiement"),
    "code": ("drop-off code", "code de remise"),
    "status:awaiting_price": ("waiting for the team to set", "attend que l'équipe"),
    "status:pending": ("waiting for a rider", "attend un livreur", "finding another rider"),
    "status:picked_up": ("has picked up your package", "has been picked up", "a récupéré"),
    "status:in_transit": ("on its way to", "en route vers"),
    "status:delivered": ("has been delivered", "a été livré"),
    "status:cancelled": ("was cancelled", "has been cancelled", "a été annulée"),
}
_FEE = re.compile(
    r"(?:delivery fee is|fee for your request is|frais de livraison sont de)\s*([^.]+?)\.?$",
    re.M,
)
_NOT_DIGIT = re.compile(r"\D")
# (told later, told earlier) pairs that contradict: a status going backwards, and a delivery
# both delivered and cancelled.
_ORDER = ["status:pending", "status:picked_up", "status:in_transit", "status:delivered"]
CONTRADICTIONS = {(before, after) for i, after in enumerate(_ORDER) for before in _ORDER[:i]} | {
    ("status:cancelled", "status:delivered"),
    ("status:delivered", "status:cancelled"),
}
CODE_TWO_WAYS = ("will get a drop-off code", "forward this link")
_RUNS = itertools.count()


def facts_of(text: str) -> set[str]:
    said = text.casefold()
    found = {fact for fact, words in FACT_WORDS.items() if any(w in said for w in words)}
    found |= {"fee:" + _NOT_DIGIT.sub("", amount) for amount in _FEE.findall(text)}
    return found


HINTS = {
    "assigned": "Good news: Tunde is your rider and is heading to the pickup.",
    "priced": "The delivery fee for your request is {fee}.",
    "paid": "We have received your payment of {fee}. Thank you!",
    "otp": "The receiver will get a drop-off code to give the rider at delivery.",
    "picked_up": "Your package has been picked up and is on its way.",
    "in_transit": "Your package is on its way to 5 Awolowo Road.",
    "delivered": "Your package has been delivered. Thank you!",
    "cancelled": "Your delivery has been cancelled.",
    "echo": "Your delivery details were updated.",
}


class Life:
    """The delivery as the service sees it, and the events it sends."""

    def __init__(self, status: str, fee: float | None, rider: bool) -> None:
        self.status, self.fee, self.rider = status, fee, rider
        self.paid = False
        self.last = "echo"  # the kind of the last news sent
        self.events: list[dict[str, Any]] = []

    def send(self, kind: str, event_type: str, previous: str | None, hints: bool) -> None:
        self.last = kind if kind != "otp" else self.last
        n = len(self.events)
        fee = f"NGN {self.fee:,.0f}" if self.fee else "the fee"
        body = event(
            f"evt_{n}",
            self.status,
            created=START + n,
            event_type=event_type,
            previous_status=previous,
            hint=HINTS[kind].format(fee=fee) if hints else None,
            rider=TUNDE if self.rider else None,
            otp=otp() if kind == "otp" else None,
        )
        body["data"]["object"]["payment"] = {
            "delivery_fee": self.fee,
            "currency_code": "NGN",
            "delivery_payment_status": "paid" if self.paid else "unpaid",
        }
        self.events.append(body)

    def move(self, status: str, kind: str, hints: bool, event_type: str = "") -> None:
        previous, self.status = self.status, status
        self.send(kind, event_type or "delivery.status_changed", previous, hints)


@st.composite
def lives(draw: st.DrawFn) -> tuple[Life, frozenset[str]]:
    hints = draw(st.booleans())
    start = draw(st.sampled_from(["awaiting_price", "pending", "matched"]))
    fee = None if start == "awaiting_price" else draw(st.sampled_from([1500.0, 2400.0]))
    life = Life(start, fee, rider=start == "matched")
    life.send("echo", "delivery.created", None, hints)
    if start == "matched":  # auto-dispatch: the service follows with the assignment
        life.send("assigned", "delivery.status_changed", "pending", hints)
    # What the answer to the create told, as ``told_by_create`` says.
    told = set()
    if start == "matched":
        told.add(f"rider:{TUNDE['id']}")
    if fee is not None and draw(st.booleans()):
        told.add(f"fee:{fee:g}")

    def echo() -> None:
        # Updates carrying nothing new: a neutral sentence, or the last one said again.
        for _ in range(draw(st.integers(0, 2))):
            kind = draw(st.sampled_from(["echo", life.last]))
            life.send(kind, "delivery.updated", None, hints and draw(st.booleans()))

    if start == "awaiting_price":
        life.fee = draw(st.sampled_from([2600.0, 3000.0]))
        life.move("pending", "priced", hints)
        echo()
    if draw(st.booleans()):
        life.fee = (life.fee or 0) + 200
        life.send("priced", "delivery.updated", None, hints)
    if life.status != "matched":
        life.rider = True
        life.move("matched", "assigned", hints)
    echo()
    if draw(st.booleans()):
        life.move("cancelled", "cancelled", hints, "delivery.cancelled")
        echo()
        return life, frozenset(told)
    life.paid = True
    life.send("paid", "delivery.updated", None, hints)
    life.send("otp", "delivery.otp_issued", None, hints)
    for status in ("picked_up", "in_transit", "delivered"):
        kind = "delivery.completed" if status == "delivered" else ""
        life.move(status, status, hints, kind)
        echo()
    return life, frozenset(told)


async def settled_by_follow_up(store: Store, life: Life, language: str | None) -> str:
    """The create's answer was lost; the follow-up found the delivery as its first event shows
    it, settled the row and linked it as ``CreateFollowUp`` does: its notice."""
    chat = ChatRef("telegram", CUSTOMER_CHAT)
    await store.unconfirmed.add(
        "key-lost",
        chat,
        CUSTOMER_USER,
        request="{}",
        saved_order="{}",
        fingerprint="fp",
        created_at=START - 60,
        next_attempt_at=START - 60,
        language=language,
    )
    entry = await store.unconfirmed.get("key-lost")
    assert entry is not None
    found = WebhookEvent.model_validate(life.events[0]).data.object
    notice = dialogue.went_through(SHIPPED_TEXTS.catalogue_for(language), found)
    assert await store.unconfirmed.settle(entry, notice, settled_link(found, sent_at=START - 60))
    return notice


async def relay_life(
    tmp_path: Path,
    life: Life,
    told: frozenset[str],
    language: str | None,
    *,
    follow_up: bool = False,
) -> list[str]:
    """The customer's messages over ``life``: the relay's, after the follow-up's notice when
    ``follow_up`` settled the create (``told`` is then what the notice told)."""
    clock = FakeClock()
    channel = RecordingChannel()
    # A file of its own per example: ``tmp_path`` is shared by all of them (and ``id(life)``
    # is reused once a life is gone, which left a database of an earlier example in use).
    store = await Store.connect(tmp_path / f"facts-{next(_RUNS)}.db", clock=clock)
    first: list[str] = []
    try:
        if follow_up:
            first.append(await settled_by_follow_up(store, life, language))
        else:
            await store.deliveries.add(
                DELIVERY,
                ChatRef("telegram", CUSTOMER_CHAT),
                CUSTOMER_USER,
                START - 60,
                RECEIVER_PHONE,
                TRACKING,
                life.events[0]["data"]["object"]["status"],
                tracking_sent=True,
                language=language,
                told=told,
            )
        relay = Relay(
            store,
            channel,
            operators=(),
            settings=RelayConfig(),
            clock=clock,
            sleep=clock.sleep,
        )
        for body in life.events:
            await put(store, body)
            clock.advance(1)
            await relay.process_pending()
        return first + channel.texts(CUSTOMER_CHAT)
    finally:
        await store.close()


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(drawn=lives(), language=st.sampled_from([None, "fr"]), follow_up=st.booleans())
def test_each_fact_is_told_once_and_nothing_contradicts(
    tmp_path: Path, drawn: tuple[Life, frozenset[str]], language: str | None, follow_up: bool
) -> None:
    life, told = drawn
    messages = asyncio.run(relay_life(tmp_path, life, told, language, follow_up=follow_up))
    seen: dict[str, str] = {}
    order: list[str] = []
    for text in messages:
        for fact in sorted(facts_of(text)):
            assert fact not in seen, f"{fact} told twice:\n{seen[fact]!r}\n{text!r}"
            seen[fact] = text
            order.append(fact)
        assert not all(way in text.casefold() for way in CODE_TWO_WAYS), text
    for i, later in enumerate(order):
        for earlier in order[:i]:
            assert (later, earlier) not in CONTRADICTIONS, (earlier, later, messages)
    if follow_up:
        return  # the notice is the first message read: what it told was checked above
    # What the answer to the create told is not told again.
    if f"fee:{(life.fee or 0):g}" in told:
        assert not any(f.startswith("fee:") for f in seen), messages
    if f"rider:{TUNDE['id']}" in told:
        assert "rider" not in seen, messages


def test_the_fact_reader_finds_what_it_is_for() -> None:
    assert facts_of("Delivery X\nGood news: Tunde is your rider") == {"rider"}
    assert facts_of("Delivery X\nThe delivery fee is NGN 2,600.") == {"fee:2600"}
    assert facts_of("Livraison X\nNous avons bien reçu votre paiement de 2 600 NGN.") == {"paid"}
