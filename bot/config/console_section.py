"""``[console]``: the staff's web console, its one-time sign-in links and sessions (``bot.staff``).

Staff sign in without a shared password: an operator sends ``/console`` in an operator chat and
is sent a link that works once, for ``link_minutes``; ``deliverybot staff invite`` prints such a
link for someone without Telegram. A session ends after ``idle_minutes`` without a request, or
``session_hours`` after it began, whichever comes first.

Roles come from here: the Telegram accounts listed in ``admins`` are admins, those in
``dispatchers`` dispatchers, and any other operator is a viewer. They are written as
``[operators] chat_ids`` entries are (``telegram:1900``, or a Telegram id alone): an operator's
own account, the id Telegram gives the person, not a group's.
"""

from __future__ import annotations

from typing import Final

from pydantic import Field, field_validator, model_validator

from bot.chat_ref import WRITTEN_CHAT_HELP, UserRef, parse_chat_ref
from bot.config.config_errors import KeyProblems
from bot.config.section import Section
from bot.staff_roles import StaffRole

CONSOLE_PATH: Final = "/console"
"""Where the console is served on ``[server] public_base_url``."""


class ConsoleConfig(Section):
    """``[console]``: whether the console is served, how long its links and sessions live, and
    who is an admin or a dispatcher (see the module docstring)."""

    enabled: bool = False
    link_minutes: int = Field(10, ge=1, le=60)
    idle_minutes: int = Field(30, ge=1, le=24 * 60)
    session_hours: int = Field(12, ge=1, le=30 * 24)
    admins: list[int | str] = Field(default_factory=list)
    dispatchers: list[int | str] = Field(default_factory=list)

    @field_validator("admins", "dispatchers", mode="before")
    @classmethod
    def _staff_refs(cls, value: object) -> object:
        if not isinstance(value, list):
            return value  # pydantic says it must be a list
        problems: list[tuple[tuple[str | int, ...], str]] = []
        seen: list[UserRef] = []
        for i, written in enumerate(value):
            if isinstance(written, bool) or not isinstance(written, int | str):
                problems.append(((i,), f"{written!r} is not an account: {WRITTEN_CHAT_HELP}"))
                continue
            try:
                chat = parse_chat_ref(written)
            except ValueError as exc:
                problems.append(((i,), str(exc)))
                continue
            if chat.id <= 0:
                problems.append(((i,), f"{chat.id} is a group's id: name the person's account"))
            elif chat.user(chat.id) in seen:
                problems.append(((i,), "listed twice"))
            seen.append(chat.user(chat.id))
        if problems:
            raise KeyProblems(problems)
        return value

    @model_validator(mode="after")
    def _one_role_each(self) -> ConsoleConfig:
        both = set(_accounts(self.admins)) & set(_accounts(self.dispatchers))
        problems: list[tuple[tuple[str | int, ...], str]] = [
            (("dispatchers", i), f"{account} is in admins too: list them once, where they belong")
            for i, account in enumerate(_accounts(self.dispatchers))
            if account in both
        ]
        if problems:
            raise KeyProblems(problems)
        return self

    def role_of(self, account: UserRef) -> StaffRole:
        """The role ``account`` (an operator's own account) has: admin, dispatcher or viewer."""
        if account in _accounts(self.admins):
            return "admin"
        if account in _accounts(self.dispatchers):
            return "dispatcher"
        return "viewer"


def _accounts(written: list[int | str]) -> list[UserRef]:
    """The accounts ``written`` names, each in its channel."""
    refs = [parse_chat_ref(one) for one in written]
    return [chat.user(chat.id) for chat in refs]
