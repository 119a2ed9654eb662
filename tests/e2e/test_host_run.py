"""``deliverybot run`` on a host file, as an operator runs it: every business of the directory
answers its own customers through one web server; a business added with ``deliverybot
businesses add`` is announced and answering within a second or so, one changed is replaced and
one removed is gone, all without a restart and without losing a customer's message.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from tests.e2e.host_instances import HostDeployment, HostedShop, host_deployment
from tests.fakes import TgUser
from tests.fakes.telegram_api import FakeTelegram
from tests.hosting.host_world import secret_of


async def answered(telegram: FakeTelegram, user: TgUser, text: str = "hi") -> str:
    """``user`` writes ``text`` to the bot of ``telegram``, which pushes it to the host; the
    text of the bot's next answer."""
    before = len(telegram.sent_messages(user.id))
    telegram.push_update(telegram.updates.text(user, text))
    reply = await telegram.wait_for_message(
        user.id, lambda _: len(telegram.sent_messages(user.id)) > before, timeout=30
    )
    return reply.text


async def webhook_at(shop: HostedShop, *urls: str, after: int = 0) -> None:
    """``shop``'s bot had its webhook set to one of ``urls``."""
    call = await shop.telegram.wait_for_call("setWebhook", after=after, timeout=30)
    assert call.ok and call.params["url"] in urls and shop.telegram.webhook is not None


async def test_a_host_serves_adds_changes_and_removes_businesses_while_it_runs(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    async with host_deployment("sqlite", tmp_path, request) as world:
        acme = await world.open_shop("acme", 1)
        globex = await world.open_shop("globex", 2)
        world.write(acme)
        world.write(globex)
        instance = await world.start()
        for shop in (acme, globex):
            await webhook_at(shop, f"{instance.base_url}/telegram")
        assert await answered(acme.telegram, TgUser(101, "Ada"))
        assert await answered(globex.telegram, TgUser(201, "Bea"))

        # Acme's customers keep writing while businesses come, change and go.
        customers = [TgUser(1000 + n, f"Customer {n}") for n in range(12)]
        steady = asyncio.create_task(steady_customers(acme.telegram, customers))

        initech = await world.open_shop("initech", 3)
        said = await world.shell("businesses", "add", str(world.draft(initech)))
        started = time.monotonic()  # the file is in the directory
        assert "initech" in said
        await webhook_at(initech, f"{instance.base_url}/telegram")
        assert await answered(initech.telegram, TgUser(301, "Cy"))
        added_in = time.monotonic() - started

        acme.texts = '[texts]\nlocale = "fr"'
        world.write(acme)
        await webhook_at(acme, f"{instance.base_url}/telegram", after=1)  # announced again

        await world.shell("businesses", "remove", "globex")
        gone = await wait_for_status(world, f"{instance.base_url}/b/globex/health", 404)
        assert gone
        assert await steady == len(customers)  # every message answered, none lost
    # The figure a test can only print: the shared machine's load makes it no assertion.
    print(f"\nbusiness added and answering {added_in:.2f} s after its file was in place")


async def steady_customers(telegram: FakeTelegram, customers: list[TgUser]) -> int:
    """Each customer writes once, one after another; how many got an answer."""
    answers = 0
    for customer in customers:
        if await answered(telegram, customer):
            answers += 1
    return answers


async def wait_for_status(world: HostDeployment, url: str, status: int) -> bool:
    """Whether ``url`` answers ``status`` within 10 s (the instance applies a removal at its
    next look at the directory; no event crosses the process boundary)."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if (await world.client.get(url)).status_code == status:
            return True
        await asyncio.sleep(0.1)
    return False


async def test_two_instances_on_postgresql_serve_every_business_each_in_its_own_schema(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    async with host_deployment("postgres", tmp_path, request) as world:
        acme = await world.open_shop("acme", 1)
        world.write(acme)
        first = await world.start()
        second = await world.start()
        # Each instance's own public address: whichever of the two set the webhook first.
        either = (f"{first.base_url}/telegram", f"{second.base_url}/telegram")
        await webhook_at(acme, *either)
        initech = await world.open_shop("initech", 3)
        await world.shell("businesses", "add", str(world.draft(initech)))
        await webhook_at(initech, *either)
        # Either instance answers either business: each customer writes to the other one.
        for instance, shop, user in (
            (second, acme, TgUser(111, "Ada")),
            (first, initech, TgUser(311, "Cy")),
            (second, initech, TgUser(312, "Dee")),
        ):
            assert await answered_at(world, instance.base_url, shop, user)
        schemas = await world.schemas()
        assert {"b_acme", "b_initech"} <= schemas


async def answered_at(world: HostDeployment, base_url: str, shop: HostedShop, user: TgUser) -> str:
    """``user``'s message to ``shop``'s bot posted to the instance at ``base_url`` as Telegram
    would; the text of the bot's answer."""
    telegram = shop.telegram
    telegram.add_chat(user)
    update = telegram.updates.text(user, "hi")
    headers = {"X-Telegram-Bot-Api-Secret-Token": secret_of(shop.name)}
    answer = await world.client.post(f"{base_url}/telegram", json=update, headers=headers)
    assert answer.status_code == 200
    reply = await telegram.wait_for_message(user.id, timeout=30)
    return reply.text
