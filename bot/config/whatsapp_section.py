"""``[whatsapp]``: the business's WhatsApp number on the Cloud API, and its templates.

The bot talks to Meta's Graph API as the number ``phone_number_id`` with a system user's
``access_token``; Meta signs every webhook push with the app's ``app_secret``
(``X-Hub-Signature-256``) and checks the webhook URL once with ``verify_token``. The three
secrets come from environment variables (``*_env``) or the file, and are never logged. Outside
the customer-service window (24 hours after the customer's last message) only approved
templates may be sent: ``[whatsapp.templates]`` names them (docs/operators.md, "WhatsApp").
"""

from __future__ import annotations

import re
from typing import Final
from urllib.parse import urlsplit

from pydantic import (
    Field,
    SecretStr,
    ValidationInfo,
    ValidatorFunctionWrapHandler,
    field_validator,
)

from bot.config.secrets import EnvName, SecretShape, resolve_secret
from bot.config.section import Section
from bot.config.urls import LOOPBACK_HOSTS, LOOPBACK_HTTP, check_url

WHATSAPP_PATH: Final = "/whatsapp"
"""Where Meta pushes the number's webhooks, under ``[server] public_base_url``."""
DEFAULT_GRAPH_API_BASE_URL: Final = "https://graph.facebook.com"
DEFAULT_GRAPH_API_VERSION: Final = "v21.0"

PHONE_NUMBER_ID: Final = re.compile(r"[0-9]{5,20}")
GRAPH_API_VERSION: Final = re.compile(r"v[0-9]{1,3}\.[0-9]")
TEMPLATE_NAME: Final = re.compile(r"[a-z0-9_]{1,512}")

ACCESS_TOKEN_SHAPE: Final[SecretShape] = (
    re.compile(r"[A-Za-z0-9_-]{20,1024}"),
    "does not look like a Cloud API access token (letters and digits from Meta's "
    "System User settings)",
)
APP_SECRET_SHAPE: Final[SecretShape] = (
    re.compile(r"[0-9a-f]{32}"),
    "must be the app secret from the Meta app's Settings > Basic (32 hex digits)",
)
VERIFY_TOKEN_SHAPE: Final[SecretShape] = (
    re.compile(r"[A-Za-z0-9_-]{8,256}"),
    "must be 8 to 256 characters of A-Z, a-z, 0-9, _ and - (you choose it, and type the same "
    "in the Meta app's webhook settings)",
)


class WhatsAppTemplate(Section):
    """One approved message template: its ``name`` as submitted to Meta and the
    ``languages`` it is approved in (Meta's codes: ``en``, ``en_GB``, ``fr``); a customer gets
    it in their own language when approved in it, else in the first."""

    name: str
    languages: list[str] = Field(default_factory=lambda: ["en"], min_length=1)

    @field_validator("name")
    @classmethod
    def _template_name(cls, value: str) -> str:
        if not TEMPLATE_NAME.fullmatch(value):
            raise ValueError(
                "must be the template's name as submitted to Meta: 1 to 512 lower-case letters, "
                "digits and _"
            )
        return value

    @field_validator("languages")
    @classmethod
    def _language_codes(cls, value: list[str]) -> list[str]:
        for code in value:
            if not re.fullmatch(r"[a-z]{2,3}(_[A-Z]{2})?", code):
                raise ValueError(f"{code!r} is not a language code as Meta writes them (en_GB)")
        return value


class NewsTemplate(WhatsAppTemplate):
    """``[whatsapp.templates.news]``: ``{{1}}`` the delivery's reference, ``{{2}}`` the news."""

    name: str = "delivery_update"


class ReplyTemplate(WhatsAppTemplate):
    """``[whatsapp.templates.reply]``: ``{{1}}`` a person's answer to a hand-off."""

    name: str = "support_reply"


class WhatsAppTemplates(Section):
    """The templates sent outside the customer-service window (docs/operators.md gives their
    exact text): ``news`` carries a delivery's news (``{{1}}`` the delivery's reference,
    ``{{2}}`` the news in one line) and ``reply`` a person's answer to a hand-off (``{{1}}``
    the answer in one line)."""

    news: NewsTemplate
    reply: ReplyTemplate


