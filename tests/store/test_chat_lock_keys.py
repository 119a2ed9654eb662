"""``chat_lock_key``: one PostgreSQL advisory lock key per chat, channel and id together."""

from __future__ import annotations

import pytest

from bot.chat_ref import AGENTS, CONSOLE, LOG, TELEGRAM, ChatRef
from bot.store.advisory_locks import CHAT_ID_BOUND, chat_lock_key

EDGES = (-CHAT_ID_BOUND + 1, -1, 0, 1, CHAT_ID_BOUND - 1)


def test_equal_ids_of_different_channels_have_different_keys() -> None:
    chats = [ChatRef(channel, id) for channel in (TELEGRAM, CONSOLE, AGENTS, LOG) for id in EDGES]
    keys = [chat_lock_key(chat) for chat in chats]
    assert len(set(keys)) == len(chats)
    assert all(-(2**63) <= key < 2**63 for key in keys)  # PostgreSQL's bigint


def test_a_telegram_chat_keeps_the_key_it_had_before_channels_were_named() -> None:
    assert chat_lock_key(ChatRef(TELEGRAM, -1001234567890)) == -1001234567890


@pytest.mark.parametrize(
    "chat", [ChatRef("whatsapp", 1), ChatRef(TELEGRAM, CHAT_ID_BOUND), ChatRef(AGENTS, -(2**60))]
)
def test_a_chat_without_a_key_of_its_own_is_refused(chat: ChatRef) -> None:
    with pytest.raises(ValueError, match="chat lock"):
        chat_lock_key(chat)
