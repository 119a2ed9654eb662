"""``Channels``: each chat's message, later turn and pacing go to the channel that owns it."""

from __future__ import annotations

import pytest

from bot.channels import NO_HANDOFF, ChannelRegistration, Channels
from bot.relay.channel_protocol import ChatUnreachable, chat_turns
from conversations import Turn


class Recording:
    def __init__(self, link: str = "") -> None:
        self.sent: list[tuple[int, str]] = []
        self.link = link

    async def send(self, chat_id: int, text: str) -> int:
        self.sent.append((chat_id, text))
        return len(self.sent)

    def otp_link(self, token: str) -> str:
        return self.link + token


class Turns:
    def __init__(self) -> None:
        self.taken: list[int] = []

    async def reserve(self, chat_id: int) -> float:
        self.taken.append(chat_id)
        return 2.0

    def release(self, chat_id: int) -> None:
        self.taken.remove(chat_id)


def negative(chat_id: int) -> bool:
    return chat_id < 0


async def test_a_chat_reaches_the_channel_owning_it_and_any_other_the_messenger() -> None:
    messenger, agents = Recording("https://t.me/bot?start="), Recording()
    channels = Channels()
    channels.add(ChannelRegistration("telegram", messenger))
    channels.add(ChannelRegistration("agents", agents, owns=negative))

    await channels.send(5, "to a customer")
    await channels.send(-5, "to an agent")

    assert messenger.sent == [(5, "to a customer")]
    assert agents.sent == [(-5, "to an agent")]
    assert channels.otp_link("abc") == "https://t.me/bot?start=abc"


async def test_without_a_messenger_other_chats_are_unreachable_and_no_link_is_given() -> None:
    channels = Channels()
    channels.add(ChannelRegistration("agents", Recording(), owns=negative))

    with pytest.raises(ChatUnreachable):
        await channels.send(5, "nobody reaches this chat")
    assert channels.otp_link("abc") == NO_HANDOFF


def test_a_name_and_the_messenger_are_registered_once() -> None:
    channels = Channels()
    channels.add(ChannelRegistration("telegram", Recording()))
    with pytest.raises(ValueError, match="registered already"):
        channels.add(ChannelRegistration("telegram", Recording(), owns=negative))
    with pytest.raises(ValueError, match="messenger already"):
        channels.add(ChannelRegistration("console", Recording()))


async def test_a_later_turn_is_shown_by_the_chats_own_channel_only() -> None:
    shown: list[tuple[str, int]] = []

    async def on_telegram(chat_id: int, turn: Turn) -> None:
        shown.append(("telegram", chat_id))

    channels = Channels()
    channels.add(ChannelRegistration("telegram", Recording(), deliver_later=on_telegram))
    channels.add(ChannelRegistration("agents", Recording(), owns=negative))

    await channels.deliver_later(5, Turn(status="ended"))
    await channels.deliver_later(-5, Turn(status="ended"))  # agents show no later turn

    assert shown == [("telegram", 5)]


async def test_a_chats_turn_is_its_own_channels_pacing() -> None:
    paced = Turns()
    channels = Channels()
    channels.add(ChannelRegistration("telegram", Recording(), turns=paced))
    channels.add(ChannelRegistration("agents", Recording(), owns=negative))
    turns = chat_turns(channels)  # what the relay finds on the channel it is given
    assert turns is not None

    assert await turns.reserve(5) == 2.0
    assert await turns.reserve(-5) == 0.0  # an unpaced channel: at once
    assert paced.taken == [5]
    turns.release(5)
    turns.release(-5)
    assert paced.taken == []
