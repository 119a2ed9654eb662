"""``[telegram]`` and ``[operators]``: the bot's Telegram side, and who operates it there."""

from __future__ import annotations

from typing import Literal

from pydantic import (
    Field,
    SecretStr,
    ValidationInfo,
    ValidatorFunctionWrapHandler,
    field_validator,
    model_validator,
)

from bot.chat_ref import TELEGRAM, WRITTEN_CHAT_HELP, ChatRef, parse_chat_ref
from bot.config.config_errors import KeyProblems
from bot.config.secrets import BOT_TOKEN_SHAPE, SECRET_TOKEN_SHAPE, EnvName, resolve_secret
from bot.config.section import Section
from bot.config.server_section import PUBLIC_BASE_URL_RULE
from bot.config.urls import LOOPBACK_HTTP, check_url

DEFAULT_TELEGRAM_API_BASE_URL = "https://api.telegram.org/bot"
_DEFAULT_FILE_BASE_URL = "https://api.telegram.org/file/bot"
# How to give the bot token, in the problem line when it is missing.
BOT_CREDENTIAL_HOW = (
    "set token_env to the name of an environment variable holding it (or token in the file)"
)


class TelegramConfig(Section):
    """``[telegram]``: the bot's token and how updates reach it.

    The token may be left out when the bot takes orders through other channels (``Config``
    checks that at least one channel is there). In webhook mode Telegram posts updates to
    ``[server] public_base_url``.

    ``listen_host``, ``listen_port``, ``drain_seconds`` and ``public_base_url`` are the web
    server's (``[server]``, ``bot.config.server_section``); an older file writes them here,
    which still works: ``Config`` reads them into ``[server]`` and ``check-config`` notes it.
    Read ``Config.server`` for them, never these.
    """

    token_env: EnvName | None = None
    token: SecretStr | None = None
    mode: Literal["polling", "webhook"] = "polling"
    # The four web server keys below are an older file's: read into [server], never dumped
    # from here, so a dumped configuration validates again with each key in one place.
    public_base_url: str | None = Field(None, exclude=True)
    secret_token_env: EnvName | None = None
    secret_token: SecretStr | None = None
    api_base_url: str = DEFAULT_TELEGRAM_API_BASE_URL
    file_base_url: str = Field("", validate_default=True)
    listen_host: str | None = Field(None, min_length=1, exclude=True)
    listen_port: int | None = Field(None, ge=1, le=65535, exclude=True)
    drain_seconds: float | None = Field(None, ge=0, le=30, exclude=True)
    default_phone_region: str = "NG"

    @field_validator("token", mode="wrap")
    @classmethod
    def _token(
        cls, value: object, handler: ValidatorFunctionWrapHandler, info: ValidationInfo
    ) -> SecretStr | None:
        # Required unless agent channels take the orders: ``Config`` decides, knowing both.
        return resolve_secret(value, handler, info, required=False, shape=BOT_TOKEN_SHAPE)

    @field_validator("public_base_url")
    @classmethod
    def _public_base_url(cls, value: str | None) -> str | None:
        # Checked here too, so a bad value is named where it was written.
        return None if value is None else check_url(value, rule=PUBLIC_BASE_URL_RULE)

    @field_validator("secret_token", mode="wrap")
    @classmethod
    def _secret_token(
        cls, value: object, handler: ValidatorFunctionWrapHandler, info: ValidationInfo
    ) -> SecretStr | None:
        webhook_mode = info.data.get("mode") == "webhook"
        return resolve_secret(
            value,
            handler,
            info,
            required=webhook_mode,
            when=' when mode = "webhook"',
            shape=SECRET_TOKEN_SHAPE,
        )

    @field_validator("api_base_url")
    @classmethod
    def _api_base_url(cls, value: str) -> str:
        # The token travels in the URL path, so plain http is allowed on loopback only.
        example = DEFAULT_TELEGRAM_API_BASE_URL
        rule = f"must be https ({LOOPBACK_HTTP}) and end with /bot, e.g. {example}"
        return check_url(value, rule=rule, path_suffix="/bot")

    @field_validator("file_base_url")
    @classmethod
    def _file_base_url(cls, value: str, info: ValidationInfo) -> str:
        if not value:  # derived: https://api.telegram.org/bot -> https://api.telegram.org/file/bot
            api_base_url: str = info.data.get("api_base_url", DEFAULT_TELEGRAM_API_BASE_URL)
            return api_base_url.removesuffix("/bot") + "/file/bot"
        rule = f"must be https ({LOOPBACK_HTTP}) and end with /bot, e.g. {_DEFAULT_FILE_BASE_URL}"
        return check_url(value, rule=rule, path_suffix="/bot")

    @model_validator(mode="after")
    def _webhook_needs_token(self) -> TelegramConfig:
        if self.mode == "webhook" and self.token is None:
            problem = f'required when mode = "webhook": {BOT_CREDENTIAL_HOW}'
            raise KeyProblems([(("token",), problem)])
        return self

    @field_validator("default_phone_region")
    @classmethod
    def _region(cls, value: str) -> str:
        # Imported when the key is given: phonenumbers' tables are not needed to check a file
        # that keeps the default.
        import phonenumbers

        region = value.upper()
        if region not in phonenumbers.SUPPORTED_REGIONS:
            raise ValueError(
                "must be a two-letter ISO 3166 region code known to phonenumbers, "
                'e.g. "NG", "GH", "KE", "GB"'
            )
        return region


