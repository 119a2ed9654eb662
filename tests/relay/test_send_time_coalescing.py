"""A chat's message is composed after its wait for its turn (its own window and the overall
one), so the news that reached it meanwhile rides along; and a backlog longer than one message
reaches operators as a digest, never holding their events back. Real ``ChatQueues``, ``Sender``
and ``RateLimiter`` over a real store, in time the tests move by hand."""

from __future__ import annotations

import asyncio

from bot.chat_ref import TELEGRAM, ChatRef
from bot.config import RelayConfig
from bot.partner.models import WebhookEvent
from bot.relay import RelayTuning
from bot.relay.chat_queues import ChatQueues
from bot.relay.outbox import COALESCED_SEPARATOR, Outcome, Outgoing, Sender
from bot.relay.planner import (
    CUSTOMER_UPDATE,
    OPERATOR_UPDATE,
    OTP_LINK,
    OTP_SETTING,
    OTP_WAITING,
    Planner,
)
from bot.store import SendKey, SentReceipt, Store
from bot.telegram.limits import RateLimiter, SendLimits, Window
from bot.telegram.relay_channel import TelegramTurns
from conversations.texts import deliveries_texts as wording
from conversations.texts.business_texts import BusinessTexts
from conversations.texts.catalogue import DEFAULT_TEXTS
from tests.support.clock import WaitingClock
from tests.support.words import SHIPPED

from .support import (
    DELIVERY,
    OPERATOR,
    START,
    MakeRelay,
    RecordingChannel,
    event,
    link,
    otp,
    put,
)

CHAT_A, CHAT_B, CHAT_C, CHAT_D = 2001, 2002, 2003, 2004
GROUP = -100_777  # an operator group: 20 messages a minute
OPERATOR_CHAT = ChatRef(TELEGRAM, OPERATOR)


class LimitedChannel(RecordingChannel):
    """A channel paced as ``TelegramSender`` is: every send waits in its ``limiter``."""

    def __init__(self, time: WaitingClock, limits: SendLimits) -> None:
        super().__init__()
        self.limiter = RateLimiter(limits, clock=time.clock, sleep=time.sleep)
        self.sent_at: list[float] = []
        self._time = time

    async def send(self, chat: ChatRef, text: str) -> int | None:
        chat_id = chat.id
        await self.limiter.acquire(chat_id)
        self.sent_at.append(self._time.now)
        return await super().send(chat, text)


def news(event_id: str, chat_id: int, text: str, kind: str = CUSTOMER_UPDATE) -> Outgoing:
    abridged = "3F2A9C1E" if kind == OPERATOR_UPDATE else None
    return Outgoing(SendKey(event_id, ChatRef("telegram", chat_id), kind), text, abridged)


def queues_for(store: Store, channel: LimitedChannel, coalesce_chars: int = 4000) -> ChatQueues:
    return ChatQueues(
        Sender(store, channel),
        channel,
        sleep=asyncio.sleep,
        coalesce_chars=coalesce_chars,
        turns=TelegramTurns(channel.limiter),
    )


async def test_news_arriving_while_a_chat_waits_for_the_overall_window_goes_in_its_message(
    store: Store,
) -> None:
    time = WaitingClock(1000.0)
    channel = LimitedChannel(time, SendLimits(overall=Window(1, 1.0), margin=0.0))
    queues = queues_for(store, channel)
    await queues.submit(news("e_b", CHAT_B, "B's news."))  # takes the second's only slot
    # A, C and D become ready together: their turns are booked in that order, a second apart.
    first = [
        queues.submit(news(f"e_{c}", chat, f"{c.upper()}'s news."))
        for c, chat in (("a", CHAT_A), ("c", CHAT_C), ("d", CHAT_D))
    ]
    await time.sleepers(3)
    time.advance(1.0)
    await first[0]
    later = queues.submit(news("e_d2", CHAT_D, "D's later news."))  # D still waits its turn
    time.advance(1.0)
    await first[1]
    time.advance(1.0)
    d1, d2 = await first[2], await later

    assert channel.texts(CHAT_D) == [f"D's news.{COALESCED_SEPARATOR}D's later news."]
    assert isinstance(d1, SentReceipt) and isinstance(d2, SentReceipt)
    assert d1.message_id == d2.message_id  # one message, each piece its own marker
    assert channel.sent_at == [1000.0, 1001.0, 1002.0, 1003.0]  # one a second, in turn
    await queues.close()


async def test_a_chat_that_keeps_up_gets_its_burst_one_by_one_then_the_rest_together(
    store: Store,
) -> None:
    time = WaitingClock(1000.0)
    channel = LimitedChannel(time, SendLimits(margin=0.0))  # Telegram's: 3 in 3 s per chat
    queues = queues_for(store, channel)
    outcomes = [queues.submit(news(f"e_{n}", CHAT_A, f"News {n}.")) for n in range(5)]
    await time.sleepers(1)  # the fourth piece waits for the chat's window
    time.advance(3.0)
    await asyncio.gather(*outcomes)

    assert channel.texts(CHAT_A) == [
        "News 0.",
        "News 1.",
        "News 2.",
        f"News 3.{COALESCED_SEPARATOR}News 4.",
    ]
    await queues.close()


