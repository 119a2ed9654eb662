"""bot.config: loading, secrets, and one problem line per mistake, as operators see it."""

from __future__ import annotations

import json
import logging
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, SecretStr

from bot.channel_texts import shipped_channel_texts
from bot.chat_ref import TELEGRAM, ChatRef
from bot.cli import main
from bot.config import (
    Config,
    ConfigError,
    GeocodingConfig,
    NominatimConfig,
    OperatorRelay,
    load_config,
    render_redacted,
)
from bot.partner.options import ClientOptions
from bot.settings import CoreSettings
from bot.webapp import webapp_texts

API_KEY = "sk_live_TESTapiKEY0123456789abcdef"
BOT_TOKEN = "123456789:AAHsecretTOKENvalue0123456789abcdefg"
SIGNING_SECRET = "whsec_SIGNINGsecret0123456789abc"
OLD_SIGNING_SECRET = "whsec_OLDsigningSECRET987654321"
SECRET_TOKEN = "tg-SECRET-token_0123456789"
SECRETS = (API_KEY, BOT_TOKEN, SIGNING_SECRET, OLD_SIGNING_SECRET, SECRET_TOKEN)
ENV = {"TEST_BOT_TOKEN": BOT_TOKEN, "TEST_SECRET_TOKEN": SECRET_TOKEN}
EXAMPLE = Path(__file__).resolve().parents[1] / "config.example.toml"

# A production-like file (webhook mode, every section) that loads without problems or warnings.
BASE: dict[str, Any] = {
    "partner": {"base_url": "https://app.example.com/api/v1", "api_key": API_KEY},
    "telegram": {
        "token_env": "TEST_BOT_TOKEN",
        "mode": "webhook",
        "secret_token_env": "TEST_SECRET_TOKEN",
    },
    "server": {"public_base_url": "https://bot.example.com"},
    "webhooks": {"enabled": True, "signing_secret": SIGNING_SECRET},
    "operators": {"chat_ids": [42, -1001234]},
    # Absolute, as under the systemd unit (a relative path is warned about).
    "storage": {
        "path": "/var/lib/deliverybot/deliverybot.sqlite3",
        "media_dir": "/var/lib/deliverybot/media",
    },
    "geocoding": {
        "provider": "nominatim",
        "nominatim": {"user_agent": "acme-bot/1.0 (ops@acme.example)"},
    },
}
DROP = object()  # in an override: remove the key


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    return repr(value)


def _dump(table: dict[str, Any], path: tuple[str, ...] = ()) -> list[str]:
    lines = [f"{k} = {_toml_value(v)}" for k, v in table.items() if not isinstance(v, dict)]
    for key, value in table.items():
        if isinstance(value, dict):
            lines += ["", f"[{'.'.join((*path, key))}]", *_dump(value, (*path, key))]
    return lines


def _nest(override: dict[str, Any]) -> dict[str, Any]:
    nested: dict[str, Any] = {}
    for dotted, value in override.items():
        *tables, key = dotted.split(".")
        target = nested
        for table in tables:
            target = target.setdefault(table, {})
        target[key] = value
    return nested