class OperatorsConfig(Section):
    """``[operators]``: the chats allowed to dispatch and told about every event, and how
    customers who ask for a person are answered there (``bot.handoff``).

    ``chat_ids`` are chats of any channel, ``channel:id`` (``"telegram:-1001234567890"``,
    ``"console:1"``), or a number alone for a Telegram chat; ``chats`` reads them as
    ``ChatRef``. Staff see hand-offs in the first Telegram chat among them.

    ``handoff_hours`` (the business's own words, e.g. "Mon-Sat 8:00-20:00") and
    ``handoff_reply_minutes`` tell the customer roughly when a person answers;
    ``sign_replies`` adds the staff member's first name to what they write to a customer;
    ``handoff_idle_hours``: a hand-off without a message for that long is closed;
    ``handoff_messages_per_minute``: a customer's messages to staff, at most.
    """

    chat_ids: list[int | str] = Field(default_factory=list)
    handoff_hours: str = ""
    handoff_reply_minutes: int = Field(default=15, ge=1, le=24 * 60)
    sign_replies: bool = False
    handoff_idle_hours: float = Field(default=24.0, gt=0)
    handoff_messages_per_minute: int = Field(default=10, ge=1)

    @field_validator("chat_ids", mode="before")
    @classmethod
    def _chat_ids(cls, value: object) -> object:
        if not isinstance(value, list):
            return value  # pydantic says it must be a list
        problems: list[tuple[tuple[str | int, ...], str]] = []
        seen: list[ChatRef] = []
        for i, written in enumerate(value):
            if isinstance(written, bool) or not isinstance(written, int | str):
                problems.append(((i,), f"{written!r} is not a chat: {WRITTEN_CHAT_HELP}"))
                continue
            try:
                chat = parse_chat_ref(written)
            except ValueError as exc:
                problems.append(((i,), str(exc)))
                continue
            if chat.id == 0:
                problems.append(((i,), f"0 is not a {chat.channel} chat id"))
            elif chat in seen:
                problems.append(((i,), "listed twice"))
            seen.append(chat)
        if problems:
            raise KeyProblems(problems)
        return value

    @property
    def chats(self) -> tuple[ChatRef, ...]:
        """The operators' chats, each named by its channel, in the order written."""
        return tuple(parse_chat_ref(written) for written in self.chat_ids)

    @property
    def telegram_chat_ids(self) -> tuple[int, ...]:
        """The ids of the Telegram chats among them, in the order written."""
        return tuple(chat.id for chat in self.chats if chat.channel == TELEGRAM)
