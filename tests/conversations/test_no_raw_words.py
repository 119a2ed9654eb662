"""Random walks through the flows, with the service refusing creates in its own words: no
customer ever reads the service's ``error`` or ``fieldErrors`` text, an error code, a request
field name, a raw enum value of the Partner API's vocabulary, or Python's rendering of a value
(``{'address': ...}``, ``[...]``, ``None``, ``True``), in any prompt, option or message as a
channel draws it.

Refusals are made the way the bot makes them: an error envelope, as the service would send it,
goes through ``error_from_response`` and ``PartnerCreator``'s ``refusal_for``. Enum values are
checked when they look like identifiers (``cash_on_delivery``, ``delivery.created``); a
one-word value such as ``small`` or ``pickup`` is also plain English, so it proves nothing.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import typing
from collections.abc import Iterable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.ordering.creator import refusal_for
from bot.partner import models
from bot.partner.errors import ERRORS_BY_CODE, error_from_response
from bot.partner.models import CreateDeliveryRequest
from conversations.dialog import (
    ChoiceAnswer,
    CommandAnswer,
    ContactAnswer,
    LocationAnswer,
    PhotosAnswer,
    Prompt,
    TextAnswer,
    Turn,
)
from conversations.outcome import CreateOutcome, Refused
from conversations.texts.taps import KEYBOARD, for_channel
from tests.support.words import SHIPPED

from .conftest import Chat, World, make_caps


def _literal_values() -> set[str]:
    values: set[str] = set()
    for value in vars(models).values():
        if typing.get_origin(value) is typing.Literal:
            values |= {arg for arg in typing.get_args(value) if isinstance(arg, str)}
    return values


# What must never reach a chat, whatever the service said.
IDENTIFIERS = sorted(
    {word for word in _literal_values() if "_" in word or "." in word}
    | set(ERRORS_BY_CODE)
    | {name for name in CreateDeliveryRequest.model_fields if name != name.lower()}
)
_IDENTIFIER = re.compile("|".join(rf"(?<![\w.]){re.escape(word)}(?![\w])" for word in IDENTIFIERS))
# Python's rendering of a value: braces and brackets, a dict's quoted keys, and None, True or
# False where a value goes ("Name: None", "(True)"; "None of these" is English).
_REPR = re.compile(r"[{}\[\]]|'\w+':|(?:[:=(,]\s*|\s)(?:None|True|False)\b(?!\s+\w)")

SERVICE_MESSAGES = [
    "Re-fetch capabilities.",
    "The errand service is not enabled for this business. Re-fetch capabilities.",
    "customerCollectionMethod must be one of cash_on_delivery, online_checkout",
    "This job is outside the business's coverage area.",
    "Image host media.example is not on the allowlist (image_host_rejected).",
    "Trust score too low for API creates",
    "Upstream create_failed: database timeout",
    "Some fields are missing or invalid.",
]
FIELD_TEXTS = [
    "must be one of small, medium, large",
    "warehouse mode is not enabled for this business",
    "must be cash_on_delivery or online_checkout (payment flags)",
    "is required for errands (send an empty array for none)",
    "the dropoff point is outside the area this business serves",
    "Value error, expected at_place | link | photo",
]
FIELDS = [
    "receiverPhone",
    "deliveryCoords",
    "pickupCoords.lat",
    "customerCollectionMethod",
    "podAmount",
    "serviceKind",
    "deliveryMode",
    "errandLinks[0].url",
    "packageImages",
    "distanceKm",
    "x",
]
ANSWERS = [
    (400, "validation_error"),
    (400, "image_host_rejected"),
    (403, "service_disabled"),
    (403, "outside_coverage"),
    (403, "billing_terminated"),
    (403, "missing_scope"),
    (401, "invalid_api_key"),
    (429, "rate_limited"),
    (503, "create_failed"),
    (418, "teapot_mode"),
]
ORGS: list[dict[str, Any]] = [
    {},
    {"paymentTiming": "before_dispatch", "publicRequest": {"pricingMode": "starting_from"}},
    {"enabledServiceKinds": ["errand"], "errand": {"enabledModes": ["link", "photo"]}},
    {"paymentCollection": {"onlineCheckout": False}, "pod": {"enabled": False}},
    {"paymentCollection": {"onlineCheckout": False, "cashOnDelivery": False}},
]
# What the business may switch to while a customer is mid-order.
CHANGES: list[dict[str, Any]] = [
    {"paymentCollection": {"onlineCheckout": False, "cashOnDelivery": False}},
    {"paymentCollection": {"cashOnDelivery": False}},
    {"enabledServiceKinds": ["pickup_delivery"], "allowWarehouseDropoff": False},
]
TEXTS = ["Ada Obi", "08031234567", "15 Allen Avenue", "ozone cinema", "5000", "x", "A02", ""]


def _refusal(rnd: random.Random) -> tuple[Refused, list[str]]:
    """A refusal as the bot makes it from a service answer, and the service's own words."""
    status, code = rnd.choice(ANSWERS)
    message = rnd.choice(SERVICE_MESSAGES)
    field_errors = {rnd.choice(FIELDS): [rnd.choice(FIELD_TEXTS)] for _ in range(rnd.randint(0, 3))}
    body: dict[str, Any] = {"ok": False, "error": message, "code": code}
    if field_errors:
        body["fieldErrors"] = field_errors
    if status == 429:
        body["retryAfterSeconds"] = rnd.choice([1, 45, 400])
    error = error_from_response(status, json.dumps(body).encode(), on_create=True)
    said = [message, *(text for texts in field_errors.values() for text in texts)]
    return refusal_for(error), said


