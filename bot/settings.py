"""``CoreSettings``: everything the bot's parts read from ``Config``, built once.

``CoreSettings.from_config`` is the one place ``deliverybot run`` (and ``deliverybot mcp``)
turns the TOML into settings: the core, its channels (the agents' among them) and the runtime
read these fields and never the ``Config`` again. A test, a benchmark or the demo builds one
directly with the fields it needs.

The agent channels' values (``AgentChannel``, ``ChannelHook``) are settings too, and stand
here: ``bot.agents`` reads them through the core's services, so it sits above this module.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from bot.chat_ref import OPERATOR_LOG, TELEGRAM, ChatRef
from bot.config import AgentChannelConfig, Config, ConsoleConfig, TilesConfig
from bot.config.geocoding_section import GeocodingConfig
from bot.config.limits_section import LimitsConfig
from bot.config.privacy_section import PrivacyConfig
from bot.config.relay_section import RelayConfig
from bot.config.tracking_section import TrackingConfig
from bot.handoff.handoff_settings import HandoffSettings
from bot.partner.options import ClientOptions
from bot.web.web_app import DEFAULT_MAX_BODY_BYTES, DEFAULT_WEBHOOK_PATH
from conversations.services import OnlinePayment
from conversations.texts.catalogue import DEFAULT_TEXTS, Texts


@dataclass(frozen=True)
class AgentChannel:
    """A configured channel as the API knows it (no secret but the key's hash)."""

    name: str
    key_sha256: str
    requests_per_minute: int

    @classmethod
    def from_config(cls, config: AgentChannelConfig) -> AgentChannel:
        return cls(config.name, config.expected_hash(), config.requests_per_minute)


@dataclass(frozen=True)
class ChannelHook:
    """Where one channel's events go, and the secret that signs them."""

    url: str
    secret: str

    def __repr__(self) -> str:  # the secret stays out of logs
        return f"ChannelHook(url={self.url!r})"


@dataclass(frozen=True)
class AgentsSettings:
    """The agent channels (``[[agents.channels]]``) and the webhooks of those that have one."""

    channels: tuple[AgentChannel, ...]
    hooks: Mapping[str, ChannelHook] = field(default_factory=dict)


@dataclass(frozen=True)
class CoreSettings:
    """What the bot's parts need to know; ``from_config`` reads it from the TOML.

    ``signing_secrets`` empty means partner webhooks are off: a ``StatusPoller`` asks for the
    news every ``polling_interval_seconds`` instead. ``public_base_url`` is the bot's own https
    host (``[server] public_base_url``), where it re-hosts package photos (and agents' uploads,
    kept ``media_ttl_seconds``: ``[privacy] photos_hours``): the service refusing that host is
    the operators' to fix, any other photo host the customer's. ``operators`` are the chats
    operators are told in (refs of any channel, from ``[operators] chat_ids``; the log without
    Telegram). ``agents`` is None when no agent channel is configured (the bot then has no
    ``/api``). ``privacy``: how long each kind of personal data is kept (``[privacy]``).
    """

    partner_base_url: str
    partner_api_key: str
    client_options: ClientOptions = field(default_factory=ClientOptions)
    phone_region: str = "NG"
    operators: tuple[ChatRef, ...] = ()
    signing_secrets: tuple[str, ...] = ()
    webhook_path: str = DEFAULT_WEBHOOK_PATH
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES
    relay: RelayConfig | None = None
    polling_interval_seconds: float = 60.0
    agents: AgentsSettings | None = None
    texts: Texts = DEFAULT_TEXTS
    public_base_url: str | None = None
    geocoding: GeocodingConfig = field(default_factory=GeocodingConfig)
    limits: LimitsConfig = field(default_factory=LimitsConfig)
    online_payment: OnlinePayment = field(default_factory=OnlinePayment)
    handoff: HandoffSettings = field(default_factory=HandoffSettings)
    metrics: bool = False  # ``[metrics] enabled``: the business's metrics are recorded
    console: ConsoleConfig = field(default_factory=ConsoleConfig)  # the staff's web console
    # The Mini App's map tiles (``[webapp.tiles]``, while ``[webapp] enabled``): the console's
    # delivery pages draw their map on them; None, no map (the coordinates only).
    map_tiles: TilesConfig | None = None
    # On a host of many businesses (``bot.hosting``): where Telegram posts the business's
    # updates (the host's ``/telegram``, routed by secret token; None: ``public_base_url``'s),
    # and whether starting sets Telegram's webhook and command menus. A business's first
    # build after it was added or changed does; a build after an idle release does not, since
    # Telegram has them already.
    telegram_webhook_url: str | None = None
    announce: bool = True
    # ``[tracking]``: the rider on the map (off unless the business turns it on).
    tracking: TrackingConfig = field(default_factory=TrackingConfig)
    # ``[privacy]``: how long each kind of personal data is kept (the retention job's limits).
    privacy: PrivacyConfig = field(default_factory=PrivacyConfig)

    @property
    def media_ttl_seconds(self) -> float:
        """How long a re-hosted photo lives (``[privacy] photos_hours``)."""
        return self.privacy.photos_seconds

    @property
    def otp_via_webhook(self) -> bool:
        """``[relay] otp_via_webhook``: the service gives the drop-off code to the bot, which
        hands it to the receiver by link (summaries say so), rather than texting it itself."""
        return self.relay is not None and self.relay.otp_via_webhook

    @classmethod
    def from_config(cls, config: Config, *, telegram: bool = True) -> CoreSettings:
        """The settings a ``deliverybot run`` takes from its config file.

        The operators are ``[operators] chat_ids``, chats of any channel. Without Telegram (no
        token, or ``telegram`` False: ``deliverybot mcp``, whose process never runs it) its
        chats among them are left out, and when no other is left the one operator "chat" is
        the log (``OPERATOR_LOG``): what operators would be told is written there, one line
        each.
        """
        webhooks = config.webhooks
        secrets = webhooks.signing_secrets() if webhooks.enabled else []
        # The configured operator chats, each named by its channel (a number alone: Telegram).
        with_telegram = telegram and config.has_telegram
        operators = tuple(
            chat
            for chat in sorted(set(config.operators.chats))
            if with_telegram or chat.channel != TELEGRAM
        )
        return cls(
            partner_base_url=config.partner.base_url,
            partner_api_key=config.partner.api_key.get_secret_value(),
            client_options=config.partner.client_options(),
            phone_region=config.telegram.default_phone_region,
            operators=operators if with_telegram or operators else (OPERATOR_LOG,),
            signing_secrets=tuple(secret.get_secret_value() for secret in secrets),
            webhook_path=webhooks.path,
            max_body_bytes=webhooks.max_body_bytes,
            relay=config.relay,
            polling_interval_seconds=config.relay.polling_interval_seconds,
            agents=_agents(config),
            texts=config.texts.texts(),
            online_payment=OnlinePayment(
                config.payments.online_instructions, config.payments.online_link
            ),
            public_base_url=config.server.public_base_url,
            geocoding=config.geocoding,
            limits=config.limits,
            handoff=HandoffSettings.from_config(config.operators, telegram=with_telegram),
            metrics=config.metrics.enabled,
            console=config.console,
            map_tiles=config.webapp.tiles if config.webapp.enabled else None,
            tracking=config.tracking,
            privacy=config.privacy,
        )


def _agents(config: Config) -> AgentsSettings | None:
    configured = config.agents.configured
    if not configured:
        return None
    hooks = {
        channel.name: ChannelHook(channel.webhook_url, channel.webhook_secret.get_secret_value())
        for channel in configured
        if channel.webhook_url is not None and channel.webhook_secret is not None
    }
    return AgentsSettings(tuple(AgentChannel.from_config(c) for c in configured), hooks)
