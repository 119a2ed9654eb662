"""``HandoffSettings``: the ``[operators]`` keys that shape a hand-off."""

from __future__ import annotations

from dataclasses import dataclass

from bot.config.telegram import OperatorsConfig


@dataclass(frozen=True)
class HandoffSettings:
    """Where staff see hand-offs (``staff_chat``: the first Telegram chat of ``[operators]
    chat_ids``,
    None without Telegram or operators), when they answer (told to the customer), whether
    replies are signed, when an idle hand-off is closed, and how many messages a customer may
    send staff per minute."""

    staff_chat: int | None = None
    hours: str = ""
    reply_minutes: int = 15
    sign_replies: bool = False
    idle_hours: float = 24.0
    messages_per_minute: int = 10

    @classmethod
    def from_config(cls, operators: OperatorsConfig, *, telegram: bool) -> HandoffSettings:
        """The settings ``[operators]`` gives (``telegram``: the bot has Telegram)."""
        return cls(
            staff_chat=_first(operators.telegram_chat_ids) if telegram else None,
            hours=operators.handoff_hours.strip(),
            reply_minutes=operators.handoff_reply_minutes,
            sign_replies=operators.sign_replies,
            idle_hours=operators.handoff_idle_hours,
            messages_per_minute=operators.handoff_messages_per_minute,
        )


def _first(chat_ids: tuple[int, ...]) -> int | None:
    return chat_ids[0] if chat_ids else None
