"""``CustomerMemory`` through ``ChatService``: after a created delivery the customer's name,
phone and places are kept in ``store.customers`` under their user id, and their next order
offers them; another user is offered nothing of theirs, and details that can no longer be read
are not offered."""

from __future__ import annotations

from bot.chat_ref import CONSOLE, TELEGRAM, ChatRef, UserRef
from bot.config.limits_section import LimitsConfig
from bot.console.console_kind import CONSOLE_KIND
from bot.ordering import ChatService
from bot.telegram.telegram_kind import TELEGRAM_KIND
from conversations import ChoiceAnswer, Turn
from conversations.returning import Remembered

from .conftest import CONFIRM_ANSWER, TO_SUMMARY, Org

CHAT, USER, OTHER = ChatRef(TELEGRAM, 42), UserRef(TELEGRAM, 7), UserRef(TELEGRAM, 8)
OTHER_CHAT = ChatRef(TELEGRAM, 43)


async def ordered(chats: ChatService) -> Turn:
    turn = await chats.start(CHAT, USER)
    for answer in [*TO_SUMMARY, CONFIRM_ANSWER]:
        turn = await chats.handle(CHAT, USER, answer)
    assert turn.status == "created"
    return turn


async def place_prompt(chats: ChatService, chat: ChatRef, user: UserRef) -> Turn:
    await chats.start(chat, user)
    return await chats.handle(chat, user, ChoiceAnswer(option="pickup_delivery"))


async def test_a_created_delivery_leaves_the_customer_remembered(org: Org) -> None:
    assert org.store is not None
    chats = ChatService(org.engine(), org.store, clock=org.clock)
    assert await chats.memory.recall(USER) is None
    await ordered(chats)
    kept = await org.store.customers.get(USER)
    assert kept is not None
    known = Remembered.model_validate_json(kept)
    assert (known.name, known.phone) == ("Ada Obi", "+2348031234567")
    assert set(known.places) == {"pickup", "dropoff"}
    assert await org.store.customers.get(OTHER) is None


async def test_only_the_same_user_is_offered_them(org: Org) -> None:
    assert org.store is not None
    chats = ChatService(org.engine(), org.store, clock=org.clock)
    await ordered(chats)
    mine = await place_prompt(chats, CHAT, USER)
    assert mine.prompt is not None and mine.prompt.default == "last:pickup"
    session = await chats.session(CHAT)
    assert session is not None and session.remembered is not None
    theirs = await place_prompt(chats, OTHER_CHAT, OTHER)
    assert theirs.prompt is not None and theirs.prompt.default is None
    assert not [o for o in theirs.prompt.options if o.id.startswith("last:")]
    other_session = await chats.session(OTHER_CHAT)
    assert other_session is not None and other_session.remembered is None


async def test_details_that_cannot_be_read_are_not_offered(org: Org) -> None:
    store = org.store
    assert store is not None
    chats = ChatService(org.engine(), store, clock=org.clock)
    await store.customers.put(USER, '{"name": ["not", "a", "name"]}')
    turn = await place_prompt(chats, CHAT, USER)
    assert turn.prompt is not None and turn.prompt.default is None
    # The next created delivery replaces what could not be read.
    await chats.start(CHAT, USER)
    await ordered(chats)
    assert await chats.memory.recall(USER) is not None


async def test_only_a_channel_that_proves_phones_asks_for_a_proven_one(org: Org) -> None:
    assert org.store is not None
    verify = LimitsConfig(verify_sender_phone=True)
    kinds = {kind.name: kind.capabilities for kind in (TELEGRAM_KIND, CONSOLE_KIND)}
    chats = ChatService(
        org.engine(),
        org.store,
        clock=org.clock,
        limits=verify,
        channel_capabilities=kinds.__getitem__,
    )
    console_chat, console_user = ChatRef(CONSOLE, 42), UserRef(CONSOLE, 7)
    await chats.start(console_chat, console_user)
    await chats.start(CHAT, USER)
    console, telegram = await chats.session(console_chat), await chats.session(CHAT)
    assert console is not None and console.sender_phone_owner is None  # typed phones kept
    assert telegram is not None and telegram.sender_phone_owner == USER.id
    unverified = ChatService(org.engine(), org.store, clock=org.clock, limits=LimitsConfig())
    await unverified.start(OTHER_CHAT, OTHER)
    other = await unverified.session(OTHER_CHAT)
    assert other is not None and other.sender_phone_owner is None
