"""``HandoffSettings``: the ``[operators]`` keys that shape a hand-off."""

from __future__ import annotations

from dataclasses import dataclass

from bot.config.telegram import OperatorsConfig


@dataclass(frozen=True)
class HandoffSettings:
    """Where staff see hand-offs (``staff_chat``: the first of ``[operators] chat_ids``,
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
            staff_chat=operators.chat_ids[0] if telegram and operators.chat_ids else None,
            hours=operators.handoff_hours.strip(),
            reply_minutes=operators.handoff_reply_minutes,
            sign_replies=operators.sign_replies,
            idle_hours=operators.handoff_idle_hours,
            messages_per_minute=operators.handoff_messages_per_minute,
        )
