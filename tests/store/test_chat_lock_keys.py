"""``ChatLockKeys``: one PostgreSQL advisory lock key per chat, channel and id together, each
channel's tag declared by the channel itself; and the fixed locks' namespace the store is given."""

from __future__ import annotations

import pytest

from bot.agents.agents_wiring import AGENTS_KIND
from bot.agents.chatless_channel import LOG_KIND
from bot.channel_kind import ChannelKind
from bot.chat_ref import AGENTS, CONSOLE, LOG, TELEGRAM, ChatRef
from bot.config.storage import DEFAULT_LOCK_NAMESPACE, RATE_BUDGET_LOCK_NAMESPACE
from bot.console.console_kind import CONSOLE_KIND
from bot.store.advisory_locks import (
    CHAT_ID_BOUND,
    DEFAULT_NAMESPACE,
    RATE_BUDGET_NAMESPACE,
    ChatLockKeys,
)
from bot.telegram.telegram_kind import TELEGRAM_KIND

EDGES = (-CHAT_ID_BOUND + 1, -1, 0, 1, CHAT_ID_BOUND - 1)
SHIPPED = (TELEGRAM_KIND, CONSOLE_KIND, AGENTS_KIND, LOG_KIND)


def test_equal_ids_of_different_channels_have_different_keys() -> None:
    keys = ChatLockKeys(SHIPPED)
    chats = [ChatRef(channel, id) for channel in (TELEGRAM, CONSOLE, AGENTS, LOG) for id in EDGES]
    found = [keys.key(chat) for chat in chats]
    assert len(set(found)) == len(chats)
    assert all(-(2**63) <= key < 2**63 for key in found)  # PostgreSQL's bigint


def test_a_telegram_chat_keeps_the_key_it_had_before_channels_were_named() -> None:
    assert ChatLockKeys(SHIPPED).key(ChatRef(TELEGRAM, -1001234567890)) == -1001234567890


def test_the_shipped_channels_keep_the_tags_they_had() -> None:
    keys = ChatLockKeys(SHIPPED)
    tags = {name: keys.tag(name) for name in (TELEGRAM, CONSOLE, AGENTS, LOG)}
    assert tags == {TELEGRAM: 0, CONSOLE: 1, AGENTS: 2, LOG: 3}


@pytest.mark.parametrize(
    "chat", [ChatRef("whatsapp", 1), ChatRef(TELEGRAM, CHAT_ID_BOUND), ChatRef(AGENTS, -(2**60))]
)
def test_a_chat_without_a_key_of_its_own_is_refused(chat: ChatRef) -> None:
    with pytest.raises(ValueError, match="chat lock"):
        ChatLockKeys(SHIPPED).key(chat)


def test_a_new_channel_declares_its_tag_and_its_chats_get_keys_of_their_own() -> None:
    keys = ChatLockKeys(SHIPPED)
    keys.declare(ChannelKind("whatsapp", lock_tag=4))
    keys.declare(ChannelKind("whatsapp", lock_tag=4))  # declared again, the same: no harm
    assert keys.key(ChatRef("whatsapp", 1)) == 4 * 2**53 + 1


@pytest.mark.parametrize(
    ("kind", "problem"),
    [
        (ChannelKind("whatsapp", lock_tag=0), "chat lock tag 0 is taken by 'telegram'"),
        (ChannelKind(TELEGRAM, lock_tag=5), "'telegram' has chat lock tag 0 already"),
    ],
)
def test_a_tag_is_one_channel_s_and_a_channel_keeps_its_tag(
    kind: ChannelKind, problem: str
) -> None:
    keys = ChatLockKeys(SHIPPED)
    with pytest.raises(ValueError, match=problem):
        keys.declare(kind)


@pytest.mark.parametrize(("name", "tag"), [("WhatsApp", 4), ("", 4), ("whatsapp", 1024)])
def test_a_kind_needs_a_plain_name_and_a_tag_that_fits_the_key(name: str, tag: int) -> None:
    with pytest.raises(ValueError, match="channel"):
        ChannelKind(name, lock_tag=tag)


def test_the_config_s_default_namespace_is_the_store_s() -> None:
    # Written out in bot.config.storage, which is checked without loading the store.
    assert (DEFAULT_LOCK_NAMESPACE, RATE_BUDGET_LOCK_NAMESPACE) == (
        DEFAULT_NAMESPACE,
        RATE_BUDGET_NAMESPACE,
    )


def test_a_business_s_own_namespace_gives_its_chats_keys_of_their_own() -> None:
    default = ChatLockKeys(SHIPPED, namespace=DEFAULT_NAMESPACE)
    acme, zeta = ChatLockKeys(SHIPPED, namespace=11), ChatLockKeys(SHIPPED, namespace=12)
    chats = [ChatRef(channel, id) for channel in (TELEGRAM, CONSOLE, AGENTS, LOG) for id in EDGES]
    for chat in chats:
        # The default namespace keeps the keys running instances take during an upgrade.
        assert default.key(chat) == ChatLockKeys(SHIPPED).key(chat)
    found = [keys.key(chat) for keys in (default, acme, zeta) for chat in chats]
    assert len(set(found)) == len(found)
    assert all(-(2**63) <= key < 2**63 for key in found)
    assert [acme.key(chat) for chat in chats] == [
        ChatLockKeys(SHIPPED, namespace=11).key(chat) for chat in chats
    ]  # the same on every instance of the business
