"""A chat's session as saved after its last turn; one that no longer reads is dropped."""

from __future__ import annotations

import logging

import pydantic

from bot.chat_ref import ChatRef
from bot.store import Store
from conversations import Session

logger = logging.getLogger(__name__)


async def load_session(store: Store, chat: ChatRef) -> Session | None:
    """``chat``'s open session, or None: none is open, or the saved one no longer reads (it
    is then dropped, with a warning in the log)."""
    record = await store.sessions.get(chat)
    if record is None:
        return None
    try:
        return Session.model_validate_json(record.data)
    except pydantic.ValidationError:
        logger.warning("chat %s had an unreadable session; it was dropped", chat.for_log)
        await store.sessions.delete(chat)
        return None