def _answer(rnd: random.Random, prompt: Prompt | None) -> Any:
    stamp = {"step": prompt.step, "version": prompt.version} if prompt else {}
    roll = rnd.random()
    if prompt and prompt.options and roll < 0.6:
        return ChoiceAnswer(option=rnd.choice(prompt.options).id, **stamp)
    if roll < 0.75:
        return TextAnswer(text=rnd.choice(TEXTS))
    if roll < 0.8:
        return LocationAnswer(lat=6.5, lng=3.4, address="Ozone Cinema, Yaba")
    if roll < 0.84:
        return ContactAnswer(phone="2348031234567", first_name="Ada")
    if roll < 0.9:
        return PhotosAnswer(urls=[f"https://media.example/{rnd.random()}.jpg"])
    name = rnd.choice(["back", "skip", "done", "done", "help", "edit"])
    return CommandAnswer(name=name, target=rnd.choice(["photos", "payment", None]), **stamp)


def _shown(turn: Turn) -> Iterable[str]:
    """Every text of ``turn`` a customer reads, as a channel draws it (its ``[[tap:...]]``
    marks in words): messages, the question, its options."""
    labels = [option.label for option in turn.prompt.options] if turn.prompt else []
    for text in turn.messages:
        yield for_channel(SHIPPED, text, KEYBOARD, labels)
    if turn.prompt is not None:
        yield for_channel(SHIPPED, turn.prompt.text, KEYBOARD, labels)
        yield from labels


async def _walk(world: World, seed: int, change: dict[str, Any] | None) -> None:
    rnd = random.Random(seed)
    service_words: list[str] = []
    script: list[CreateOutcome] = []
    for _ in range(rnd.randint(1, 4)):
        refused, said = _refusal(rnd)
        script.append(refused)
        service_words += said
    world.creator.script = list(script)
    chat: Chat = world.chat()
    await chat.start()
    change_at = rnd.randint(5, 40)
    for move in range(150):
        if chat.turn.finished:
            break
        if change is not None and move == change_at:
            world.catalog.caps = world.catalog.after_refresh = make_caps(**change)
        await chat.send(_answer(rnd, chat.prompt))
    for turn in chat.turns:
        for text in _shown(turn):
            leaked = [words for words in service_words if words in text]
            assert not leaked, f"the service's words reached the customer: {text!r}"
            raw = _IDENTIFIER.search(text)
            assert raw is None, f"{raw.group(0)!r} reached the customer: {text!r}"
            rendered = _REPR.search(text)
            assert rendered is None, f"{rendered.group(0)!r} reached the customer: {text!r}"


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    org=st.sampled_from(ORGS),
    change=st.one_of(st.none(), st.sampled_from(CHANGES)),
    seed=st.integers(0, 2**32),
)
def test_no_customer_ever_reads_service_words_or_raw_values(new_world, org, change, seed):
    asyncio.run(_walk(new_world(**org), seed, change))


def test_the_identifier_check_catches_what_it_is_for():
    """The check itself: it finds raw values, and leaves plain words alone."""
    assert _IDENTIFIER.search("Payment: cash_on_delivery") is not None
    assert _IDENTIFIER.search("bad customerCollectionMethod") is not None
    assert _IDENTIFIER.search("code image_host_rejected") is not None
    assert _IDENTIFIER.search("Payment: Cash on delivery. Size: small.") is None
    assert _REPR.search("Keep: {'address': 'Computer Village'}") is not None
    assert _REPR.search("Name: None") is not None
    assert _REPR.search("Keep: Computer Village — Otigba Street, Ikeja") is None
    assert _REPR.search("None of these: type it again") is None
