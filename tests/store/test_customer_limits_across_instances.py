"""``[limits]`` counted in the store: two instances on one PostgreSQL database see one count per
customer, the rolling windows free up at their edge, and the operators are told once a day
whichever instance refused (``bot.safety.customer_limits``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from bot.chat_ref import ChatRef, UserRef
from bot.config import LimitsConfig
from bot.safety.customer_limits import CustomerLimits, LimitHit
from bot.store.pg_local_server import LocalPostgres
from conversations.texts.business_texts import BusinessTexts
from tests.store.pg_instances import pg_instances
from tests.support.clock import FakeClock
from tests.support.words import SHIPPED_TEXTS

TEXTS = BusinessTexts(SHIPPED_TEXTS)

ADA = UserRef("telegram", 1001)
LIMITS = LimitsConfig(open_deliveries=0, creates_per_hour=2, creates_per_day=3, drafts_per_hour=2)


async def test_two_instances_share_each_customers_counts(
    postgres_server: LocalPostgres,
    tmp_path: Path,
    fake_clock: FakeClock,
    advance: Callable[[float], None],
) -> None:
    told: list[str] = []

    async def tell(text: str) -> None:
        told.append(text)

    async with pg_instances(postgres_server, tmp_path / "media", clock=fake_clock) as stores:
        a, b = (CustomerLimits(store, LIMITS, tell, texts=TEXTS) for store in stores)
        for number, store in enumerate(stores):  # one delivery created on each instance
            await store.deliveries.add(
                f"d-{number}", ChatRef("telegram", ADA.id), ADA.id, fake_clock(), None, None
            )
            advance(60)

        assert await b.before_create(ADA) == LimitHit("creates_per_hour", 2, 3600 - 120)
        assert await a.before_create(ADA) == LimitHit("creates_per_hour", 2, 3600 - 120)
        assert await a.before_create(UserRef("telegram", 1002)) is None
        advance(3600 - 120)  # an hour after the first create: still within the hour
        assert (await b.before_create(ADA)) == LimitHit("creates_per_hour", 2, 60)
        advance(1)  # and now out of it
        assert await b.before_create(ADA) is None

        assert await a.before_draft(ADA) is None
        assert await b.before_draft(ADA) is None
        assert await a.before_draft(ADA) == LimitHit("drafts_per_hour", 2, 3600)

        assert len(told) == 1  # once per customer per day, whichever instance refused
        hits = await stores[1].audit.since(0)
        assert [e.outcome for e in hits] == [
            *["refused: creates_per_hour"] * 3,
            "refused: drafts_per_hour",
        ]