def _merge(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in override.items():
        if value is DROP:
            merged.pop(key, None)
        elif isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def write(
    tmp_path: Path, override: dict[str, Any] | None = None, *, text: str | None = None
) -> Path:
    """A config file: BASE with ``override`` merged in, or exactly ``text``."""
    file = tmp_path / "config.toml"
    body = text if text is not None else "\n".join(_dump(_merge(BASE, _nest(override or {}))))
    file.write_text(body + "\n", encoding="utf-8")
    return file


@pytest.fixture(autouse=True)
def _environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in ENV.items():
        monkeypatch.setenv(name, value)


def test_a_full_file_loads_with_every_value(tmp_path: Path) -> None:
    override = {
        "partner": {"base_url": "https://app.example.com/api/v1/", "auth_header": "x-api-key"},
        "webhooks": {"previous_signing_secret": OLD_SIGNING_SECRET, "path": "/hooks/svc"},
        "telegram": {"default_phone_region": "gh", "listen_port": 9000},
        "storage": {
            "path": "data/bot.sqlite3",
            "media_dir": "/var/lib/bot/media",
            "synchronous": "normal",
        },
        "geocoding": {"nominatim": {"country_codes": ["NG", "gh"], "domain": "geo.local:8080"}},
        "relay": {"customer": {"tracking_link": False}, "operators": {"events": []}},
    }
    config = load_config(write(tmp_path, override))

    assert config.partner.base_url == "https://app.example.com/api/v1"  # trailing / dropped
    assert config.partner.api_key.get_secret_value() == API_KEY
    assert config.telegram.token.get_secret_value() == BOT_TOKEN
    assert config.telegram.secret_token == SecretStr(SECRET_TOKEN)
    assert config.telegram.default_phone_region == "GH"
    assert config.telegram.listen_port == 9000
    assert config.telegram.file_base_url == "https://api.telegram.org/file/bot"
    assert [s.get_secret_value() for s in config.webhooks.signing_secrets()] == [
        SIGNING_SECRET,
        OLD_SIGNING_SECRET,
    ]
    assert config.partner_webhook_url() == "https://bot.example.com/hooks/svc"
    assert config.operators.chat_ids == [42, -1001234]
    assert config.storage.path == tmp_path.absolute() / "data" / "bot.sqlite3"
    assert config.storage.media_dir == Path("/var/lib/bot/media")
    assert config.storage.sqlite_synchronous == "NORMAL"
    assert config.geocoding.nominatim is not None
    assert config.geocoding.nominatim.country_codes == ["ng", "gh"]
    assert config.geocoding.nominatim.domain == "geo.local:8080"
    assert config.relay.customer.tracking_link is False
    assert config.relay.operators.events == []
    assert config.warnings() == [
        f'[storage] path: relative ("data/bot.sqlite3"), so {config.storage.path}, beside the '
        "config file: under the systemd unit (ProtectSystem=strict) that directory is "
        "read-only; write an absolute path, e.g. under /var/lib/deliverybot"
    ]
    assert config.partner.client_options() == ClientOptions(auth_header="x-api-key")


def test_defaults_come_from_the_client_options_and_the_documented_values(tmp_path: Path) -> None:
    minimal = {
        "partner": {"base_url": "https://app.example.com/api/v1", "api_key": API_KEY},
        "telegram": {"token": BOT_TOKEN},
    }
    config = load_config(write(tmp_path, text="\n".join(_dump(minimal))))

    assert config.partner.client_options() == ClientOptions()
    assert config.telegram.mode == "polling"
    assert config.telegram.api_base_url == "https://api.telegram.org/bot"
    assert config.webhooks.enabled is False
    assert config.webhooks.path == "/hooks/partner"
    assert config.storage.path == tmp_path.absolute() / "deliverybot.sqlite3"
    assert config.storage.sqlite_synchronous == "FULL"
    assert config.geocoding == GeocodingConfig(provider="none", nominatim=None)
    assert config.relay.operators == OperatorRelay()
    assert len(config.relay.operators.events) == 6
    assert config.partner_webhook_url() is None


def test_secrets_come_from_the_environment_mapping_given(tmp_path: Path) -> None:
    override = {"partner": {"api_key": DROP, "api_key_env": "MY_KEY"}}
    environ = {**ENV, "MY_KEY": API_KEY}
    config = load_config(write(tmp_path, override), environ=environ)
    assert config.partner.api_key.get_secret_value() == API_KEY
    assert config.partner.api_key_env == "MY_KEY"

    with pytest.raises(ConfigError) as raised:
        load_config(write(tmp_path, override), environ=ENV)
    assert raised.value.problems == [
        "[partner] api_key: environment variable MY_KEY (named by api_key_env) is empty or not set"
    ]


def test_secrets_default_to_the_process_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MY_KEY", API_KEY)
    override = {"partner": {"api_key": DROP, "api_key_env": "MY_KEY"}}
    assert load_config(write(tmp_path, override)).partner.api_key == SecretStr(API_KEY)


def test_a_loaded_config_never_shows_a_secret(tmp_path: Path) -> None:
    override = {"webhooks": {"previous_signing_secret": OLD_SIGNING_SECRET}}
    config = load_config(write(tmp_path, override))
    rendered = render_redacted(config)
    for shown in (repr(config), str(config), rendered, config.model_dump_json()):
        for secret in SECRETS:
            assert secret not in shown
    assert 'api_key = "sk_live_…(redacted)"  # from this file' in rendered
    assert 'token = "***"  # from environment variable TEST_BOT_TOKEN' in rendered
    assert 'signing_secret = "whsec_…(redacted)"  # from this file' in rendered


def test_the_rendered_settings_are_toml_with_the_effective_values(tmp_path: Path) -> None:
    config = load_config(write(tmp_path))
    rendered = tomllib.loads(render_redacted(config))
    assert rendered["partner"]["base_url"] == config.partner.base_url
    assert rendered["partner"]["read_timeout"] == config.partner.read_timeout
    assert rendered["telegram"]["file_base_url"] == "https://api.telegram.org/file/bot"
    assert rendered["storage"]["path"] == str(config.storage.path)
    assert rendered["geocoding"]["nominatim"]["min_delay_seconds"] == 1.0
    assert rendered["relay"]["operators"]["events"] == config.relay.operators.events
    assert "api_key_env" not in rendered["partner"]  # shown as the secret's source instead


def test_sections_built_in_code_need_no_file() -> None:
    nominatim = NominatimConfig(user_agent="acme-bot/1.0 (ops@acme.example)", domain="geo.local")
    assert nominatim.scheme == "https"
    assert GeocodingConfig(provider="nominatim", nominatim=nominatim).nominatim == nominatim


_BASE_URL_RULE = (
    "must be https and end with /api/v1 (plain http only for 127.0.0.1 or localhost, "
    "e.g. the local sandbox)"
)
_BOT_API_RULE = (
    "must be https (plain http only for 127.0.0.1 or localhost) and end with /bot, "
    "e.g. https://api.telegram.org/bot"
)
_LEGACY_KEY = "must start with sk_live_: only live keys work, the service rejects legacy test keys"
_SET_ENV = "set {0}_env to the name of an environment variable holding it (or {0} in the file)"

# (name, override with dotted keys into BASE, the problem lines check-config must print)
# fmt: off
PROBLEMS: list[tuple[str, dict[str, Any], list[str]]] = [
    # [partner]
    ("http base url", {"partner.base_url": "http://app.example.com/api/v1"},
     [f"[partner] base_url: {_BASE_URL_RULE}"]),
    ("base url without version", {"partner.base_url": "https://app.example.com/api"},
     [f"[partner] base_url: {_BASE_URL_RULE}"]),
    ("base url with a query", {"partner.base_url": "https://app.example.com/api/v1?x=1"},
     ["[partner] base_url: must not carry a user name, password, query or fragment"]),
    ("base url with a bad port", {"partner.base_url": "https://app.example.com:x/api/v1"},
     ["[partner] base_url: has an invalid port"]),
    ("legacy test key", {"partner.api_key": "sk_test_0123456789abcdef"},
     [f"[partner] api_key: {_LEGACY_KEY}"]),
    ("legacy key from the environment",
     {"partner.api_key": DROP, "partner.api_key_env": "TEST_LEGACY_KEY"},
     [f"[partner] api_key: {_LEGACY_KEY} (value of environment variable TEST_LEGACY_KEY)"]),
    ("key with a line break", {"partner.api_key": API_KEY + "\n"},
     ["[partner] api_key: contains spaces or line breaks (a copy-paste slip?)"]),
    ("key given twice", {"partner.api_key_env": "TEST_BOT_TOKEN"},
     ["[partner] api_key: give either api_key or api_key_env, not both"]),
    ("key missing", {"partner.api_key": DROP},
     ["[partner] api_key: required: " + _SET_ENV.format("api_key")]),
    ("key variable unset", {"partner.api_key": DROP, "partner.api_key_env": "TEST_UNSET"},
     ["[partner] api_key: environment variable TEST_UNSET (named by api_key_env) is empty or "
      "not set"]),
    ("secret pasted as the variable name",
     {"partner.api_key": DROP, "partner.api_key_env": API_KEY},
     ["[partner] api_key_env: must be the name of an environment variable (A-Z, 0-9 and _), "
      "not the secret itself"]),
    ("key not a string", {"partner.api_key": 12345}, ["[partner] api_key: must be a string"]),
    ("auth header style", {"partner.auth_header": "basic"},
     ['[partner] auth_header: must be "bearer" or "x-api-key"']),
    ("timeout as a string", {"partner.connect_timeout": "5"},
     ["[partner] connect_timeout: must be a valid number (got a string)"]),
    ("no attempts", {"partner.max_attempts": 0},
     ["[partner] max_attempts: must be greater than or equal to 1"]),
    ("attempts as a bool", {"partner.max_attempts": True},
     ["[partner] max_attempts: must be a valid integer (got true or false)"]),
    ("backoff cap below base",
     {"partner.backoff_base_seconds": 10.0, "partner.backoff_cap_seconds": 5.0},
     ["[partner] backoff_cap_seconds: must not be below backoff_base_seconds"]),
    ("typo in a key", {"partner.base_ur": "x"},
     ["[partner] base_ur: unknown key (did you mean base_url?)"]),
    ("unknown key far from any", {"partner.colour": "blue"}, ["[partner] colour: unknown key"]),
    ("required key missing", {"partner.base_url": DROP},
     ["[partner] base_url: required key is missing"]),
    ("section not a table", {"partner": 5}, ["[partner]: must be a table"]),
    ("typo in a section", {"parnter.x": 1},
     ["[parnter]: unknown table (did you mean [partner]?)"]),
    ("top-level key", {"debug": True}, ["debug: unknown key"]),
    # [telegram]
    ("malformed bot token", {"telegram.token_env": DROP, "telegram.token": "12345-not-a-token"},
     ["[telegram] token: does not look like a bot token from @BotFather (<digits>:<about 35 "
      "letters, digits, _ or ->)"]),
    ("token missing in webhook mode", {"telegram.token_env": DROP},
     ['[telegram] token: required when mode = "webhook": ' + _SET_ENV.format("token")]),
    ("neither Telegram nor an agent channel",
     {"telegram.token_env": DROP, "telegram.mode": "polling", "telegram.secret_token_env": DROP},
     ["[telegram] token: no channel takes orders; enable one. Telegram: "
      + _SET_ENV.format("token") + "; or an agent channel: list it in [[agents.channels]]; "
      "or another channel of this bot: its [channels.<name>] table; or WhatsApp: [whatsapp] "
      "phone_number_id with its access_token, app_secret and verify_token"]),
    ("webhook mode without a host or secret token",
     {"server.public_base_url": DROP, "telegram.secret_token_env": DROP,
      "webhooks.enabled": False, "webhooks.signing_secret": DROP},
     ['[telegram] secret_token: required when mode = "webhook": '
      + _SET_ENV.format("secret_token"),
      '[server] public_base_url: required when [telegram] mode = "webhook": Telegram posts '
      "updates to it"]),
    ("secret token with bad characters",
     {"telegram.secret_token_env": DROP, "telegram.secret_token": "no!good"},
     ["[telegram] secret_token: must be 1 to 256 characters of A-Z, a-z, 0-9, _ and -"]),
    ("public url over http", {"telegram.public_base_url": "http://bot.example.com"},
     ["[telegram] public_base_url: must be an https URL (plain http only for 127.0.0.1 or "
      "localhost, for local tests)"]),
    ("bot api over http", {"telegram.api_base_url": "http://botapi.example.com/bot"},
     [f"[telegram] api_base_url: {_BOT_API_RULE}"]),
    ("bot api without /bot", {"telegram.api_base_url": "https://botapi.example.com"},
     [f"[telegram] api_base_url: {_BOT_API_RULE}"]),
    ("unknown mode", {"telegram.mode": "pooling"},
     ['[telegram] mode: must be "polling" or "webhook"']),
    ("unknown phone region", {"telegram.default_phone_region": "XX"},
     ["[telegram] default_phone_region: must be a two-letter ISO 3166 region code known to "
      'phonenumbers, e.g. "NG", "GH", "KE", "GB"']),
    ("port out of range", {"telegram.listen_port": 0},
     ["[telegram] listen_port: must be greater than or equal to 1"]),
    ("a fraction where a whole number is needed", {"operators.handoff_reply_minutes": 15.5},
     ["[operators] handoff_reply_minutes: must be a whole number (got a number with a "
      "decimal point)"]),
    ("a switch written as a string", {"webhooks.enabled": "yes"},
     ["[webhooks] enabled: must be true or false, without quotes (got a string)"]),
    ("a log level nobody has", {"logging.level": "verbose"},
     ['[logging] level: must be "DEBUG", "INFO", "WARNING" or "ERROR"']),
    # [webhooks]
    ("webhooks without a signing secret", {"webhooks.signing_secret": DROP},
     ["[webhooks] signing_secret: required when enabled = true: "
      + _SET_ENV.format("signing_secret")]),
    ("webhooks without a public host",
     {"telegram.mode": "polling", "server.public_base_url": DROP,
      "telegram.secret_token_env": DROP},
     ["[webhooks] enabled: needs [server] public_base_url: the service posts events to a "
      "public host"]),
    ("signing secret of another kind", {"webhooks.previous_signing_secret": API_KEY},
     ["[webhooks] previous_signing_secret: must start with whsec_ (the endpoint's signing "
      "secret from the dashboard)"]),
    ("webhook path taken by the web app", {"webhooks.path": "/media/hooks"},
     ["[webhooks] path: /media is a route of the bot's web app; choose another path"]),
    ("webhook path with a query", {"webhooks.path": "/hooks?x=1"},
     ["[webhooks] path: must be a URL path such as /hooks/partner (no query, no trailing /)"]),
    # [operators], [storage]
    ("operator listed twice and a zero id", {"operators.chat_ids": [42, 0, 42]},
     ["[operators] chat_ids[1]: 0 is not a telegram chat id",
      "[operators] chat_ids[2]: listed twice"]),
    ("operator listed twice, once by its channel", {"operators.chat_ids": [42, "telegram:42"]},
     ["[operators] chat_ids[1]: listed twice"]),
    ("operator id not a chat", {"operators.chat_ids": [42, "@ops", "console:one", 1.5]},
     ["[operators] chat_ids[1]: '@ops' is not a chat: a chat is written channel:id "
      "(telegram:-1001234567890, console:1), or a Telegram chat id alone",
      "[operators] chat_ids[2]: 'console:one' is not a chat: a chat is written channel:id "
      "(telegram:-1001234567890, console:1), or a Telegram chat id alone",
      "[operators] chat_ids[3]: 1.5 is not a chat: a chat is written channel:id "
      "(telegram:-1001234567890, console:1), or a Telegram chat id alone"]),
    ("photos that never last", {"storage.media_ttl_hours": 0},
     ["[storage] media_ttl_hours: must be greater than 0"]),
    ("unfinished orders dropped within the day", {"storage.session_idle_days": 0.5},
     ["[storage] session_idle_days: must be greater than or equal to 1"]),
    ("unfinished orders kept for years", {"storage.session_idle_days": 400},
     ["[storage] session_idle_days: must be less than or equal to 365"]),
    ("durability SQLite does not offer here", {"storage.synchronous": "off"},
     ['[storage] synchronous: must be "full" or "normal"']),
    # [geocoding]
    ("nominatim without its table", {"geocoding.nominatim": DROP},
     ['[geocoding.nominatim]: required when provider = "nominatim": add the table with at '
      "least user_agent"]),
    ("nominatim with a stock user agent", {"geocoding.nominatim.user_agent": "geopy/2.4.1"},
     ['[geocoding.nominatim] user_agent: must identify your bot and a contact, e.g. '
      '"acme-deliverybot/1.0 (ops@acme.example)": Nominatim\'s usage policy blocks stock '
      "agents"]),
    ("public nominatim faster than its policy", {"geocoding.nominatim.min_delay_seconds": 0.5},
     ["[geocoding.nominatim] min_delay_seconds: must be at least 1 for the public Nominatim: "
      "its usage policy allows 1 request per second"]),
    ("bad country code and a typo",
     {"geocoding.nominatim.country_codes": ["ng", "NGA"], "geocoding.nominatim.user_agnt": "x"},
     ['[geocoding.nominatim] country_codes[1]: must be a two-letter ISO 3166 code, e.g. "ng"',
      "[geocoding.nominatim] user_agnt: unknown key (did you mean user_agent?)"]),
    # [relay]
    ("unknown event type", {"relay.operators.events": ["delivery.created", "delivery.paid"]},
     ['[relay.operators] events[1]: must be "delivery.created", "delivery.updated", '
      '"delivery.status_changed", "delivery.cancelled", "delivery.completed" or '
      '"delivery.otp_issued"']),
    ("polling too often", {"relay.polling_interval_seconds": 1},
     ["[relay] polling_interval_seconds: must be greater than or equal to 10"]),
    ("typo in a sub-table", {"relay.customers.tracking_link": True},
     ["[relay.customers]: unknown table (did you mean [relay.customer]?)"]),
    # [texts]
    ("a locale Babel does not know", {"texts.locale": "english"},
     ["[texts] locale: 'english' is not a locale Babel knows (like en_NG, en_GB or fr_FR)"]),
    ("an override of a message that does not exist", {"texts.en": {"desk.nope": "Hi"}},
     ["[texts.en] desk.nope: no such message id"]),
    ("an override of a channel's message that does not exist",
     {"texts.en": {"telegram.nope": "Hi"}},
     ["[texts.en] telegram.nope: no such message id"]),
    ("an override of a channel's message with a wrong placeholder",
     {"texts.en": {"console.photos_refused": "Not these: {problem}"}},
     ["[texts.en] console.photos_refused: unknown placeholder {problem} (the message has "
      "{problems})",
      "[texts.en] console.photos_refused: drops the placeholder {problems} (the message has "
      "{problems})"]),
    ("an override with a placeholder the message does not have",
     {"texts.en": {"desk.cancelled": "Order {reference} is off."}},
     ["[texts.en] desk.cancelled: unknown placeholder {reference} (the message has {ref})",
      "[texts.en] desk.cancelled: drops the placeholder {ref} (the message has {ref})"]),
    ("a French override that drops a placeholder",
     {"texts.fr": {"delivery.tracking": "Suivez-la ici."}},
     ["[texts.fr] delivery.tracking: drops the placeholder {url} (the message has {url})"]),
    ("overrides for a language that is not shipped", {"texts.de": {"desk.busy": "Moment."}},
     ["[texts.de]: no shipped language de (shipped: en, fr)"]),
    ("a backend nobody wrote", {"storage.backend": "mysql"},
     ['[storage] backend: must be "sqlite" or "postgres"']),
    ("postgres without its table", {"storage.backend": "postgres"},
     ['[storage]: backend = "postgres" needs a [storage.postgres] table with dsn or dsn_env']),
    ("a dsn that is no URL", {"storage.backend": "postgres", "storage.postgres.dsn": "host=db"},
     ["[storage.postgres] dsn: must be a PostgreSQL connection URL: "
      "postgresql://user:password@host:5432/database"]),
    ("a dsn variable that is unset", {"storage.postgres.dsn_env": "TEST_UNSET"},
     ["[storage.postgres] dsn: environment variable TEST_UNSET (named by dsn_env) "
      "is empty or not set"]),
    ("a tiny pool", {"storage.postgres.dsn": "postgresql://bot:pw@db/bot",
                     "storage.postgres.pool_size": 1},
     ["[storage.postgres] pool_size: must be greater than or equal to 2"]),
    # [limits]
    ("verified phones as a word", {"limits.verify_sender_phone": "yes"},
     ["[limits] verify_sender_phone: must be true or false, without quotes (got a string)"]),
]
# fmt: on


@pytest.mark.parametrize(
    ("override", "expected"),
    [pytest.param(override, expected, id=name) for name, override, expected in PROBLEMS],
)
def test_each_problem_is_one_line_naming_its_key(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    override: dict[str, Any],
    expected: list[str],
) -> None:
    monkeypatch.setenv("TEST_LEGACY_KEY", "sk_test_0123456789abcdef")
    monkeypatch.delenv("TEST_UNSET", raising=False)

    exit_code = main(["check-config", str(write(tmp_path, override))])

    out, err = capsys.readouterr()
    assert (exit_code, out, err.splitlines()) == (2, "", expected)
    for secret in (*SECRETS, "sk_test_0123456789abcdef"):
        assert secret not in err


def test_every_problem_in_a_file_is_reported_at_once(tmp_path: Path) -> None:
    override = {
        "partner": {"base_url": "ftp://x", "max_attempts": 0, "api_key": "sk_test_0123456789"},
        "telegram": {"listen_port": 70000},
        "storage": {"media_ttl_hours": -1},
    }
    with pytest.raises(ConfigError) as raised:
        load_config(write(tmp_path, override))
    assert [line.split(":")[0] for line in raised.value.problems] == [
        "[partner] base_url",
        "[partner] api_key",
        "[partner] max_attempts",
        "[telegram] listen_port",
        "[storage] media_ttl_hours",
    ]
    assert raised.value.__cause__ is None  # nothing chained that could carry input values
    assert "sk_test_0123456789" not in str(raised.value)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            '[partner]\nbase_url = "https://x/api/v1"\napi_key = \n',
            ":3:11: invalid TOML: Invalid value",
        ),
        ("[partner\n", ":1:9: invalid TOML: Expected ']' at the end of a table declaration"),
        ("[partner]\n[partner]\n", ":2:9: invalid TOML: Cannot declare ('partner',) twice"),
    ],
)
def test_toml_syntax_errors_give_their_position(tmp_path: Path, text: str, expected: str) -> None:
    file = write(tmp_path, text=text)
    with pytest.raises(ConfigError) as raised:
        load_config(file)
    assert raised.value.problems == [f"{file}{expected}"]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("yes", "use true or false"),
        ("Off  # for now", "use true or false"),
        ("polling", 'put text in quotes ("..."), or use true or false'),
    ],
)
def test_a_bare_word_says_what_to_write_naming_its_key(
    tmp_path: Path, value: str, expected: str
) -> None:
    text = f'[partner]\nbase_url = "https://x/api/v1"\n\n[webhooks]\nenabled = {value}\n'
    file = write(tmp_path, text=text)
    with pytest.raises(ConfigError) as raised:
        load_config(file)
    bare = "[webhooks] enabled: a bare word is not a TOML value"
    assert raised.value.problems == [f"{file}:5:11: invalid TOML: {bare}: {expected}"]