class WhatsAppConfig(Section):
    """``[whatsapp]``: see the module docstring. Absent (no ``phone_number_id``): the bot runs
    no WhatsApp channel."""

    phone_number_id: str | None = None
    # The number customers see (``+234 801 234 5678``): the drop-off code's wa.me link opens it.
    display_phone_number: str | None = Field(None, pattern=r"^\+?[0-9][0-9 ()-]{4,24}$")
    access_token_env: EnvName | None = None
    access_token: SecretStr | None = None
    app_secret_env: EnvName | None = None
    app_secret: SecretStr | None = None
    verify_token_env: EnvName | None = None
    verify_token: SecretStr | None = None
    graph_api_base_url: str = DEFAULT_GRAPH_API_BASE_URL
    graph_api_version: str = DEFAULT_GRAPH_API_VERSION
    templates: WhatsAppTemplates

    @field_validator("phone_number_id")
    @classmethod
    def _phone_number_id(cls, value: str | None) -> str | None:
        if value is not None and not PHONE_NUMBER_ID.fullmatch(value):
            raise ValueError(
                "must be the number's id from the Meta app's WhatsApp > API Setup page (5 to 20 "
                "digits), not the phone number itself"
            )
        return value

    @field_validator("graph_api_version")
    @classmethod
    def _graph_api_version(cls, value: str) -> str:
        if not GRAPH_API_VERSION.fullmatch(value):
            raise ValueError(
                f'must be a Graph API version as Meta writes it ("{DEFAULT_GRAPH_API_VERSION}")'
            )
        return value

    @field_validator("access_token", mode="wrap")
    @classmethod
    def _access_token(
        cls, value: object, handler: ValidatorFunctionWrapHandler, info: ValidationInfo
    ) -> SecretStr | None:
        return _when_configured(value, handler, info, ACCESS_TOKEN_SHAPE)

    @field_validator("app_secret", mode="wrap")
    @classmethod
    def _app_secret(
        cls, value: object, handler: ValidatorFunctionWrapHandler, info: ValidationInfo
    ) -> SecretStr | None:
        return _when_configured(value, handler, info, APP_SECRET_SHAPE)

    @field_validator("verify_token", mode="wrap")
    @classmethod
    def _verify_token(
        cls, value: object, handler: ValidatorFunctionWrapHandler, info: ValidationInfo
    ) -> SecretStr | None:
        return _when_configured(value, handler, info, VERIFY_TOKEN_SHAPE)

    @field_validator("graph_api_base_url")
    @classmethod
    def _graph_api_base_url(cls, value: str) -> str:
        return check_url(value, rule=LOOPBACK_HTTP)

    @property
    def configured(self) -> bool:
        """Whether the bot runs a WhatsApp channel."""
        return self.phone_number_id is not None


_SECRET_KEYS: Final = ("access_token", "app_secret", "verify_token")


def whatsapp_warnings(section: WhatsAppConfig) -> list[str]:
    """``[whatsapp]`` settings that are valid but probably not meant, one line each, naming
    the key (never a secret's value)."""
    found = []
    if not section.configured:
        found += [
            f"[whatsapp] {key}: ignored while phone_number_id is not set (no WhatsApp channel)"
            for key in _SECRET_KEYS
            if getattr(section, key) is not None
        ]
        return found
    if urlsplit(section.graph_api_base_url).hostname in LOOPBACK_HOSTS:
        found.append(
            "[whatsapp] graph_api_base_url: a loopback host: a local test double of the Cloud "
            "API, not Meta's; customers' messages are answered there only"
        )
    return found


def _when_configured(
    value: object, handler: ValidatorFunctionWrapHandler, info: ValidationInfo, shape: SecretShape
) -> SecretStr | None:
    configured = info.data.get("phone_number_id") is not None
    return resolve_secret(
        value, handler, info, required=configured, when=" when phone_number_id is set", shape=shape
    )
