"""``Channels``: each chat's message, later turn and pacing go to the channel named in its ref."""

from __future__ import annotations

import pytest

from bot.agents.agents_wiring import AGENTS_KIND
from bot.channels import NO_HANDOFF, ChannelRegistration, Channels
from bot.chat_ref import AGENTS, CONSOLE, TELEGRAM, WHATSAPP, ChatRef
from bot.console.console_kind import CONSOLE_KIND
from bot.relay.channel_protocol import ChatUnreachable
from bot.telegram.telegram_kind import TELEGRAM_KIND
from bot.whatsapp.whatsapp_kind import WHATSAPP_KIND
from conversations import Turn


class Recording:
    def __init__(self, link: str = "") -> None:
        self.sent: list[tuple[ChatRef, str]] = []
        self.link = link

    async def send(self, chat: ChatRef, text: str) -> int:
        self.sent.append((chat, text))
        return len(self.sent)

    def otp_link(self, token: str) -> str:
        return self.link + token if self.link else NO_HANDOFF


class Turns:
    def __init__(self) -> None:
        self.taken: list[ChatRef] = []

    async def reserve(self, chat: ChatRef) -> float:
        self.taken.append(chat)
        return 2.0

    def release(self, chat: ChatRef) -> None:
        self.taken.remove(chat)


CUSTOMER, AGENT = ChatRef(TELEGRAM, 5), ChatRef(AGENTS, 5)


async def test_a_chat_reaches_the_channel_registered_under_its_name() -> None:
    messenger, agents = Recording("https://t.me/bot?start="), Recording()
    channels = Channels()
    channels.add(ChannelRegistration(TELEGRAM_KIND, messenger))
    channels.add(ChannelRegistration(AGENTS_KIND, agents, messenger=False))

    await channels.send(CUSTOMER, "to a customer")
    await channels.send(AGENT, "to an agent")

    assert messenger.sent == [(CUSTOMER, "to a customer")]
    assert agents.sent == [(AGENT, "to an agent")]
    assert channels.otp_link("abc") == "https://t.me/bot?start=abc"


async def test_without_a_messenger_other_chats_are_unreachable_and_no_link_is_given() -> None:
    channels = Channels()
    channels.add(ChannelRegistration(AGENTS_KIND, Recording(), messenger=False))

    with pytest.raises(ChatUnreachable):
        await channels.send(CUSTOMER, "nobody reaches this chat")
    with pytest.raises(ChatUnreachable):
        await channels.send(ChatRef("whatsapp", 5), "no such channel here")
    assert channels.otp_link("abc") == NO_HANDOFF


async def test_a_telegram_chat_is_unreachable_without_telegram_whoever_the_messenger_is() -> None:
    console = Recording()
    channels = Channels()
    channels.add(ChannelRegistration(CONSOLE_KIND, console))

    with pytest.raises(ChatUnreachable, match="no telegram channel"):
        await channels.send(CUSTOMER, "to a customer of the bot's Telegram days")
    await channels.send(ChatRef(CONSOLE, 7), "to a console chat")

    assert console.sent == [(ChatRef(CONSOLE, 7), "to a console chat")]


def test_a_name_and_the_messenger_are_registered_once() -> None:
    channels = Channels()
    channels.add(ChannelRegistration(TELEGRAM_KIND, Recording()))
    with pytest.raises(ValueError, match="registered already"):
        channels.add(ChannelRegistration(TELEGRAM_KIND, Recording(), messenger=False))
    with pytest.raises(ValueError, match="messenger already"):
        channels.add(ChannelRegistration(CONSOLE_KIND, Recording()))


async def test_a_later_turn_is_shown_by_the_chats_own_channel_only() -> None:
    shown: list[ChatRef] = []

    async def on_telegram(chat: ChatRef, turn: Turn) -> None:
        shown.append(chat)

    channels = Channels()
    channels.add(ChannelRegistration(TELEGRAM_KIND, Recording(), deliver_later=on_telegram))
    channels.add(ChannelRegistration(AGENTS_KIND, Recording(), messenger=False))

    await channels.deliver_later(CUSTOMER, Turn(status="ended"))
    await channels.deliver_later(AGENT, Turn(status="ended"))  # agents show none
    await channels.deliver_later(ChatRef(CONSOLE, 5), Turn(status="ended"))  # no console here

    assert shown == [CUSTOMER]


async def test_a_chats_turn_is_its_own_channels_pacing() -> None:
    paced = Turns()
    channels = Channels()
    channels.add(ChannelRegistration(TELEGRAM_KIND, Recording(), turns=paced))
    channels.add(ChannelRegistration(AGENTS_KIND, Recording(), messenger=False))

    assert await channels.reserve(CUSTOMER) == 2.0
    assert await channels.reserve(AGENT) == 0.0  # an unpaced channel: at once
    assert paced.taken == [CUSTOMER]
    channels.release(CUSTOMER)
    channels.release(AGENT)
    assert paced.taken == []


async def test_a_code_link_opens_in_the_customers_own_channel_when_it_has_one() -> None:
    channels = Channels()
    channels.add(ChannelRegistration(TELEGRAM_KIND, Recording("https://t.me/bot?start=")))
    channels.add(ChannelRegistration(AGENTS_KIND, Recording(), messenger=False))
    channels.add(
        ChannelRegistration(WHATSAPP_KIND, Recording("https://wa.me/2341?text="), messenger=False)
    )

    assert channels.otp_link_for(ChatRef(WHATSAPP, 234), "t") == "https://wa.me/2341?text=t"
    assert channels.otp_link_for(CUSTOMER, "t") == "https://t.me/bot?start=t"
    # A channel that opens no claim (an agent's app): the messenger's link.
    assert channels.otp_link_for(AGENT, "t") == "https://t.me/bot?start=t"
    assert channels.otp_link_for(ChatRef(CONSOLE, 1), "t") == "https://t.me/bot?start=t"
