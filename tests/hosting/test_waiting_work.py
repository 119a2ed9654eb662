"""Work acknowledged before a stop is handled even by a business nobody writes to again: a host
builds every business not built whose store holds received items nobody handled."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from bot.chat_ref import TELEGRAM, ChatRef
from bot.store_from_config import open_store
from tests.fakes.telegram_world import TgUser
from tests.hosting.host_world import IDLE_SECONDS, HostWorld, host_world

ADA = TgUser(5001, "Ada")


async def test_an_update_stored_but_not_handled_is_handled_without_a_new_message(
    tmp_path: Path, host_dsn: str | None
) -> None:
    async with host_world(tmp_path, ("acme", "globex"), dsn=host_dsn) as world:
        await world.host.settled()
        world.clock.advance(IDLE_SECONDS)
        assert await world.host.release_idle(IDLE_SECONDS) == 2
        assert await world.host.wake_waiting() == 0  # nothing waits anywhere
        telegram = world.directory.shops["acme"].telegram
        telegram.add_chat(ADA)
        update = telegram.updates.text(ADA, "hi")
        await stored_unhandled(world, "acme", update)

        assert await world.host.wake_waiting() == 1  # acme only: globex has nothing waiting
        reply = await telegram.wait_for_message(ADA.id, timeout=10)
        assert reply.text
        assert world.built() == {"acme"}


async def stored_unhandled(world: HostWorld, name: str, update: dict[str, Any]) -> None:
    """``update`` in business ``name``'s inbox as an instance leaves it when it stops between
    the 200 and the handling, a minute ago (on a shared store another instance takes an
    update over once it has waited ``ORPHANED_SECONDS``)."""
    config = world.directory.shops[name].config()
    store = await open_store(config.storage, lambda: time.time() - 60, business=name)
    try:
        chat = ChatRef(TELEGRAM, ADA.id)
        assert await store.telegram_inbox.add(update["update_id"], chat, json.dumps(update))
    finally:
        await store.close()
