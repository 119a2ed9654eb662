"""``Config``: the whole file, its sections in order, and the checks that span sections."""

from __future__ import annotations

from typing import Any, Final
from urllib.parse import urlsplit

from pydantic import Field, ValidationInfo, field_validator, model_validator

from bot.channel_kind import CHANNEL_NAME
from bot.config.agents_section import AgentsConfig
from bot.config.config_errors import KeyProblems
from bot.config.console_section import ConsoleConfig
from bot.config.geocoding_section import GeocodingConfig
from bot.config.limits_section import LimitsConfig
from bot.config.logging_section import LoggingConfig
from bot.config.metrics_section import MetricsConfig
from bot.config.partner import PartnerConfig, WebhooksConfig
from bot.config.payments_section import PaymentsConfig
from bot.config.privacy_section import MOVED_FROM_STORAGE, PrivacyConfig
from bot.config.relay_section import RelayConfig
from bot.config.section import Section
from bot.config.server_section import MOVED_FROM_TELEGRAM, WEBHOOK_NEEDS_HOST, ServerConfig
from bot.config.storage import StorageConfig
from bot.config.telegram import BOT_CREDENTIAL_HOW, OperatorsConfig, TelegramConfig
from bot.config.texts_section import TextsConfig
from bot.config.tracking_section import TrackingConfig
from bot.config.urls import LOOPBACK_HOSTS
from bot.config.webapp_section import WEBAPP_PATH, WebappConfig
from bot.config.whatsapp_section import WHATSAPP_PATH, WhatsAppConfig, whatsapp_warnings

_CHANNEL_SWITCHES: Final = (
    f"Telegram: {BOT_CREDENTIAL_HOW}",
    "an agent channel: list it in [[agents.channels]]",
    "another channel of this bot: its [channels.<name>] table",
    "WhatsApp: [whatsapp] phone_number_id with its access_token, app_secret and verify_token",
)
"""How the file turns on each channel that takes orders, named when none is on."""


