"""Writes a store with the code from before chats were named by their channel (schema 9).

Run by ``test_upgrade_to_channels`` in a fresh process whose ``PYTHONPATH`` is that revision's
tree, so ``bot.store`` here is the old one with its old signatures (bare ids, agent ids at or
below ``AGENT_ID_BASE``). ``argv``: ``sqlite <path>`` or ``postgres <dsn> <media dir>``. The
last line of output is JSON: what the new code must find again.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time

from bot.store import AGENT_ID_BASE, SendKey, Store

TELEGRAM_CHAT = 5_123_456_789  # past 2**31, as Telegram's ids are
RECEIVER = "+2348012345678"


async def write(store: Store) -> dict[str, object]:
    conversation = await store.agents.open("acme", "customer-1", None)
    agent_chat, agent_user = conversation.chat_id, conversation.user_id
    await store.sessions.save(TELEGRAM_CHAT, TELEGRAM_CHAT, '{"who": "telegram"}')
    await store.sessions.save(agent_chat, agent_user, '{"who": "agent"}')
    await store.agents.add_entry(conversation, '{"n": 1}')
    await store.agents.add_entry(conversation, '{"n": 2}')
    await store.deliveries.add(
        "dlv_tg", TELEGRAM_CHAT, TELEGRAM_CHAT, 100.0, RECEIVER, "https://t/1", saved_order="{}"
    )
    await store.deliveries.add("dlv_agent", agent_chat, agent_user, 101.0, None, None)
    await store.inbox.add("evt_done", "dlv_tg", "delivery.updated", 200, b'{"a": 1}')
    await store.inbox.mark_processed("evt_done")
    await store.inbox.add("evt_waiting", "dlv_agent", "delivery.updated", 201, b'{"b": 2}')
    for chat, kind, message_id in ((TELEGRAM_CHAT, "status", 55), (agent_chat, "agent", None)):
        key = SendKey("evt_done", chat, kind)
        await store.sent.claim(key)
        await store.sent.mark_sent(key, message_id)
    await store.sent.claim(SendKey("evt_waiting", agent_chat, "agent"))  # claimed, not sent
    await store.agent_events.add(agent_chat, "evt_done", '{"event": 1}')
    await store.agent_events.add(agent_chat, "evt_later", '{"event": 2}')
    await store.contacts.record(TELEGRAM_CHAT, RECEIVER, contact_user_id=TELEGRAM_CHAT)
    await store.customers.put(TELEGRAM_CHAT, '{"name": "Ada"}')
    await store.customers.put(agent_user, '{"name": "Agent customer"}')
    await store.blocked.mark(-100_987)  # a group chat
    await store.otp.put("dlv_tg", "4821", RECEIVER, 300)
    await store.otp.mark_delivered("dlv_tg", "4821", TELEGRAM_CHAT)
    await store.otp_invitations.open(TELEGRAM_CHAT, "token-1", ttl=86_400)
    await store.unconfirmed.add(
        "key-1",
        agent_chat,
        agent_user,
        request="{}",
        saved_order="{}",
        fingerprint="f",
        created_at=1.0,
        next_attempt_at=2.0,
    )
    photo = await store.media.put(
        b"\xff\xd8", content_type="image/jpeg", chat_id=agent_chat, expires_at=time.time() + 86_400
    )
    return {
        "schema_version": store.schema_version,
        "telegram_chat": TELEGRAM_CHAT,
        "conversation": conversation.id,
        "conversation_seq": AGENT_ID_BASE - agent_chat,
        "customer_seq": AGENT_ID_BASE - agent_user,
        "photo": photo.token,
    }


async def main() -> None:
    if sys.argv[1] == "sqlite":
        store = await Store.connect(sys.argv[2])
    else:
        store = await Store.connect_postgres(sys.argv[2], media_dir=sys.argv[3])
    try:
        written = await write(store)
    finally:
        await store.close()
    print(json.dumps(written))


if __name__ == "__main__":
    asyncio.run(main())
