"""CapabilityCache: one request for many askers, a TTL, and a refresh when the spec says so."""

from __future__ import annotations

import asyncio

import pytest

from bot.partner import errors
from bot.partner.capabilities import CapabilityCache
from bot.partner.models import Capabilities, ServiceLocation, Warehouse
from bot.partner.options import ClientOptions
from bot.partner.request_limiter import RequestLimiter

TTL = 300.0


class FakeSource:
    """Counts loads; ``gate`` (when set) holds every load until the test opens it."""

    def __init__(self, payloads) -> None:
        self.payloads = payloads
        self.loads = {"capabilities": 0, "warehouses": 0, "locations": 0}
        self.gate: asyncio.Event | None = None
        self.failure: Exception | None = None
        self.rate: int | None = 60

    async def _enter(self, what: str) -> None:
        self.loads[what] += 1
        if self.gate is not None:
            await self.gate.wait()
        if self.failure is not None:
            raise self.failure

    async def get_capabilities(self) -> Capabilities:
        await self._enter("capabilities")
        rate_limits = {"requestsPerMinute": self.rate, "windowSeconds": 60}
        return Capabilities.model_validate(self.payloads.capabilities(rateLimits=rate_limits))

    async def list_warehouses(self) -> list[Warehouse]:
        await self._enter("warehouses")
        return [Warehouse.model_validate(self.payloads.warehouse())]

    async def list_service_locations(self) -> list[ServiceLocation]:
        await self._enter("locations")
        return [ServiceLocation.model_validate(self.payloads.service_location())]


@pytest.fixture
def source(payloads):
    return FakeSource(payloads)


@pytest.fixture
def cache(source, clock):
    return CapabilityCache(source, ttl_seconds=TTL, clock=clock)


async def test_a_hundred_chats_asking_at_once_cause_one_request(make_client, api, payloads):
    api.on(
        "GET",
        "/capabilities",
        api.reply(200, {"ok": True, "capabilities": payloads.capabilities()}),
    )
    cache = CapabilityCache.for_client(make_client())
    results = await asyncio.gather(*(cache.get() for _ in range(100)))
    assert len(api.requests) == 1
    assert all(r is results[0] for r in results)


@pytest.mark.parametrize(
    ("method", "what"),
    [("get", "capabilities"), ("warehouses", "warehouses"), ("service_locations", "locations")],
)
async def test_each_catalogue_is_single_flight_and_kept_for_the_ttl(
    cache, source, clock, method, what
):
    source.gate = asyncio.Event()
    asking = asyncio.gather(*(getattr(cache, method)() for _ in range(50)))
    await asyncio.sleep(0)
    source.gate.set()
    await asking
    assert source.loads[what] == 1
    clock.advance(TTL - 1)
    await getattr(cache, method)()
    assert source.loads[what] == 1
    clock.advance(1)
    await getattr(cache, method)()
    assert source.loads[what] == 2


async def test_catalogue_lists_are_copies(cache):
    first = await cache.warehouses()
    first.clear()
    assert len(await cache.warehouses()) == 1


async def test_invalidate_forgets_all_three(cache, source):
    await cache.get()
    await cache.warehouses()
    await cache.service_locations()
    cache.invalidate()
    await cache.get()
    await cache.warehouses()
    await cache.service_locations()
    assert source.loads == {"capabilities": 2, "warehouses": 2, "locations": 2}


@pytest.mark.parametrize(
    ("error", "stale"),
    [
        (errors.ServiceDisabled(status=403), True),
        (errors.CreateRejected(status=403, code="outside_coverage"), True),
        (
            errors.InvalidFields(status=400, field_errors={"customerCollectionMethod": ["off"]}),
            True,
        ),
        (errors.InvalidFields(status=400, field_errors={"receiverPhone": ["Required"]}), False),
        (errors.CreateFailed(status=503), False),
        (errors.RequestTimeout(), False),
    ],
)
async def test_refresh_after_create_errors_the_spec_names(cache, source, error, stale):
    await cache.get()
    assert cache.refresh_after(error) is stale
    await cache.get()
    assert source.loads["capabilities"] == (2 if stale else 1)


async def test_refresh_after_a_real_service_disabled_from_the_client(make_client, api, payloads):
    client = make_client()
    cache = CapabilityCache.for_client(client)
    api.on(
        "GET",
        "/capabilities",
        api.reply(200, {"ok": True, "capabilities": payloads.capabilities()}),
    )
    api.on("POST", "/deliveries", api.error(403, "service_disabled", "Errands are off"))
    await cache.get()
    with pytest.raises(errors.PartnerError) as caught:
        await client.create_delivery(payloads.create_request())
    assert cache.refresh_after(caught.value)
    await cache.get()
    assert [r.url.path for r in api.requests].count("/api/v1/capabilities") == 2


async def test_a_failed_load_is_shared_and_not_kept(cache, source):
    source.gate = asyncio.Event()
    source.failure = errors.CapabilitiesFailed(status=503)
    asking = asyncio.gather(*(cache.get() for _ in range(20)), return_exceptions=True)
    await asyncio.sleep(0)
    source.gate.set()
    outcomes = await asking
    assert all(isinstance(o, errors.CapabilitiesFailed) for o in outcomes)
    assert source.loads["capabilities"] == 1
    source.failure = None
    assert isinstance(await cache.get(), Capabilities)
    assert source.loads["capabilities"] == 2


async def test_one_asker_giving_up_does_not_cancel_the_others(cache, source):
    source.gate = asyncio.Event()
    quitter = asyncio.create_task(cache.get())
    stayer = asyncio.create_task(cache.get())
    await asyncio.sleep(0)
    quitter.cancel()
    source.gate.set()
    assert isinstance(await stayer, Capabilities)
    assert quitter.cancelled()
    assert source.loads["capabilities"] == 1


async def test_a_load_that_started_before_invalidate_is_not_kept(cache, source):
    source.gate = asyncio.Event()
    early = asyncio.create_task(cache.get())
    await asyncio.sleep(0)
    cache.invalidate()
    late = asyncio.create_task(cache.get())
    await asyncio.sleep(0)
    source.gate.set()
    await asyncio.gather(early, late)
    assert source.loads["capabilities"] == 2
    await cache.get()
    assert source.loads["capabilities"] == 2  # the late load is the one kept


async def test_loading_capabilities_sets_the_limiter(source, clock, sleeper):
    limiter = RequestLimiter(clock=clock, sleep=sleeper)
    cache = CapabilityCache(source, ttl_seconds=TTL, limiter=limiter, clock=clock)
    source.rate = 180
    await cache.get()
    assert limiter.requests_per_minute == 180
    source.rate = None  # a custom plan: no per-key cap
    cache.invalidate()
    await cache.get()
    assert limiter.requests_per_minute is None


async def test_for_client_takes_the_ttl_option_and_the_clients_limiter(
    make_client, api, payloads, clock
):
    client = make_client(options=ClientOptions(capabilities_ttl_seconds=10))
    api.on(
        "GET",
        "/capabilities",
        api.reply(200, {"ok": True, "capabilities": payloads.capabilities()}),
    )
    cache = CapabilityCache.for_client(client, clock=clock)
    await cache.get()
    assert client.limiter.requests_per_minute == 180
    clock.advance(9)
    await cache.get()
    clock.advance(1)
    await cache.get()
    assert len(api.requests) == 2


def test_a_negative_ttl_is_refused(source):
    with pytest.raises(ValueError, match="ttl_seconds"):
        CapabilityCache(source, ttl_seconds=-1)
