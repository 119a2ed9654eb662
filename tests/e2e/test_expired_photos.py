"""Photos the bot re-hosted that expired before the customer confirmed: nobody's mistake.

The bot looks its own photos up before the create: when one is gone it sends nothing and asks
for the photos again in its own words, keeping every other answer, and alerts no operator. A
photo that expires between that look and the service's download (the sandbox really fetches
it from the bot's web app) is refused with ``image_host_rejected`` and read the same way. A
host the business really did not allowlist, with the photos still stored, still alerts."""

from __future__ import annotations

import time
from typing import Any

from bot.chat_ref import UserRef
from tests.e2e.conftest import ADA, OPERATORS, BotStack, MakeStack, tiny_png
from tests.support.clock import FakeClock
from tests.support.words import say

PHOTO_QUESTION = "photos of the"  # "Please send 1 to 6 photos of the package."
EXPIRED = say("dialogue.refused_photos_expired").split(":")[0]  # before the way's words


def _said(stack: BotStack, messages: list[object]) -> str:
    return "\n".join(getattr(message, "text", None) or "" for message in messages)


def _photo_ttl(stack: BotStack) -> float:
    return stack.config.privacy.photos_seconds


async def _photos_again_then_ordered(stack: BotStack, reply_text: str) -> dict[str, object]:
    """The photo question is open again: answer it, confirm, and return the create sent."""
    assert PHOTO_QUESTION in reply_text
    await stack.photo(ADA, tiny_png(red=9))
    summary = stack.prompt(ADA.id)
    assert summary.text is not None and "Bola Ahmed" in summary.text  # answers kept
    await stack.tap(summary, "Confirm and send")
    assert await stack.bot.store.deliveries.count_for_user(UserRef("telegram", ADA.id)) == 1
    assert stack.partner is not None
    return stack.partner.creates[-1]


async def test_photos_expired_before_the_confirm_are_asked_again_and_nothing_is_sent(
    make_stack: MakeStack,
) -> None:
    wall = FakeClock(time.time())
    stack = await make_stack(clock=wall)
    summary = await stack.fill_order(ADA)
    operators_before = len(stack.tg.sent_messages(OPERATORS.id))
    wall.now += _photo_ttl(stack) + 60  # the customer comes back to confirm two days later

    reply = _said(stack, await stack.tap(summary, "Confirm and send"))

    assert reply.startswith(EXPIRED)
    assert "image_host" not in reply and "allowlist" not in reply
    assert stack.partner is not None and stack.partner.creates == []  # nothing was sent
    assert len(stack.tg.sent_messages(OPERATORS.id)) == operators_before  # nobody alerted
    create = await _photos_again_then_ordered(stack, reply)
    (photo,) = create["packageImages"]  # type: ignore[misc]
    assert isinstance(photo, str) and photo.startswith("https://localhost/media/")
    assert create["receiverName"] == "Bola Ahmed"


async def test_photos_purged_by_housekeeping_are_asked_again_too(make_stack: MakeStack) -> None:
    wall = FakeClock(time.time())
    stack = await make_stack(clock=wall)
    summary = await stack.fill_order(ADA)
    wall.now += _photo_ttl(stack) + 60
    assert await stack.bot.store.media.purge_expired(wall.now) == 1  # rows and files gone

    reply = _said(stack, await stack.tap(summary, "Confirm and send"))

    assert reply.startswith(EXPIRED)
    assert stack.partner is not None and stack.partner.creates == []
    await _photos_again_then_ordered(stack, reply)


async def test_photos_expiring_during_the_create_are_asked_again_without_an_alert(
    make_stack: MakeStack,
) -> None:
    wall = FakeClock(time.time())
    stack = await make_stack(clock=wall)
    summary = await stack.fill_order(ADA)
    operators_before = len(stack.tg.sent_messages(OPERATORS.id))
    assert stack.partner is not None

    async def expire_now() -> None:  # after the bot's look, before the service's download
        wall.now += _photo_ttl(stack) + 60
        stack.partner.before_create = None  # type: ignore[union-attr]

    stack.partner.before_create = expire_now
    reply = _said(stack, await stack.tap(summary, "Confirm and send"))

    assert len(stack.partner.creates) == 1  # sent, and refused: the photo was gone (404)
    assert reply.startswith(EXPIRED)
    assert len(stack.tg.sent_messages(OPERATORS.id)) == operators_before
    await _photos_again_then_ordered(stack, reply)


async def test_a_host_really_missing_from_the_allowlist_still_alerts_the_operators(
    make_stack: MakeStack,
) -> None:
    def allowlist_elsewhere(data: dict[str, Any]) -> None:
        data["images"]["allowlist"] = ["media.swift-lagos.example"]

    wall = FakeClock(time.time())
    stack = await make_stack(clock=wall, edit=allowlist_elsewhere)
    summary = await stack.fill_order(ADA)

    reply = _said(stack, await stack.tap(summary, "Confirm and send"))

    assert reply.startswith(say("dialogue.refused_photos"))
    assert stack.partner is not None and len(stack.partner.creates) == 1
    alerts = [m.text or "" for m in stack.tg.sent_messages(OPERATORS.id)]
    assert any("image-host allowlist" in text for text in alerts)
