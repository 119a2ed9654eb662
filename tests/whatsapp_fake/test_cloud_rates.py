"""The send rates on the fake's clock: a burst to one customer, then 131056 until the pair
rate refills; over the number's throughput, 130429; each refusal counted, 0 when paced."""

from __future__ import annotations

import httpx
import pytest
from pywa_async.errors import RateLimitHit, TooManyMessages

from bot.whatsapp.cloud_client import cloud_client
from bot.whatsapp_fake.cloud_api import FakeCloudApi
from bot.whatsapp_fake.cloud_app import fake_cloud_app
from bot.whatsapp_fake.cloud_rates import SendRates
from tests.support.clock import FakeClock

from .cloud_fixtures import ACCESS_TOKEN, CUSTOMER, PHONE_NUMBER_ID, Cloud, section


async def _sent(cloud: Cloud, to: str = CUSTOMER) -> None:
    await cloud.client.wa.send_message(to=to, text="news")


async def test_a_burst_to_one_customer_then_131056_then_recovery(cloud: Cloud) -> None:
    cloud.fake.rates = SendRates(cloud.clock, pair_burst=3, pair_interval=6.0)
    for _ in range(3):
        await _sent(cloud)

    with pytest.raises(TooManyMessages) as refused:
        await _sent(cloud)
    assert (refused.value.code, refused.value.status_code) == (131056, 400)
    assert "pair rate limit hit" in refused.value.raw["message"]

    cloud.clock.advance(5.9)
    with pytest.raises(TooManyMessages):
        await _sent(cloud)
    cloud.clock.advance(0.1)
    await _sent(cloud)
    assert len(cloud.fake.sent_to(CUSTOMER)) == 4
    assert cloud.fake.refusals == {131056: 2}


async def test_one_customer_s_pair_rate_does_not_hold_another(cloud: Cloud) -> None:
    cloud.fake.rates = SendRates(cloud.clock, pair_burst=1)
    await _sent(cloud)
    await _sent(cloud, "2348011111111")

    assert cloud.fake.refusals.total() == 0


async def test_over_the_number_s_throughput_is_130429() -> None:
    clock = FakeClock()
    fake = FakeCloudApi(
        phone_number_id=PHONE_NUMBER_ID,
        access_token=ACCESS_TOKEN,
        clock=clock,
        rates=SendRates(clock, throughput=5),
    )
    client = cloud_client(section(), transport=httpx.ASGITransport(fake_cloud_app(fake)))
    try:
        for n in range(5):
            await client.wa.send_message(to=f"23480100000{n:02d}", text="news")
        with pytest.raises(RateLimitHit) as refused:
            await client.wa.send_message(to="2348010000099", text="news")
        clock.advance(0.2)
        await client.wa.send_message(to="2348010000099", text="news")
    finally:
        await client.aclose()

    assert (refused.value.code, refused.value.status_code) == (130429, 400)
    assert fake.refusals == {130429: 1}


async def test_meta_s_defaults_take_a_burst_to_forty_customers(cloud: Cloud) -> None:
    for n in range(40):
        await _sent(cloud, f"23480200000{n:02d}")

    assert cloud.fake.refusals.total() == 0
    assert len(cloud.fake.sent()) == 40
