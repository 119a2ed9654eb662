"""Fair sending: one chat's backlog never holds the others, and a chat that is behind gets its
pending news in one message, each piece under its own marker, each event finished only once
the message carrying it went out."""

from __future__ import annotations

import asyncio

from bot.chat_ref import ChatRef
from bot.relay import RelayTuning
from bot.relay.outbox import COALESCED_SEPARATOR
from bot.relay.planner import CUSTOMER_UPDATE
from bot.store import SendKey, Store

from .support import (
    CUSTOMER_CHAT,
    DELIVERY,
    OTHER_CHAT,
    OTHER_DELIVERY,
    OTHER_USER,
    START,
    MakeRelay,
    RecordingChannel,
    event,
    link,
    put,
)

NEWS = ("Your parcel is on the scale.", "It is sealed.", "It is labelled.", "It is on the van.")


class PacedChannel(RecordingChannel):
    """A channel with sending limits: ``behind`` chats would have to wait for their turn."""

    def __init__(self) -> None:
        super().__init__()
        self.behind: set[int] = set()
        self.asked: list[int] = []

    def send_delay(self, chat: ChatRef) -> float:
        chat_id = chat.id
        self.asked.append(chat_id)
        return 1.0 if chat_id in self.behind else 0.0


async def four_pieces_of_news(store: Store) -> None:
    await link(store, "matched")
    for second, hint in enumerate(NEWS):
        await put(store, event(f"evt_{second}", "matched", created=START + second, hint=hint))


async def test_a_chat_that_keeps_up_gets_one_message_per_piece_of_news(
    store: Store, make_relay: MakeRelay
) -> None:
    channel = PacedChannel()
    await four_pieces_of_news(store)

    assert await make_relay(store, channel=channel, operators=()).process_pending() == 4

    messages = channel.texts(CUSTOMER_CHAT)
    assert len(messages) == len(NEWS)
    assert all(news in text for news, text in zip(NEWS, messages, strict=True))
    assert CUSTOMER_CHAT in channel.asked


async def test_a_chat_behind_gets_its_pending_news_in_one_message_each_piece_marked(
    store: Store, make_relay: MakeRelay
) -> None:
    channel = PacedChannel()
    channel.behind.add(CUSTOMER_CHAT)
    await four_pieces_of_news(store)
    relay = make_relay(store, channel=channel, operators=())

    assert await relay.process_pending() == 4

    (message,) = channel.texts(CUSTOMER_CHAT)
    pieces = message.split(COALESCED_SEPARATOR)
    assert len(pieces) == len(NEWS)
    assert all(news in piece for news, piece in zip(NEWS, pieces, strict=True))
    for second in range(len(NEWS)):
        key = SendKey(f"evt_{second}", ChatRef("telegram", CUSTOMER_CHAT), CUSTOMER_UPDATE)
        assert await store.sent.message_id(key) == 1
    assert (await store.inbox.counts()).pending == 0
    assert await relay.process_pending() == 0  # nothing is sent twice
    assert len(channel.sent) == 1


async def test_a_backlog_is_gathered_only_up_to_one_message_length(
    store: Store, make_relay: MakeRelay
) -> None:
    channel = PacedChannel()
    channel.behind.add(CUSTOMER_CHAT)
    await four_pieces_of_news(store)
    tuning = RelayTuning(coalesce_chars=80)  # room for two short pieces of news, not three

    assert await make_relay(store, channel=channel, operators=(), tuning=tuning).process_pending()

    messages = channel.texts(CUSTOMER_CHAT)
    pieces = [piece for text in messages for piece in text.split(COALESCED_SEPARATOR)]
    assert all(news in piece for news, piece in zip(NEWS, pieces, strict=True))
    assert 1 < len(messages) < len(NEWS)
    assert all(len(text) <= 80 for text in messages if COALESCED_SEPARATOR in text)


async def test_a_chat_whose_sends_hang_does_not_hold_the_other_chats(
    store: Store, make_relay: MakeRelay
) -> None:
    gate = asyncio.Event()

    class SlowForOneChat(RecordingChannel):
        async def send(self, chat: ChatRef, text: str) -> int | None:
            chat_id = chat.id
            if chat_id == CUSTOMER_CHAT:
                await gate.wait()
            return await super().send(chat, text)

    channel = SlowForOneChat()
    await four_pieces_of_news(store)
    await link(store, "matched", delivery_id=OTHER_DELIVERY, chat_id=OTHER_CHAT, user_id=OTHER_USER)
    # The other chat's news comes after all of the first chat's in the inbox's order.
    late = event("evt_other", "matched", created=START + 10, delivery_id=OTHER_DELIVERY, hint="Hi.")
    await put(store, late)
    relay = make_relay(store, channel=channel, operators=())

    work = asyncio.create_task(relay.process_pending())
    await channel.wait_for(1)
    assert channel.sent[0][0] == OTHER_CHAT  # while the first chat still waits for Telegram
    link_now = await store.deliveries.get(DELIVERY)
    assert link_now is not None and link_now.status_created is None  # its events not finished
    assert (await store.inbox.counts()).pending == 4

    gate.set()
    assert await work == 5
    assert len(channel.texts(CUSTOMER_CHAT)) == 4
