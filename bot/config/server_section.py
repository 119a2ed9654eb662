"""``[server]``: the bot's own web server: where it listens, its public host, how it drains.

These keys belong to the web app every channel shares (the partner webhook, the re-hosted
photos, each channel's routes), not to Telegram. They were first written under ``[telegram]``,
and still may be (``MOVED_FROM_TELEGRAM``): ``Config`` takes a key from there when ``[server]``
leaves it out, and ``check-config`` notes the move. A key set in both places is a problem.
"""

from __future__ import annotations

from typing import Final

from pydantic import Field, field_validator

from bot.config.section import Section
from bot.config.urls import LOOPBACK_HTTP, check_url

MOVED_FROM_TELEGRAM: Final = ("listen_host", "listen_port", "drain_seconds", "public_base_url")
"""The ``[server]`` keys an older file writes under ``[telegram]``."""

PUBLIC_BASE_URL_RULE: Final = f"must be an https URL ({LOOPBACK_HTTP}, for local tests)"

WEBHOOK_NEEDS_HOST: Final = object()
"""Put in ``public_base_url``'s place by ``Config`` when ``[telegram] mode = "webhook"`` and
the file sets it nowhere: refused there with why, beside every other problem of the file."""


class ServerConfig(Section):
    """``[server]``: the web app's address and public host, and its drain at shutdown.

    ``listen_host``/``listen_port``: where the web app listens (behind the https proxy).
    ``public_base_url``: the bot's own https host, as the world reaches it: Telegram posts
    updates there in webhook mode, the Partner API its events, and package photos are re-hosted
    under it. ``drain_seconds``: on SIGTERM, how long the web app answers ``/health`` with 503
    (serving everything else) before it closes, so a proxy's health checks take it out of
    rotation first; the default covers the shipped Caddyfile's 2 s interval plus its 1 s
    timeout.
    """

    listen_host: str = Field("127.0.0.1", min_length=1)
    listen_port: int = Field(8080, ge=1, le=65535)
    public_base_url: str | None = None
    drain_seconds: float = Field(3.0, ge=0, le=30)

    @field_validator("public_base_url", mode="before")
    @classmethod
    def _required_by_webhook_mode(cls, value: object) -> object:
        if value is WEBHOOK_NEEDS_HOST:
            raise ValueError(
                'required when [telegram] mode = "webhook": Telegram posts updates to it'
            )
        return value

    @field_validator("public_base_url")
    @classmethod
    def _public_base_url(cls, value: str | None) -> str | None:
        return None if value is None else check_url(value, rule=PUBLIC_BASE_URL_RULE)