async def test_a_turn_no_message_used_is_given_back(store: Store) -> None:
    time = WaitingClock(1000.0)
    channel = LimitedChannel(time, SendLimits(overall=Window(1, 1.0), margin=0.0))
    queues = queues_for(store, channel)
    sent_before = news("e_old", CHAT_A, "Said already.")
    await Sender(store, channel).deliver(sent_before)  # a restart: the marker is there
    time.advance(1.0)

    outcome: Outcome = await queues.submit(sent_before)
    assert outcome is None  # nothing to send: the turn it took is given back
    await queues.submit(news("e_b", CHAT_B, "B's news."))  # goes at once
    assert channel.sent_at == [1000.0, 1001.0]
    await queues.close()


async def test_an_operator_backlog_too_long_for_one_message_goes_as_a_digest(
    store: Store,
) -> None:
    time = WaitingClock(1000.0)
    limits = SendLimits(group_chat=Window(1, 60.0), margin=0.0)
    channel = LimitedChannel(time, limits)
    queues = queues_for(store, channel, coalesce_chars=DIGEST_CHARS)
    summaries = [f"Delivery 3F2A9C1E: update number {n}, with its details." for n in range(12)]
    outcomes = [
        queues.submit(news(f"e_{n}", GROUP, text, OPERATOR_UPDATE))
        for n, text in enumerate(summaries)
    ]
    code_notice = queues.submit(news("e_otp", GROUP, "A code is waiting.", OTP_WAITING))
    await time.sleepers(1)  # the group had its message this minute
    time.advance(60.0)
    await asyncio.gather(*outcomes)
    await time.sleepers(1)  # the code's notice was not abridged: it waits for the next turn
    time.advance(60.0)
    await code_notice

    first, digest, notice = channel.texts(GROUP)
    assert first == summaries[0]
    pieces = digest.split(COALESCED_SEPARATOR)
    in_full = len(pieces) - 1
    assert 0 < in_full < len(summaries) - 1
    assert pieces[:-1] == summaries[1 : 1 + in_full]
    assert pieces[-1] == wording.operator_digest_more(
        SHIPPED, len(summaries) - 1 - in_full, ["3F2A9C1E"]
    )
    assert "3F2A9C1E" in pieces[-1]
    assert notice == "A code is waiting."
    for n in range(len(summaries)):  # told, in full or counted: each marked sent
        assert await store.sent.was_sent(
            SendKey(f"e_{n}", ChatRef("telegram", GROUP), OPERATOR_UPDATE)
        )
    await queues.close()


DIGEST_CHARS = 600  # room for a few summaries and the closing line
SUMMARY = "Delivery update {}: the rider moved a little closer."


async def test_a_customer_backlog_is_never_abridged(store: Store) -> None:
    time = WaitingClock(1000.0)
    channel = LimitedChannel(time, SendLimits(private_chat=Window(1, 3.0), margin=0.0))
    queues = queues_for(store, channel, coalesce_chars=60)
    texts = [f"Your parcel moved to stop {n}, nearly there." for n in range(4)]
    outcomes = [queues.submit(news(f"e_{n}", CHAT_A, text)) for n, text in enumerate(texts)]
    for _ in range(3):
        await time.sleepers(1)
        time.advance(3.0)
    await asyncio.gather(*outcomes)

    assert channel.texts(CHAT_A) == texts  # each in full, one per turn: none fits two
    await queues.close()


async def test_operator_news_may_be_abridged_and_customer_news_and_code_notices_may_not(
    store: Store, channel: RecordingChannel
) -> None:
    await link(store, "matched")
    texts = BusinessTexts(DEFAULT_TEXTS)
    planner = Planner(
        store, channel, operators=(OPERATOR_CHAT,), settings=RelayConfig(), texts=texts
    )
    body = event("evt_1", "picked_up", created=START + 1, summary="Picked up.", otp=otp())
    plan = await planner.plan(
        WebhookEvent.model_validate(body), await store.deliveries.get(DELIVERY)
    )

    abridged = {message.key.kind: message.abridged_as for message in plan.messages}
    assert abridged == {
        CUSTOMER_UPDATE: None,
        OPERATOR_UPDATE: wording.short_ref(DELIVERY),
        OTP_LINK: None,
        OTP_WAITING: None,
        OTP_SETTING: None,  # [relay] otp_via_webhook is off here: operators are told, in full
    }


async def test_relay_finishes_an_operator_backlog_in_one_digest(
    store: Store, make_relay: MakeRelay
) -> None:
    class BehindForOperators(RecordingChannel):
        def send_delay(self, chat: ChatRef) -> float:
            chat_id = chat.id
            return 60.0 if chat_id == OPERATOR else 0.0

    channel = BehindForOperators()
    await link(store, "matched")
    for n in range(40):
        await put(store, event(f"evt_{n}", "matched", created=START + n, summary=SUMMARY.format(n)))
    tuning = RelayTuning(coalesce_chars=DIGEST_CHARS)
    relay = make_relay(store, channel=channel, operators=(OPERATOR_CHAT,), tuning=tuning)

    assert await relay.process_pending() == 40  # every event finished
    (digest,) = channel.texts(OPERATOR)
    assert digest.startswith(SUMMARY.format(0) + COALESCED_SEPARATOR + SUMMARY.format(1))
    assert wording.short_ref(DELIVERY) in digest.split(COALESCED_SEPARATOR)[-1]
    assert (await store.inbox.counts()).pending == 0