def test_a_bare_secret_is_not_repeated(tmp_path: Path) -> None:
    file = write(tmp_path, text="[partner]\napi_key = sk_live_0123456789abcdef\n")
    with pytest.raises(ConfigError) as raised:
        load_config(file)
    assert raised.value.problems == [
        f"{file}:2:11: invalid TOML: [partner] api_key: a bare word is not a TOML value: put "
        'text in quotes ("..."), or use true or false'
    ]


@pytest.mark.parametrize("level", ["info", "Info", "INFO", "debug", "Warning"])
def test_log_levels_are_read_in_any_case(tmp_path: Path, level: str) -> None:
    config = load_config(write(tmp_path, {"logging.level": level}))
    assert config.logging.level == level.upper()
    assert config.logging.level_number == logging.getLevelNamesMapping()[level.upper()]


def test_a_file_that_is_not_utf8_is_reported_with_its_line(tmp_path: Path) -> None:
    file = tmp_path / "config.toml"
    file.write_bytes(b'[partner]\nbase_url = "\xff"\n')
    with pytest.raises(ConfigError) as raised:
        load_config(file)
    assert raised.value.problems == [f"{file}:2: invalid TOML: not UTF-8 text"]


def test_a_missing_file_or_a_directory_is_one_problem(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as raised:
        load_config(tmp_path / "nope.toml")
    assert raised.value.problems == [f"{tmp_path / 'nope.toml'}: file not found"]
    with pytest.raises(ConfigError) as raised:
        load_config(tmp_path)
    assert raised.value.problems == [f"{tmp_path}: is a directory, not a file"]


# fmt: off
WARNINGS: list[tuple[str, dict[str, Any], list[str]]] = [
    ("no operators", {"operators.chat_ids": []},
     ["[operators] chat_ids: empty: nobody may use operator commands, and event summaries and "
      "agent notes go nowhere"]),
    ("no public host, secrets unused",
     {"telegram.mode": "polling", "server.public_base_url": DROP, "webhooks.enabled": False},
     ["[server] public_base_url: not set: package photos cannot be hosted, so pickup "
      "deliveries and photo errands cannot be ordered",
      "[webhooks] signing_secret: ignored while enabled = false",
      '[telegram] secret_token: ignored while mode = "polling"']),
    ("loopback hosts",
     {"partner.base_url": "http://127.0.0.1:8787/api/v1",
      "server.public_base_url": "http://localhost:8080"},
     ["[server] public_base_url: a loopback host: only local tests can reach it, not "
      "Telegram or the Partner API",
      "[partner] base_url: a loopback host: this is a local sandbox, not the real service"]),
]
# fmt: on


@pytest.mark.parametrize(
    ("override", "expected"),
    [pytest.param(override, expected, id=name) for name, override, expected in WARNINGS],
)
def test_likely_mistakes_are_warnings(
    tmp_path: Path, override: dict[str, Any], expected: list[str]
) -> None:
    assert load_config(write(tmp_path, override)).warnings() == expected


def test_the_example_file_passes_with_its_environment_variables_set() -> None:
    environ = {"DELIVERYBOT_PARTNER_API_KEY": API_KEY, "DELIVERYBOT_TELEGRAM_TOKEN": BOT_TOKEN}
    config = load_config(EXAMPLE, environ=environ)
    assert config.partner.base_url == "http://127.0.0.1:8787/api/v1"  # the local sandbox
    assert config.telegram.mode == "polling"

    with pytest.raises(ConfigError) as raised:
        load_config(EXAMPLE, environ={})
    assert raised.value.problems == [
        "[partner] api_key: environment variable DELIVERYBOT_PARTNER_API_KEY (named by "
        "api_key_env) is empty or not set",
        "[telegram] token: environment variable DELIVERYBOT_TELEGRAM_TOKEN (named by "
        "token_env) is empty or not set",
    ]


def _tables(model: type[BaseModel], name: str) -> dict[str, type[BaseModel]]:
    found = {name: model}
    for key, field in model.model_fields.items():
        sub = field.annotation
        for candidate in (sub, *getattr(sub, "__args__", ())):
            if isinstance(candidate, type) and issubclass(candidate, BaseModel):
                found |= _tables(candidate, f"{name}.{key}" if name else key)
    return found


def test_the_example_file_documents_every_key() -> None:
    sections: dict[str, str] = {}
    current = ""
    for line in EXAMPLE.read_text(encoding="utf-8").splitlines():
        header = re.fullmatch(r"#? ?\[([a-z_.]+)\]", line)
        if header:
            current = header[1]
        else:
            sections[current] = sections.get(current, "") + line + "\n"
    for table, model in _tables(Config, "").items():
        if not table:
            continue
        for key in model.model_fields:
            if table + "." + key in sections:
                continue  # a sub-table, documented under its own header
            assert re.search(rf"^(# )?{key} = ", sections[table], re.MULTILINE), (table, key)


def test_texts_overrides_load_and_show_in_the_effective_settings(tmp_path: Path) -> None:
    override = {"texts.locale": "en_GB", "texts.en": {"desk.busy": "One moment, please."}}
    config = load_config(write(tmp_path, override))
    texts = config.texts.texts()
    assert texts.locale == "en_GB"
    assert texts.catalogue_for("en").say("desk.busy") == "One moment, please."
    assert texts.catalogue_for("fr").say("desk.busy").startswith("Le service de livraison")
    rendered = render_redacted(config)
    assert (
        '[texts]\nlocale = "en_GB"\nservice_language = "en"\n'
        'en = { "desk.busy" = "One moment, please." }\nfr = {}' in rendered
    )
    assert tomllib.loads(rendered)["texts"]["en"] == {"desk.busy": "One moment, please."}


def test_a_postgres_dsn_loads_from_the_environment_and_is_never_shown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    dsn = "postgresql://bot:pg-s3cret@db.internal:5432/deliverybot"
    monkeypatch.setenv("TEST_PG_DSN", dsn)
    override = {"storage.backend": "postgres", "storage.postgres.dsn_env": "TEST_PG_DSN"}
    path = write(tmp_path, override)

    config = load_config(path)
    assert config.storage.postgres is not None
    assert config.storage.postgres.dsn.get_secret_value() == dsn
    assert main(["check-config", str(path)]) == 0
    out, err = capsys.readouterr()
    assert 'backend = "postgres"' in out
    assert 'dsn = "***"  # from environment variable TEST_PG_DSN' in out
    assert "pg-s3cret" not in out + err


def test_postgres_in_polling_mode_is_warned_about(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    override = {
        "storage.backend": "postgres",
        "storage.postgres.dsn": "postgresql://bot:pw@db.internal/bot",
        "telegram.mode": "polling",
    }
    assert main(["check-config", str(write(tmp_path, override))]) == 0
    assert 'with [telegram] mode = "polling": run one instance only' in capsys.readouterr().err


@pytest.mark.parametrize(
    ("uncommented", "message_id", "starts"),
    [
        (("en = {", "fr = {"), "desk.none_yet", "No deliveries yet!"),
        (("[texts.en]", '"telegram.greeting" = '), "telegram.greeting", "Welcome to Acme"),
    ],
    ids=["inline", "table"],
)
def test_the_example_files_texts_overrides_load_as_written(
    tmp_path: Path, uncommented: tuple[str, ...], message_id: str, starts: str
) -> None:
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()
    opened = [
        line[2:] if line.startswith("# ") and line[2:].startswith(uncommented) else line
        for line in lines
    ]
    assert len([a for a, b in zip(lines, opened, strict=True) if a != b]) == 2
    environ = {"DELIVERYBOT_PARTNER_API_KEY": API_KEY, "DELIVERYBOT_TELEGRAM_TOKEN": BOT_TOKEN}
    config = load_config(
        write(tmp_path, text="\n".join(opened)),
        environ=environ,
        channel_texts=shipped_channel_texts,
    )
    assert config.texts.texts().catalogue_for("en").say(message_id, new="/new").startswith(starts)


def test_overrides_of_a_channels_words_are_checked_against_that_channels_words(
    tmp_path: Path,
) -> None:
    # The channels' words live in their own modules (bot.channel_texts): the configuration is
    # checked against whichever channels its loader names, the command line all it ships.
    override = {"texts.fr": {"telegram.greeting": "Bienvenue chez Acme."}}
    texts = load_config(write(tmp_path, override), channel_texts=shipped_channel_texts).texts
    said = texts.texts().catalogue_for("fr")
    assert said.say("telegram.greeting") == "Bienvenue chez Acme."
    assert said.say("webapp.title") == webapp_texts.FR["webapp.title"]
    assert main(["check-config", str(write(tmp_path, override))]) == 0
    with pytest.raises(ConfigError) as raised:
        load_config(write(tmp_path, override))  # no channel named: the core's messages only
    assert raised.value.problems == ["[texts.fr] telegram.greeting: no such message id"]


def test_payments_online_link_must_be_https_with_ref_or_id(tmp_path: Path) -> None:
    config = load_config(
        write(tmp_path, {"payments.online_link": "https://pay.example/{ref}?d={id}"})
    )
    assert config.payments.online_link == "https://pay.example/{ref}?d={id}"
    for bad in ("http://pay.example/{ref}", "https://pay.example/{amount}"):
        with pytest.raises(ConfigError) as error:
            load_config(write(tmp_path, {"payments.online_link": bad}))
        assert "[payments] online_link" in str(error.value)


def test_sender_phones_are_typed_unless_verification_is_turned_on(tmp_path: Path) -> None:
    assert load_config(write(tmp_path)).limits.verify_sender_phone is False
    on = write(tmp_path, {"limits.verify_sender_phone": True})
    assert load_config(on).limits.verify_sender_phone is True


def test_relative_storage_paths_are_warned_about(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Resolved beside the config file, which the systemd unit's ProtectSystem=strict makes
    # read-only: a warning line, not an error (a relative path is fine outside the unit).
    override = {"storage.path": DROP, "storage.media_dir": "photos"}
    path = write(tmp_path, override)
    config = load_config(path)
    read_only = (
        "beside the config file: under the systemd unit (ProtectSystem=strict) that directory "
        "is read-only; write an absolute path, e.g. under /var/lib/deliverybot"
    )
    assert config.warnings() == [
        f'[storage] path: relative ("deliverybot.sqlite3", the default), so '
        f"{tmp_path.absolute() / 'deliverybot.sqlite3'}, {read_only}",
        f'[storage] media_dir: relative ("photos"), so {tmp_path.absolute() / "photos"}, '
        f"{read_only}",
    ]
    assert main(["check-config", str(path)]) == 0
    err = capsys.readouterr().err
    assert err.count("warning: [storage] ") == 2

    # On PostgreSQL the SQLite path is not used: only media_dir is worth a word.
    postgres = {**override, "storage.backend": "postgres",
                "storage.postgres.dsn": "postgresql://bot:pw@db.internal/bot"}  # fmt: skip
    warned = load_config(write(tmp_path, postgres)).warnings()
    assert [line.split(":")[0] for line in warned] == ["[storage] media_dir"]


def test_operators_are_chats_of_any_channel_a_number_alone_being_telegram_s(
    tmp_path: Path,
) -> None:
    written = [42, "telegram:-1001234", "console:1", "whatsapp:2347000000001"]
    config = load_config(write(tmp_path, {"operators.chat_ids": written}))

    assert config.operators.chats == (
        ChatRef(TELEGRAM, 42),
        ChatRef(TELEGRAM, -1001234),
        ChatRef("console", 1),
        ChatRef("whatsapp", 2347000000001),
    )
    settings = CoreSettings.from_config(config)
    assert set(settings.operators) == set(config.operators.chats)
    # Staff see hand-offs in the first Telegram chat among them.
    assert settings.handoff.staff_chat == 42
