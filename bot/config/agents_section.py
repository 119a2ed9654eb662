"""``[agents]`` and its ``[[agents.channels]]``: who may order through the JSON API and the MCP
server, each channel with its own key, its own customers and its own event webhook.

A channel's key is given in one of three ways, never two: ``key_sha256`` (the SHA-256 of the
key in hex, so the file holds no secret at all), ``key_env`` (the name of an environment
variable holding the key) or ``key`` (the key itself). The bot keeps only the hash in memory.
"""

from __future__ import annotations

import hashlib
import re

from pydantic import (
    Field,
    SecretStr,
    ValidationInfo,
    ValidatorFunctionWrapHandler,
    field_validator,
    model_validator,
)

from bot.config.config_errors import KeyProblems
from bot.config.secrets import EnvName, SecretShape, resolve_secret
from bot.config.section import Section
from bot.config.urls import LOOPBACK_HTTP, check_url

CHANNEL_KEY_SHAPE: SecretShape = (
    re.compile(r"[A-Za-z0-9_-]{24,128}"),
    "must be 24 to 128 characters of A-Z, a-z, 0-9, _ and - (e.g. from `openssl rand -hex 24`)",
)
CHANNEL_WEBHOOK_SECRET_SHAPE: SecretShape = (
    re.compile(r"[A-Za-z0-9_-]{24,128}"),
    "must be 24 to 128 characters of A-Z, a-z, 0-9, _ and -",
)
_NAME = re.compile(r"[a-z][a-z0-9_-]{0,39}")
_SHA256 = re.compile(r"[0-9a-f]{64}")


def key_hash(key: str) -> str:
    """The SHA-256 of a channel key, in hex: what ``key_sha256`` holds and what is compared."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


class AgentChannelConfig(Section):
    """One ``[[agents.channels]]`` entry: an app or an LLM assistant ordering for customers."""

    name: str
    key_sha256: str | None = None
    key_env: EnvName | None = None
    key: SecretStr | None = None
    webhook_url: str | None = None
    webhook_secret_env: EnvName | None = None
    webhook_secret: SecretStr | None = None
    requests_per_minute: int = Field(120, ge=1, le=100_000)

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        if not _NAME.fullmatch(value):
            raise ValueError("must be 1 to 40 characters of a-z, 0-9, _ and -, starting a-z")
        return value

    @field_validator("key_sha256")
    @classmethod
    def _key_sha256(cls, value: str | None) -> str | None:
        if value is not None and not _SHA256.fullmatch(value):
            raise ValueError("must be 64 lower-case hex digits (sha256sum of the key)")
        return value

    @field_validator("key", mode="wrap")
    @classmethod
    def _key(
        cls, value: object, handler: ValidatorFunctionWrapHandler, info: ValidationInfo
    ) -> SecretStr | None:
        return resolve_secret(value, handler, info, required=False, shape=CHANNEL_KEY_SHAPE)

    @field_validator("webhook_url")
    @classmethod
    def _webhook_url(cls, value: str | None) -> str | None:
        if value is None:
            return None
        return check_url(value, rule=f"must be https ({LOOPBACK_HTTP})")

    @field_validator("webhook_secret", mode="wrap")
    @classmethod
    def _webhook_secret(
        cls, value: object, handler: ValidatorFunctionWrapHandler, info: ValidationInfo
    ) -> SecretStr | None:
        required = info.data.get("webhook_url") is not None
        return resolve_secret(
            value,
            handler,
            info,
            required=required,
            when=" when webhook_url is set",
            shape=CHANNEL_WEBHOOK_SECRET_SHAPE,
        )

    @model_validator(mode="after")
    def _one_key(self) -> AgentChannelConfig:
        given = [self.key_sha256 is not None, self.key is not None]
        if sum(given) != 1:
            problem = "give exactly one of key_sha256, key_env or key"
            raise KeyProblems([(("key_sha256",), problem)])
        return self

    def expected_hash(self) -> str:
        """The SHA-256 a presented key must have."""
        if self.key is not None:
            return key_hash(self.key.get_secret_value())
        assert self.key_sha256 is not None  # _one_key
        return self.key_sha256


class AgentsConfig(Section):
    """``[agents]``: the JSON API and MCP server for channels other than Telegram."""

    # Optional only so that an absent key is not taken for an empty table (``Section``).
    channels: list[AgentChannelConfig] | None = None

    @field_validator("channels")
    @classmethod
    def _distinct(cls, value: list[AgentChannelConfig] | None) -> list[AgentChannelConfig] | None:
        problems: list[tuple[tuple[str | int, ...], str]] = []
        names: set[str] = set()
        hashes: set[str] = set()
        for index, channel in enumerate(value or ()):
            if channel.name in names:
                problems.append(((index, "name"), "another channel has this name"))
            if channel.expected_hash() in hashes:
                problems.append(((index, "key_sha256"), "another channel has the same key"))
            names.add(channel.name)
            hashes.add(channel.expected_hash())
        if problems:
            raise KeyProblems(problems)
        return value

    def channel(self, name: str) -> AgentChannelConfig | None:
        """The channel called ``name``, if configured."""
        return next((channel for channel in self.configured if channel.name == name), None)

    @property
    def configured(self) -> list[AgentChannelConfig]:
        """Every configured channel (none when the table is absent)."""
        return list(self.channels or ())
