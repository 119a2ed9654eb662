"""The operator's configuration: one TOML file, loaded into frozen pydantic models.

``load_config(path)`` is the entry point. A bad file never gives a traceback: it raises
``ConfigError`` whose ``problems`` are one line each, naming the key
(``[partner] base_url: must be https and end with /api/v1 ...``).

Secrets (Partner API key, webhook signing secrets, Telegram token and secret token) come either
from the file (``api_key = "..."``) or, so the file can be committed, from an environment variable
named in it (``api_key_env = "DELIVERYBOT_PARTNER_API_KEY"``), never both. Loaded secrets are
``SecretStr``; no problem line, ``repr()`` or ``render_redacted`` output contains one.

Relative paths in ``[storage]`` are resolved against the config file's directory, so the bot
finds the same files whatever directory it is started from. ``config.example.toml`` documents
every key.

The modules, one concept each:

* ``loader``: ``load_config`` (reading the file, TOML errors);
* ``problems``: pydantic errors as ``[section] key: reason`` lines, unknown-key suggestions;
* ``redaction``: ``render_redacted`` and ``redact``;
* ``root``: ``Config``, the whole file; ``partner``, ``telegram``, ``storage``,
  ``geocoding_section`` and ``relay_section``: the models of its sections, on the shared base in
  ``section``;
* ``webapp_section``: ``[webapp]``, the "Pick on the map" Mini App;
* ``tracking_section``: ``[tracking]``, the rider's position shown to the customer;
* ``console_section``: ``[console]``, the staff's web console: sign-in links, sessions, roles;
* ``agents_section``: ``[agents]``, the channels of the JSON API and MCP server;
* ``privacy_section``: ``[privacy]``, how long each kind of personal data is kept;
* ``metrics_section`` and ``logging_section``: ``[metrics]`` (``/metrics``) and ``[logging]``;
* ``secrets``: a secret from the file or from the environment; ``urls``: the https rule;
* ``config_errors``: ``ConfigError``, and ``KeyProblems`` for a table-level check;
* hosting many businesses: ``host_section`` (``[host]`` and a host file's tables),
  ``host_loading`` (``load_host``: a host file, or a single-business file as a host of one),
  ``business_files`` (a business file completed by its host's tables), ``business_scan``
  (``scan_businesses`` and ``diff_scans``: the businesses of a host's directory, cheap to
  repeat) and ``business_duplicates`` (what no two businesses may share).
"""

from bot.config.agents_section import AgentChannelConfig, AgentsConfig, key_hash
from bot.config.config_errors import ConfigError
from bot.config.console_section import CONSOLE_PATH, ConsoleConfig
from bot.config.geocoding_section import NOMINATIM_PUBLIC_DOMAIN, GeocodingConfig, NominatimConfig
from bot.config.limits_section import LimitsConfig
from bot.config.loader import load_config, load_config_or_report
from bot.config.logging_section import LoggingConfig
from bot.config.metrics_section import MetricsConfig
from bot.config.partner import RESERVED_WEB_PATHS, PartnerConfig, WebhooksConfig
from bot.config.privacy_section import PrivacyConfig
from bot.config.redaction import redact, render_redacted
from bot.config.relay_section import CustomerRelay, OperatorRelay, RelayConfig
from bot.config.root import Config
from bot.config.secrets import EnvName
from bot.config.storage import StorageConfig, StoragePath
from bot.config.telegram import DEFAULT_TELEGRAM_API_BASE_URL, OperatorsConfig, TelegramConfig
from bot.config.tracking_section import TrackingConfig
from bot.config.urls import LOOPBACK_HOSTS
from bot.config.webapp_section import WEBAPP_PATH, TilesConfig, WebappConfig

__all__ = [
    "CONSOLE_PATH",
    "DEFAULT_TELEGRAM_API_BASE_URL",
    "LOOPBACK_HOSTS",
    "NOMINATIM_PUBLIC_DOMAIN",
    "RESERVED_WEB_PATHS",
    "WEBAPP_PATH",
    "AgentChannelConfig",
    "AgentsConfig",
    "Config",
    "ConfigError",
    "ConsoleConfig",
    "CustomerRelay",
    "EnvName",
    "GeocodingConfig",
    "LimitsConfig",
    "LoggingConfig",
    "MetricsConfig",
    "NominatimConfig",
    "OperatorRelay",
    "OperatorsConfig",
    "PartnerConfig",
    "PrivacyConfig",
    "RelayConfig",
    "StorageConfig",
    "StoragePath",
    "TelegramConfig",
    "TilesConfig",
    "TrackingConfig",
    "WebappConfig",
    "WebhooksConfig",
    "key_hash",
    "load_config",
    "load_config_or_report",
    "redact",
    "render_redacted",
]
