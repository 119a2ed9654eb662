"""Restart semantics: what one run of the bot left in the file, the next run picks up."""

import asyncio
import sys
from collections.abc import Callable
from pathlib import Path

from bot.chat_ref import ChatRef, UserRef
from bot.clocks import Clock
from bot.store import InboxCounts, SendKey, Store

SENT = SendKey("evt_sent", ChatRef("telegram", 10), "status")
CLAIMED = SendKey("evt_claimed", ChatRef("telegram", 10), "status")

# A bot run that stores everything, then dies without closing anything: os._exit skips every
# cleanup, so only what SQLite committed to the WAL survives, as after a kill -9.
CRASHING_RUN = """
import asyncio, os, sys
from bot.chat_ref import ChatRef
from bot.store import SendKey, Store

async def main():
    store = await Store.connect(sys.argv[1])
    await store.sessions.save(ChatRef("telegram", 10), 10, '{"step": "dropoff"}')
    await store.deliveries.add("d1", ChatRef("telegram", 10), 10, 100.0, "+2348099999999", None)
    await store.deliveries.update_view("d1", "matched", 200)
    await store.inbox.add("evt_sent", "d1", "delivery.status_changed", 200, b"{}")
    await store.inbox.add("evt_claimed", "d1", "delivery.updated", 300, b"{}")
    await store.sent.claim(SendKey("evt_sent", ChatRef("telegram", 10), "status"))
    await store.sent.mark_sent(SendKey("evt_sent", ChatRef("telegram", 10), "status"), 55)
    await store.inbox.mark_processed("evt_sent")
    await store.sent.claim(SendKey("evt_claimed", ChatRef("telegram", 10), "status"))
    print("stored", flush=True)
    os._exit(0)  # the crash: between claiming evt_claimed's message and sending it

asyncio.run(main())
"""


async def test_a_crashed_run_resumes_and_resends_only_what_was_not_sent(db_path: Path) -> None:
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-c", CRASHING_RUN, str(db_path), stdout=asyncio.subprocess.PIPE
    )
    output, _ = await child.communicate()
    assert (child.returncode, output) == (0, b"stored\n")

    async with Store.open(db_path) as restarted:
        session = await restarted.sessions.get(ChatRef("telegram", 10))
        assert session is not None and session.data == '{"step": "dropoff"}'
        link = await restarted.deliveries.get("d1")
        assert link is not None and (link.status, link.status_created) == ("matched", 200)
        # The unprocessed event comes back; the processed one does not.
        assert [e.event_id for e in await restarted.inbox.next_batch()] == ["evt_claimed"]
        # The message that was claimed but never marked is sent now; the sent one never again.
        assert await restarted.sent.claim(CLAIMED)
        assert not await restarted.sent.claim(SENT)
        assert await restarted.sent.message_id(SENT) == 55


async def test_a_clean_restart_keeps_every_repository(
    db_path: Path, clock: Clock, advance: Callable[[float], None]
) -> None:
    async with Store.open(db_path, clock=clock) as first:
        await first.sessions.save(ChatRef("telegram", 10), 10, '{"step": "photos"}')
        await first.deliveries.add("d1", ChatRef("telegram", 10), 10, 100.0, "+2348099999999", None)
        await first.deliveries.update_view("d1", "in_transit", 300)
        await first.inbox.add("evt_1", "d1", "delivery.updated", 300, b"{}")
        await first.inbox.add("evt_2", "d1", "delivery.updated", 301, b"{}")
        await first.inbox.mark_processed("evt_1")
        await first.sent.mark_sent(SENT, 1)
        handoff = await first.otp.put("d1", "4821", "+2348099999999", 400)
        photo = await first.media.put(
            b"\xff\xd8",
            content_type="image/jpeg",
            chat=ChatRef("telegram", 10),
            expires_at=clock() + 60,
        )
        await first.updates.seen(5000)
        await first.contacts.record(UserRef("telegram", 10), "+2348012345678", contact_user_id=10)
        await first.blocked.mark(ChatRef("telegram", 11))

    advance(30)
    async with Store.open(db_path, clock=clock) as second:
        assert [s.chat.id for s in await second.sessions.list_open()] == [10]
        assert not await second.deliveries.update_view("d1", "picked_up", 250)
        assert [e.event_id for e in await second.inbox.next_batch()] == ["evt_2"]
        assert not await second.inbox.add("evt_1", "d1", "delivery.updated", 300, b"{}")
        assert await second.inbox.counts() == InboxCounts(pending=1, processed=1)
        assert await second.sent.was_sent(SENT)
        assert await second.otp.get_by_token(handoff.token) == handoff
        assert await second.media.get(photo.token) == photo
        assert await second.updates.seen(5000)
        assert await second.contacts.phone_for(UserRef("telegram", 10)) == "+2348012345678"
        assert await second.blocked.is_blocked(ChatRef("telegram", 11))
