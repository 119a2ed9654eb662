"""PartnerCatalog: the flows read one shared copy of the org's catalogue; failures are
ServiceUnavailable; refresh() makes every chat read the service again."""

from __future__ import annotations

import asyncio

import pytest

from bot.ordering import PartnerCatalog
from conversations import ServiceUnavailable

from .conftest import MakeOrg, Org


async def test_the_catalogue_is_read_once_for_many_readers(org: Org) -> None:
    catalog = PartnerCatalog(org.cache)
    results = await asyncio.gather(*(catalog.capabilities() for _ in range(5)))
    assert {caps.organization.slug for caps in results} == {"swift-lagos"}
    warehouses = await catalog.warehouses()
    locations = await catalog.service_locations()
    await catalog.warehouses()
    assert [w.name for w in warehouses] == ["Ikeja Hub", "Lekki Depot"]
    assert locations[0].id == "loc_unilag_gate"
    assert org.calls("get_capabilities") == 1
    assert org.calls("list_warehouses") == 1
    assert org.calls("list_service_locations") == 1


async def test_refresh_makes_the_next_read_ask_the_service(org: Org) -> None:
    catalog = PartnerCatalog(org.cache)
    await catalog.capabilities()
    await catalog.warehouses()
    await catalog.refresh()
    await catalog.capabilities()
    await catalog.warehouses()
    assert org.calls("get_capabilities") == 2
    assert org.calls("list_warehouses") == 2


async def test_a_service_that_keeps_failing_is_unavailable(org: Org) -> None:
    org.sandbox.inject_fault("get_capabilities", "status", count=4)
    catalog = PartnerCatalog(org.cache)
    with pytest.raises(ServiceUnavailable) as raised:
        await catalog.capabilities()
    assert "capabilities" in str(raised.value)
    assert org.calls("get_capabilities") == 4  # the client retried before giving up
    # The failure is not cached: the next read tries again and succeeds.
    assert (await catalog.capabilities()).currency == "NGN"


async def test_a_refused_key_is_unavailable_to_the_flows(make_org: MakeOrg) -> None:
    org = make_org()
    org.sandbox.revoke_key("key_sandbox_demo")
    with pytest.raises(ServiceUnavailable):
        await PartnerCatalog(org.cache).service_locations()


async def test_the_whole_catalogue_is_one_read_and_kept(org: Org) -> None:
    catalog = PartnerCatalog(org.cache)
    caps, warehouses, locations = await catalog.catalogue()
    assert caps.organization.slug == "swift-lagos"
    assert [w.name for w in warehouses] == ["Ikeja Hub", "Lekki Depot"]
    assert locations[0].id == "loc_unilag_gate"
    # Kept: the next turns read the copies without asking again, and without waiting.
    again = catalog.catalogue()
    try:
        again.send(None)
    except StopIteration as done:
        assert done.value[0] is caps
    else:
        raise AssertionError("a kept catalogue was read with a wait")
    assert [org.calls(name) for name in ("get_capabilities", "list_warehouses")] == [1, 1]
    assert org.calls("list_service_locations") == 1


async def test_a_catalogue_read_during_an_outage_is_unavailable(org: Org) -> None:
    org.sandbox.inject_fault("list_warehouses", "status", count=4)
    with pytest.raises(ServiceUnavailable):
        await PartnerCatalog(org.cache).catalogue()
