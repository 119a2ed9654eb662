"""``HostRuntime``: businesses built on first use, released when idle, announced once per
file, and added, changed and removed while the host runs.

Each business is a real ``Runtime`` (its SQLite file, PTB Application in webhook mode, its
sandbox organisation); every request reaches it through the host's one web app, as Telegram's
pushes do.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.hosting.host_metrics import HostMetrics
from tests.fakes.telegram_world import TgUser
from tests.hosting.host_world import (
    HOST,
    IDLE_SECONDS,
    HostWorld,
    host_world,
    secret_of,
    token_of,
)

ADA = TgUser(5001, "Ada")


async def say_hello(world: HostWorld, name: str) -> str:
    """Ada writes to business ``name``'s bot; the text of its first answer, once her message
    has gone through the handlers."""
    shop = world.directory.shops[name]
    telegram = shop.telegram
    before = len(telegram.sent_messages(ADA.id))
    update = telegram.updates.text(ADA, "hi")
    telegram.push_update(update)
    answer = await telegram.wait_for_message(
        ADA.id, lambda message: len(telegram.sent_messages(ADA.id)) > before
    )
    assert shop.processor is not None
    await shop.processor.processed(update["update_id"])
    slot = world.host.slot(name)
    assert slot is not None
    await slot.quiet()  # the push's request has ended too
    return answer.text


async def test_businesses_are_announced_then_built_only_when_used(tmp_path: Path) -> None:
    async with host_world(tmp_path, ("acme", "globex")) as world:
        await world.host.settled()  # new files: each built once, to set its webhook
        for shop in world.directory.shops.values():
            webhook = shop.telegram.webhook
            assert webhook is not None and webhook.url == f"{HOST}/telegram"
            assert webhook.secret_token == secret_of(shop.name)
        assert sorted(world.builds) == [("acme", True), ("globex", True)]

        world.clock.advance(IDLE_SECONDS)
        assert await world.host.release_idle(IDLE_SECONDS) == 2
        assert world.built() == set()

        assert await say_hello(world, "acme")
        assert world.built() == {"acme"}  # globex, unused, stays released
        assert world.builds[-1] == ("acme", False)  # built again without announcing
        acme = world.directory.shops["acme"].telegram
        assert len(acme.calls("setWebhook")) == 1
        assert world.directory.shops["globex"].telegram.sent_messages(ADA.id) == []


async def test_a_request_the_host_cannot_place_gets_nothing_of_any_business(
    tmp_path: Path,
) -> None:
    async with host_world(tmp_path, ("acme", "globex")) as world:
        await world.host.settled()
        update = {"update_id": 1, "message": {"message_id": 1, "date": 0, "chat": {"id": 1}}}
        wrong = {"X-Telegram-Bot-Api-Secret-Token": "not-a-bot-of-this-host"}
        refused = await world.web.post("/telegram", json=update, headers=wrong)
        # Globex's secret at acme's own door: acme's route checks it, as on a host of one.
        crossed = {"X-Telegram-Bot-Api-Secret-Token": secret_of("globex")}
        across = await world.web.post("/b/acme/telegram", json=update, headers=crossed)
        unknown = await world.web.get("/b/initech/health")
        no_key = await world.web.get("/api/conversations")
        assert (refused.status_code, across.status_code) == (403, 403)
        assert (unknown.status_code, no_key.status_code) == (404, 401)
        for response in (refused, across, unknown, no_key):
            assert "acme" not in response.text and "globex" not in response.text
        health = await world.web.get("/b/acme/health")
        assert health.status_code == 200


async def test_added_changed_and_removed_without_a_restart(tmp_path: Path) -> None:
    async with host_world(tmp_path, ("acme",)) as world:
        await world.host.settled()
        assert await say_hello(world, "acme")

        world.directory.shops["globex"] = await world.open_shop("globex", 2)
        await world.host.rescan()
        await world.host.settled()
        globex = world.directory.shops["globex"].telegram
        assert globex.webhook is not None and globex.webhook.url == f"{HOST}/telegram"
        assert await say_hello(world, "globex")

        # A change (its French greeting) drains the running acme and builds the new one.
        world.directory.shops["acme"].texts = {"locale": "fr"}
        await world.host.rescan()
        await world.host.settled()
        assert world.builds.count(("acme", True)) == 2  # announced again: its file changed
        assert world.events[-2:] == ["stopped acme", "built acme"]  # never two at once
        assert world.built() == {"acme", "globex"}

        del world.directory.shops["globex"]
        await world.host.rescan()
        await world.host.settled()
        assert "globex" not in world.host.businesses and "globex" not in world.built()
        gone = await world.web.get("/b/globex/health")
        routed = await world.web.post(
            "/telegram",
            json={"update_id": 9},
            headers={"X-Telegram-Bot-Api-Secret-Token": secret_of("globex")},
        )
        assert (gone.status_code, routed.status_code) == (404, 403)


async def test_metrics_keep_counting_across_releases_with_a_bounded_business_label(
    tmp_path: Path,
) -> None:
    metrics = HostMetrics(business_label=True, cap=1)
    async with host_world(tmp_path, ("acme", "globex", "initech"), metrics) as world:
        await world.host.settled()
        for name in ("acme", "globex", "initech"):
            assert await say_hello(world, name)
        world.clock.advance(IDLE_SECONDS)
        assert await world.host.release_idle(IDLE_SECONDS) == 3
        assert await say_hello(world, "acme")  # built again: its counters go on
        text = world.host.exposition().decode()
    updates = updates_by_business(text)
    assert updates == {"acme": 2.0, "other": 2.0}  # globex and initech beyond the cap
    assert 'deliverybot_host_businesses{state="known"} 3.0' in text
    assert 'deliverybot_host_businesses{state="built"} 1.0' in text
    assert "deliverybot_host_releases_total 3.0" in text


def updates_by_business(exposition: str) -> dict[str, float]:
    """``deliverybot_updates_total`` summed per ``business`` label."""
    totals: dict[str, float] = {}
    for family in text_string_to_metric_families(exposition):
        if family.name != "deliverybot_updates":
            continue
        for sample in family.samples:
            if sample.name == "deliverybot_updates_total":
                business = sample.labels["business"]
                totals[business] = totals.get(business, 0.0) + sample.value
    return totals


async def test_a_business_that_cannot_be_built_answers_503_and_the_others_serve(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with host_world(tmp_path, ("acme",)) as world:
        await world.host.settled()
        revoked = await world.open_shop("globex", 2)
        revoked.token = token_of(99)  # Telegram no longer knows the token in its file
        world.directory.shops["globex"] = revoked
        await world.host.rescan()
        await world.host.settled()  # its announcement failed, and was logged
        answer = await world.web.get("/b/globex/health")
        assert answer.status_code == 503 and answer.headers["retry-after"]
        assert await say_hello(world, "acme")
    refusals = [r for r in caplog.records if "business globex could not be built" in r.message]
    assert refusals and all(r.exc_info is None for r in refusals)
    assert token_of(99) not in caplog.text


async def test_many_new_businesses_are_announced_a_few_at_a_time_and_released(
    tmp_path: Path,
) -> None:
    names = tuple(f"shop-{number}" for number in range(6))
    async with host_world(tmp_path, names) as world:
        await world.host.settled()
        for shop in world.directory.shops.values():
            assert shop.telegram.webhook is not None, shop.name
        # Those announced while others waited were released at once; none stays built long.
        assert len(world.built()) < len(names)
        assert await say_hello(world, "shop-0")  # built again on its first customer
