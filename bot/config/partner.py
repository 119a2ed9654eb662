"""``[partner]`` and ``[webhooks]``: talking to the Partner API, and hearing back from it."""

from __future__ import annotations

import re

from pydantic import Field, SecretStr, ValidationInfo, ValidatorFunctionWrapHandler, field_validator

from bot.config.secrets import API_KEY_SHAPE, SIGNING_SECRET_SHAPE, EnvName, resolve_secret
from bot.config.section import Section
from bot.config.urls import LOOPBACK_HTTP, check_url
from bot.partner.options import AuthHeaderStyle, ClientOptions

# Routes of the bot's own web app; the partner webhook path must not shadow them.
RESERVED_WEB_PATHS = ("/telegram", "/media", "/health", "/api", "/webapp", "/console")

_CLIENT = ClientOptions()


def own_web_path(value: str, *, example: str) -> str:
    """``value``, a path for a route of the bot's web app that no other route takes."""
    if not re.fullmatch(r"/[A-Za-z0-9._~/-]+", value) or value.endswith("/"):
        raise ValueError(f"must be a URL path such as {example} (no query, no trailing /)")
    for reserved in RESERVED_WEB_PATHS:
        if value == reserved or value.startswith(reserved + "/"):
            raise ValueError(f"{reserved} is a route of the bot's web app; choose another path")
    return value


class PartnerConfig(Section):
    """``[partner]``: where the Partner API is and how the client talks to it."""

    base_url: str
    api_key_env: EnvName | None = None
    api_key: SecretStr
    auth_header: AuthHeaderStyle = _CLIENT.auth_header
    connect_timeout: float = Field(_CLIENT.connect_timeout, gt=0, le=120)
    read_timeout: float = Field(_CLIENT.read_timeout, gt=0, le=600)
    write_timeout: float = Field(_CLIENT.write_timeout, gt=0, le=600)
    pool_timeout: float = Field(_CLIENT.pool_timeout, gt=0, le=120)
    max_attempts: int = Field(_CLIENT.max_attempts, ge=1, le=10)
    backoff_base_seconds: float = Field(_CLIENT.backoff_base_seconds, gt=0, le=60)
    backoff_cap_seconds: float = Field(_CLIENT.backoff_cap_seconds, gt=0, le=600)
    rate_limit_retries: int = Field(_CLIENT.rate_limit_retries, ge=0, le=10)
    max_rate_limit_wait_seconds: float = Field(_CLIENT.max_rate_limit_wait_seconds, ge=0, le=600)
    capabilities_ttl_seconds: float = Field(_CLIENT.capabilities_ttl_seconds, ge=0, le=86_400)

    @field_validator("base_url")
    @classmethod
    def _base_url(cls, value: str) -> str:
        rule = f"must be https and end with /api/v1 ({LOOPBACK_HTTP}, e.g. the local sandbox)"
        return check_url(value, rule=rule, path_suffix="/api/v1")

    @field_validator("api_key", mode="wrap")
    @classmethod
    def _api_key(
        cls, value: object, handler: ValidatorFunctionWrapHandler, info: ValidationInfo
    ) -> SecretStr | None:
        return resolve_secret(value, handler, info, required=True, shape=API_KEY_SHAPE)

    @field_validator("backoff_cap_seconds")
    @classmethod
    def _backoff_cap(cls, value: float, info: ValidationInfo) -> float:
        if value < info.data.get("backoff_base_seconds", 0):
            raise ValueError("must not be below backoff_base_seconds")
        return value

    def client_options(self) -> ClientOptions:
        """The Partner client's tunables as configured here."""
        return ClientOptions(
            auth_header=self.auth_header,
            connect_timeout=self.connect_timeout,
            read_timeout=self.read_timeout,
            write_timeout=self.write_timeout,
            pool_timeout=self.pool_timeout,
            max_attempts=self.max_attempts,
            backoff_base_seconds=self.backoff_base_seconds,
            backoff_cap_seconds=self.backoff_cap_seconds,
            rate_limit_retries=self.rate_limit_retries,
            max_rate_limit_wait_seconds=self.max_rate_limit_wait_seconds,
            capabilities_ttl_seconds=self.capabilities_ttl_seconds,
        )


class WebhooksConfig(Section):
    """``[webhooks]``: receiving the Partner API's signed events."""

    enabled: bool = False
    signing_secret_env: EnvName | None = None
    signing_secret: SecretStr | None = None
    # Accepted as well during a rotation, until the dashboard stops signing with it.
    previous_signing_secret_env: EnvName | None = None
    previous_signing_secret: SecretStr | None = None
    path: str = "/hooks/partner"
    max_body_bytes: int = Field(262_144, ge=1024, le=10 * 1024 * 1024)

    @field_validator("signing_secret", mode="wrap")
    @classmethod
    def _signing_secret(
        cls, value: object, handler: ValidatorFunctionWrapHandler, info: ValidationInfo
    ) -> SecretStr | None:
        enabled = bool(info.data.get("enabled"))
        return resolve_secret(
            value,
            handler,
            info,
            required=enabled,
            when=" when enabled = true",
            shape=SIGNING_SECRET_SHAPE,
        )

    @field_validator("previous_signing_secret", mode="wrap")
    @classmethod
    def _previous_signing_secret(
        cls, value: object, handler: ValidatorFunctionWrapHandler, info: ValidationInfo
    ) -> SecretStr | None:
        return resolve_secret(value, handler, info, required=False, shape=SIGNING_SECRET_SHAPE)

    @field_validator("path")
    @classmethod
    def _path(cls, value: str) -> str:
        return own_web_path(value, example="/hooks/partner")

    def signing_secrets(self) -> tuple[SecretStr, ...]:
        """Every secret a webhook may be signed with, the current one first."""
        return tuple(s for s in (self.signing_secret, self.previous_signing_secret) if s)
