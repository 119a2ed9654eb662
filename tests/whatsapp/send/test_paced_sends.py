"""Sends through the fake Cloud API's own rate limits, in virtual time: a burst to 40
customers (and a long run to one) paced so that the fake refuses none, and a refusal the fake
does answer (131056, 130429) holding what it names and trying again."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest

from bot.chat_ref import WHATSAPP, ChatRef
from bot.whatsapp.cloud_client import cloud_client
from bot.whatsapp.outgoing import TextMessage
from bot.whatsapp.pacing import WhatsAppPacing
from bot.whatsapp.sender import CloudSender, SendThrottled
from bot.whatsapp_fake.cloud_api import FakeCloudApi
from bot.whatsapp_fake.cloud_app import fake_cloud_app
from bot.whatsapp_fake.cloud_rates import SendRates
from tests.telegram_adapter.test_limits_across_instances import VirtualTime
from tests.whatsapp_fake.cloud_fixtures import ACCESS_TOKEN, PHONE_NUMBER_ID, section

CUSTOMERS = [str(2348020000000 + n) for n in range(40)]
ALICE = "2348012345678"


class Senders:
    def __init__(self, time: VirtualTime, rates: SendRates | None) -> None:
        self.time = time
        self.fake = FakeCloudApi(
            phone_number_id=PHONE_NUMBER_ID,
            access_token=ACCESS_TOKEN,
            clock=time.clock,
            rates=rates,
        )
        for wa_id in [*CUSTOMERS, ALICE]:
            self.fake.customer_wrote(wa_id, time.now)
        self.client = cloud_client(
            section(), transport=httpx.ASGITransport(fake_cloud_app(self.fake))
        )
        self.pacing = WhatsAppPacing(clock=time.clock, sleep=time.sleep)
        self.sender = CloudSender(self.client, self.pacing)

    async def to(self, wa_id: str, count: int) -> None:
        for n in range(count):
            await self.sender.send(ChatRef(WHATSAPP, int(wa_id)), TextMessage(f"news {n}"))


@pytest.fixture
async def meta_rates() -> AsyncIterator[Senders]:
    senders = Senders(VirtualTime(), None)
    yield senders
    await senders.client.aclose()


async def test_a_burst_to_40_customers_is_paced_so_the_fake_refuses_none(
    meta_rates: Senders,
) -> None:
    work = [meta_rates.to(wa_id, 3) for wa_id in CUSTOMERS] + [meta_rates.to(ALICE, 12)]
    await meta_rates.time.run(work)

    assert meta_rates.fake.refusals == {}
    assert len(meta_rates.fake.sent()) == 3 * 40 + 12
    assert all(len(meta_rates.fake.sent_to(wa_id)) == 3 for wa_id in CUSTOMERS)


async def test_a_refused_pair_rate_holds_the_customer_and_the_send_goes_after() -> None:
    time = VirtualTime()
    senders = Senders(time, SendRates(time.clock, pair_burst=2))  # stricter than the pacing
    try:
        await time.run([senders.to(ALICE, 3)])
    finally:
        await senders.client.aclose()

    assert senders.fake.refusals == {131056: 1}
    third = senders.fake.sent_to(ALICE)[2]
    assert third.accepted_at >= 1000.0 + senders.pacing.limits.customer_hold


async def test_a_refused_throughput_holds_every_customer_and_the_send_goes_after() -> None:
    time = VirtualTime()
    senders = Senders(time, SendRates(time.clock, throughput=1.0))  # one a second
    try:
        await time.run([senders.to(ALICE, 1), senders.to(CUSTOMERS[0], 1)])
    finally:
        await senders.client.aclose()

    assert senders.fake.refusals == {130429: 1}
    first, second = senders.fake.sent()
    assert second.accepted_at - first.accepted_at >= senders.pacing.limits.number_hold


async def test_a_send_still_refused_after_its_attempts_is_throttled_with_its_wait() -> None:
    time = VirtualTime()
    senders = Senders(time, SendRates(time.clock, throughput=0.5))  # never a whole token
    try:
        with pytest.raises(SendThrottled) as throttled:
            await time.run([senders.to(ALICE, 1)])
    finally:
        await senders.client.aclose()

    assert senders.fake.refusals == {130429: senders.pacing.limits.max_attempts}
    assert throttled.value.retry_after == senders.pacing.limits.number_hold
    assert "130429" in str(throttled.value)