class Config(Section):
    """The whole configuration file."""

    partner: PartnerConfig
    telegram: TelegramConfig
    server: ServerConfig  # after telegram: it takes the keys an older file writes there
    webhooks: WebhooksConfig  # after server: it needs server's public_base_url
    operators: OperatorsConfig
    storage: StorageConfig
    privacy: PrivacyConfig  # after storage: it takes the keys an older file writes there
    geocoding: GeocodingConfig
    relay: RelayConfig
    tracking: TrackingConfig
    channels: dict[str, dict[str, Any]] = Field(default_factory=dict)
    whatsapp: WhatsAppConfig  # after server (its webhook is on the public host), before agents
    agents: AgentsConfig  # after channels and whatsapp: some channel must take orders
    texts: TextsConfig
    webapp: WebappConfig
    limits: LimitsConfig
    payments: PaymentsConfig
    metrics: MetricsConfig  # after server and webhooks: its routes must not meet theirs
    console: ConsoleConfig  # after server: its links are on the public host
    logging: LoggingConfig

    @model_validator(mode="before")
    @classmethod
    def _webhook_mode_needs_a_host(cls, data: object) -> object:
        # Webhook mode needs [server] public_base_url (or its old place): checked on the file
        # as written, so the problem is told even when [telegram] has others of its own.
        if not isinstance(data, dict):
            return data
        telegram, server = data.get("telegram", {}), data.get("server", {})
        if not isinstance(telegram, dict) or not isinstance(server, dict):
            return data
        if telegram.get("mode") != "webhook" or "public_base_url" in telegram | server:
            return data
        return {**data, "server": {**server, "public_base_url": WEBHOOK_NEEDS_HOST}}

    @field_validator("server")
    @classmethod
    def _server_keys_written_under_telegram(
        cls, value: ServerConfig, info: ValidationInfo
    ) -> ServerConfig:
        # An older file writes the web server's keys under [telegram]: taken from there.
        telegram = info.data.get("telegram")
        if telegram is None:
            return value
        moved = {key: getattr(telegram, key) for key in _written_under_telegram(telegram)}
        twice: list[tuple[tuple[str | int, ...], str]] = [
            (("telegram", key), f"is [server] {key} too (its old place): keep [server] {key} only")
            for key in moved
            if key in value.model_fields_set
        ]
        if twice:
            raise KeyProblems(twice, absolute=True)
        return value.model_copy(update=moved)

    @field_validator("privacy")
    @classmethod
    def _privacy_keys_written_under_storage(
        cls, value: PrivacyConfig, info: ValidationInfo
    ) -> PrivacyConfig:
        # An older file writes three of the retention keys under [storage]: taken from there.
        storage = info.data.get("storage")
        written = [] if storage is None else _written_under_storage(storage)
        twice: list[tuple[tuple[str | int, ...], str]] = [
            (
                ("storage", old),
                f"is [privacy] {MOVED_FROM_STORAGE[old]} too (its new place): keep "
                f"[privacy] {MOVED_FROM_STORAGE[old]} only",
            )
            for old in written
            if MOVED_FROM_STORAGE[old] in value.model_fields_set
        ]
        if twice:
            raise KeyProblems(twice, absolute=True)
        moved = {MOVED_FROM_STORAGE[old]: getattr(storage, old) for old in written}
        kept = value.model_copy(update=moved)
        if problems := kept.problems():
            raise KeyProblems(problems)
        return kept

    @field_validator("webhooks")
    @classmethod
    def _public_host_for_webhooks(
        cls, value: WebhooksConfig, info: ValidationInfo
    ) -> WebhooksConfig:
        if value.enabled and _without_public_host(info):
            problem = "needs [server] public_base_url: the service posts events to a public host"
            raise KeyProblems([(("enabled",), problem)])
        return value

    @field_validator("channels")
    @classmethod
    def _channel_names(cls, value: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
        # [channels.<name>]: a channel's own table, whose keys the channel checks as it starts
        # (its starter's model, ``bot.runtime.channel_starters``), named by the channel's name.
        problems: list[tuple[tuple[str | int, ...], str]] = [
            ((name,), f"is not a channel's name: {CHANNEL_NAME.pattern} expected")
            for name in value
            if CHANNEL_NAME.fullmatch(name) is None
        ]
        if problems:
            raise KeyProblems(problems)
        return value

    @field_validator("whatsapp")
    @classmethod
    def _whatsapp_on_the_public_host(
        cls, value: WhatsAppConfig, info: ValidationInfo
    ) -> WhatsAppConfig:
        # Meta posts every customer message to {public_base_url}/whatsapp: an https URL the
        # world reaches, typed into the Meta app's webhook settings.
        if value.configured and _without_public_host(info):
            problem = (
                "needs [server] public_base_url: Meta posts the customers' messages to "
                f"its https host at {WHATSAPP_PATH}"
            )
            raise KeyProblems([(("phone_number_id",), problem)])
        return value

    @field_validator("agents")
    @classmethod
    def _takes_orders_somewhere(cls, value: AgentsConfig, info: ValidationInfo) -> AgentsConfig:
        # At least one channel takes orders; with none the bot is idle. Checked here, not after
        # the whole model, so it is reported with every other problem.
        telegram, channels = info.data.get("telegram"), info.data.get("channels")
        whatsapp = info.data.get("whatsapp")
        if telegram is None or channels is None or whatsapp is None:  # refused already
            return value
        if (
            telegram.token is None
            and not value.configured
            and not channels
            and not whatsapp.configured
        ):
            problem = "no channel takes orders; enable one. " + "; or ".join(_CHANNEL_SWITCHES)
            raise KeyProblems([(("telegram", "token"), problem)], absolute=True)
        return value

    @field_validator("limits")
    @classmethod
    def _payments_seen(cls, value: LimitsConfig, info: ValidationInfo) -> LimitsConfig:
        # The status poller reads open deliveries only, on a status change: a fee paid after
        # the delivery would never be seen, and the delivery would count as unpaid for ever.
        webhooks = info.data.get("webhooks")
        if value.unpaid_deliveries and webhooks is not None and not webhooks.enabled:
            problem = (
                "needs [webhooks] enabled = true: the payments are seen in the service's "
                "events (a fee paid after delivery is never polled)"
            )
            raise KeyProblems([(("unpaid_deliveries",), problem)])
        return value

    @field_validator("metrics")
    @classmethod
    def _metrics_apart(cls, value: MetricsConfig, info: ValidationInfo) -> MetricsConfig:
        webhooks, server = info.data.get("webhooks"), info.data.get("server")
        if webhooks is not None and not value.own_address and value.path == webhooks.path:
            raise KeyProblems([(("path",), "is [webhooks] path too; choose another path")])
        if (
            server is not None
            and value.own_address
            and (value.listen_host, value.listen_port) == (server.listen_host, server.listen_port)
        ):
            problem = (
                f"is {_where(info, 'listen_port')} listen_host:listen_port, where the web app "
                "listens; choose another port, or leave listen_port out to serve /metrics on "
                "the web app"
            )
            raise KeyProblems([(("listen_port",), problem)])
        return value

    @field_validator("console")
    @classmethod
    def _console_on_the_public_host(
        cls, value: ConsoleConfig, info: ValidationInfo
    ) -> ConsoleConfig:
        # Its sign-in links are handed to staff: they must open the bot's own https host.
        if value.enabled and _without_public_host(info):
            problem = (
                "needs [server] public_base_url: the console and its sign-in links are served "
                "on the bot's public https host"
            )
            raise KeyProblems([(("enabled",), problem)])
        return value

    @property
    def has_telegram(self) -> bool:
        """Whether the bot runs on Telegram (a token is set); without it, agent channels only."""
        return self.telegram.token is not None

    def server_key(self, key: str) -> str:
        """Where the file sets ``[server]``'s ``key``: ``"[telegram] key"`` in an older file,
        else ``"[server] key"``; for a line that names it."""
        section = "telegram" if key in _written_under_telegram(self.telegram) else "server"
        return f"[{section}] {key}"

    def notes(self) -> list[str]:
        """Keys written where they used to be, which still work; one line each."""
        return [
            f"[telegram] {key} is [server] {key} now: the old place still works; move it "
            "under [server] when you next edit the file"
            for key in _written_under_telegram(self.telegram)
        ] + [
            f"[storage] {old} is [privacy] {MOVED_FROM_STORAGE[old]} now: the old place still "
            f"works; move it under [privacy] as {MOVED_FROM_STORAGE[old]} when you next edit "
            "the file"
            for old in _written_under_storage(self.storage)
        ]

    def partner_webhook_url(self) -> str | None:
        """The URL to register in the dashboard (Settings, API & Webhooks), if webhooks are on."""
        if not self.webhooks.enabled or self.server.public_base_url is None:
            return None
        return self.server.public_base_url + self.webhooks.path

    def whatsapp_webhook_url(self) -> str | None:
        """The callback URL to type into the Meta app's webhook settings, if WhatsApp is on."""
        if not self.whatsapp.configured or self.server.public_base_url is None:
            return None
        return self.server.public_base_url + WHATSAPP_PATH

    def warnings(self) -> list[str]:
        """Settings that are valid but probably not what the operator wants, one line each."""
        found = []
        if not self.has_telegram:
            found += _without_telegram(self)
        elif not self.operators.chat_ids:
            found.append(
                "[operators] chat_ids: empty: nobody may use operator commands, and "
                "event summaries and agent notes go nowhere"
            )
        public = self.server.public_base_url
        if public is None:
            found.append(
                "[server] public_base_url: not set: package photos cannot be hosted, "
                "so pickup deliveries and photo errands cannot be ordered"
            )
        elif urlsplit(public).hostname in LOOPBACK_HOSTS:
            found.append(
                f"{self.server_key('public_base_url')}: a loopback host: only local tests can "
                "reach it, not Telegram or the Partner API"
            )
        if urlsplit(self.partner.base_url).hostname in LOOPBACK_HOSTS:
            found.append(
                "[partner] base_url: a loopback host: this is a local sandbox, not the real service"
            )
        if not self.webhooks.enabled and self.webhooks.signing_secrets():
            found.append("[webhooks] signing_secret: ignored while enabled = false")
        if self.telegram.mode == "polling" and self.telegram.secret_token is not None:
            found.append('[telegram] secret_token: ignored while mode = "polling"')
        found += self.storage.warnings(polling=self.telegram.mode == "polling")
        found += _map_button_off(self)
        found += whatsapp_warnings(self.whatsapp)
        return found

    def webapp_url(self) -> str | None:
        """Where the "Pick on the map" page is, or None when the button is off (see
        ``warnings`` for why)."""
        public = self.server.public_base_url
        if not self.webapp.enabled or not self.has_telegram or public is None:
            return None
        if urlsplit(public).scheme != "https":
            return None
        return public + WEBAPP_PATH


def _map_button_off(config: Config) -> list[str]:
    """Why ``[webapp] enabled`` shows no "Pick on the map" button, when it does not."""
    if not config.webapp.enabled:
        return []
    public = config.server.public_base_url
    why = None
    if not config.has_telegram:
        why = "the Mini App is a Telegram button, and [telegram] token is not set"
    elif public is None:
        why = "needs [server] public_base_url: Telegram opens the page from the bot's host"
    elif urlsplit(public).scheme != "https":
        why = (
            f"{config.server_key('public_base_url')} is plain http: Telegram opens Mini Apps "
            "over https only"
        )
    return [] if why is None else [f"[webapp] enabled: the map button is off: {why}"]


def _without_telegram(config: Config) -> list[str]:
    """What a bot without Telegram cannot do, said where the operator would look for it."""
    channels = "WhatsApp and [[agents.channels]]" if config.whatsapp.configured else ""
    found = [
        f"[telegram] token: not set: orders come only through {channels or '[[agents.channels]]'}; "
        "operator alerts and event summaries are logged (WARNING) instead of sent to operator "
        "chats",
        "[telegram] token: not set: a drop-off code sent by delivery.otp_issued cannot be "
        "handed to the receiver; keep OTP via webhook only switched off in the dashboard, so "
        "the service sends the code itself",
    ]
    if config.operators.telegram_chat_ids:
        found.append(
            "[operators] chat_ids: Telegram chats, not reached without [telegram] token: "
            "what they would be told is logged"
        )
    return found


def _written_under_telegram(telegram: TelegramConfig) -> list[str]:
    """The ``[server]`` keys the file writes under ``[telegram]``, their old place."""
    return [key for key in MOVED_FROM_TELEGRAM if key in telegram.model_fields_set]


def _written_under_storage(storage: StorageConfig) -> list[str]:
    """The ``[privacy]`` keys the file writes under ``[storage]`` (by their old names)."""
    return [key for key in MOVED_FROM_STORAGE if key in storage.model_fields_set]


def _where(info: ValidationInfo, key: str) -> str:
    """``[server]``, or ``[telegram]`` where the file being validated writes ``key``."""
    telegram = info.data.get("telegram")
    written = telegram is not None and key in _written_under_telegram(telegram)
    return "[telegram]" if written else "[server]"


def _without_public_host(info: ValidationInfo) -> bool:
    """Whether ``[server] public_base_url`` is known to be missing. Without a valid
    ``[server]`` and ``[telegram]`` (the host's old place) it cannot be known: no problem is
    added to theirs."""
    server, telegram = info.data.get("server"), info.data.get("telegram")
    return server is not None and telegram is not None and server.public_base_url is None
