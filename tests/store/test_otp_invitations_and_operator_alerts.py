"""``store.otp_invitations`` (which chat opened which hand-off link, for a while) and
``store.operator_alerts`` (an alert sent at most once a while), on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable

from bot.chat_ref import ChatRef
from bot.store import Store


async def test_an_invitation_lasts_its_time_and_a_newer_link_replaces_it(
    store: Store, advance: Callable[[float], None]
) -> None:
    await store.otp_invitations.open(ChatRef("telegram", 7), "first", ttl=60)
    await store.otp_invitations.open(ChatRef("telegram", 7), "second", ttl=60)
    assert await store.otp_invitations.token_for(ChatRef("telegram", 7)) == "second"
    assert await store.otp_invitations.token_for(ChatRef("telegram", 8)) is None
    advance(59)
    assert await store.otp_invitations.token_for(ChatRef("telegram", 7)) == "second"
    advance(1)
    assert await store.otp_invitations.token_for(ChatRef("telegram", 7)) is None
    await store.otp_invitations.open(ChatRef("telegram", 8), "third", ttl=60)
    await store.otp_invitations.close(ChatRef("telegram", 8))
    assert await store.otp_invitations.token_for(ChatRef("telegram", 8)) is None


async def test_an_alert_is_taken_once_a_while(
    store: Store, advance: Callable[[float], None]
) -> None:
    assert await store.operator_alerts.take("Photos refused", repeat_after=900)
    assert not await store.operator_alerts.take("Photos refused", repeat_after=900)
    assert await store.operator_alerts.take("Another", repeat_after=900)
    advance(900)
    assert await store.operator_alerts.take("Photos refused", repeat_after=900)
    assert not await store.operator_alerts.take("Photos refused", repeat_after=900)
