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
"""

from __future__ import annotations

import difflib
import json
import os
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal, get_args
from urllib.parse import urlsplit

import phonenumbers
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    SecretStr,
    ValidationError,
    ValidationInfo,
    ValidatorFunctionWrapHandler,
    field_validator,
    model_validator,
)

from bot.partner.models import API_KEY_PREFIX, SIGNING_SECRET_PREFIX, EventType
from bot.partner.options import AuthHeaderStyle, ClientOptions

LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
DEFAULT_TELEGRAM_API_BASE_URL = "https://api.telegram.org/bot"
_DEFAULT_FILE_BASE_URL = "https://api.telegram.org/file/bot"
NOMINATIM_PUBLIC_DOMAIN = "nominatim.openstreetmap.org"
# Routes of the bot's own web app; the partner webhook path must not shadow them.
RESERVED_WEB_PATHS = ("/telegram", "/media", "/health")

_CLIENT = ClientOptions()
_ENV_NAME = re.compile(r"[A-Z_][A-Z0-9_]*")
_STOCK_USER_AGENTS = ("geopy", "python-requests", "python-httpx", "python-urllib", "curl/")


class ConfigError(Exception):
    """The configuration file cannot be used; ``problems`` holds one line per problem."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("\n".join(problems))


class _KeyProblems(ValueError):
    """Problems found by a table-level check, each reported at its own key (a relative loc)."""

    def __init__(self, problems: list[tuple[tuple[str | int, ...], str]]) -> None:
        self.problems = problems
        super().__init__("; ".join(message for _, message in problems))


def _check_env_name(name: str) -> str:
    # Never echo the value: the usual slip is pasting the secret itself here.
    if not _ENV_NAME.fullmatch(name):
        raise ValueError(
            "must be the name of an environment variable (A-Z, 0-9 and _), not the secret itself"
        )
    return name


EnvName = Annotated[str, AfterValidator(_check_env_name)]

# What each kind of secret looks like, and the problem line when it does not.
_Shape = tuple[re.Pattern[str], str]
_API_KEY: _Shape = (
    re.compile(re.escape(API_KEY_PREFIX) + r"\S+"),
    f"must start with {API_KEY_PREFIX}: only live keys work, the service rejects legacy test keys",
)
_SIGNING_SECRET: _Shape = (
    re.compile(re.escape(SIGNING_SECRET_PREFIX) + r"\S+"),
    f"must start with {SIGNING_SECRET_PREFIX} (the endpoint's signing secret from the dashboard)",
)
_BOT_TOKEN: _Shape = (
    re.compile(r"\d{3,20}:[A-Za-z0-9_-]{30,64}"),
    "does not look like a bot token from @BotFather (<digits>:<about 35 letters, digits, _ or ->)",
)
_SECRET_TOKEN: _Shape = (
    re.compile(r"[A-Za-z0-9_-]{1,256}"),
    "must be 1 to 256 characters of A-Z, a-z, 0-9, _ and -",
)


def _secret(
    value: object,
    handler: ValidatorFunctionWrapHandler,
    info: ValidationInfo,
    *,
    required: bool,
    when: str = "",
    shape: _Shape,
) -> SecretStr | None:
    """Resolve a secret from the file or from the environment variable named by ``<key>_env``.

    For a wrap validator of the secret field: ``when`` says under which condition it is
    ``required``. The ``<key>_env`` field must be declared before the secret so that
    ``info.data`` holds it.
    """
    key = info.field_name
    env_key = f"{key}_env"
    if env_key not in info.data:  # the variable name itself is invalid, and reported
        return None
    env_name = info.data[env_key]
    origin = ""
    if isinstance(value, SecretStr):  # built in code rather than read from a file
        value = value.get_secret_value()
    if value is not None and env_name is not None:
        raise ValueError(f"give either {key} or {env_key}, not both")
    if env_name is not None:
        environ: Mapping[str, str] = (info.context or {}).get("environ", os.environ)
        value = environ.get(env_name, "")
        if not value:
            raise ValueError(
                f"environment variable {env_name} (named by {env_key}) is empty or not set"
            )
        origin = f" (value of environment variable {env_name})"
    if value is None:
        if not required:
            return None
        raise ValueError(
            f"required{when}: set {env_key} to the name of an environment variable holding it "
            f"(or {key} in the file)"
        )
    if not isinstance(value, str):
        raise ValueError("must be a string")
    if any(ch.isspace() for ch in value):
        raise ValueError(f"contains spaces or line breaks (a copy-paste slip?){origin}")
    pattern, rule = shape
    if not pattern.fullmatch(value):
        raise ValueError(f"{rule}{origin}")
    secret: SecretStr = handler(value)
    return secret


def _url(value: str, *, rule: str, path_suffix: str = "") -> str:
    """``value`` without a trailing slash if it is https (or http on a loopback host), has a
    host and ends with ``path_suffix``; else ``ValueError(rule)``."""
    url = value.strip().rstrip("/")
    parts = urlsplit(url)
    plain_http_ok = parts.scheme == "http" and parts.hostname in LOOPBACK_HOSTS
    if (
        not (parts.scheme == "https" or plain_http_ok)
        or not parts.hostname
        or not parts.path.endswith(path_suffix)
    ):
        raise ValueError(rule)
    try:
        parts.port  # noqa: B018 - parsing the port is the check
    except ValueError:
        raise ValueError("has an invalid port") from None
    if parts.username or parts.password or parts.query or parts.fragment:
        raise ValueError("must not carry a user name, password, query or fragment")
    return url


_LOOPBACK_HTTP = "plain http only for 127.0.0.1 or localhost"


class _Section(BaseModel):
    """A TOML table: unknown keys are errors, values are typed as TOML types them."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    @model_validator(mode="before")
    @classmethod
    def _fill_absent(cls, data: object) -> object:
        # A secret may be given only through its *_env key, and a sub-table may be left out;
        # both still go through validation (secret resolution, path resolution, defaults).
        if not isinstance(data, dict):
            return data
        filled = dict(data)
        for name in cls.model_fields:
            if name in data:
                continue
            if f"{name}_env" in cls.model_fields:
                filled[name] = None
            elif _submodel(cls, name) is not None and not _is_optional(cls, name):
                filled[name] = {}
        return filled


def _submodel(cls: type[BaseModel], name: str) -> type[BaseModel] | None:
    field = cls.model_fields.get(name)
    if field is None:
        return None
    for candidate in (field.annotation, *get_args(field.annotation)):
        if isinstance(candidate, type) and issubclass(candidate, BaseModel):
            return candidate
    return None


def _is_optional(cls: type[BaseModel], name: str) -> bool:
    return type(None) in get_args(cls.model_fields[name].annotation)


class PartnerConfig(_Section):
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
        rule = f"must be https and end with /api/v1 ({_LOOPBACK_HTTP}, e.g. the local sandbox)"
        return _url(value, rule=rule, path_suffix="/api/v1")

    @field_validator("api_key", mode="wrap")
    @classmethod
    def _api_key(
        cls, value: object, handler: ValidatorFunctionWrapHandler, info: ValidationInfo
    ) -> SecretStr | None:
        return _secret(value, handler, info, required=True, shape=_API_KEY)

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


class WebhooksConfig(_Section):
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
        return _secret(
            value,
            handler,
            info,
            required=enabled,
            when=" when enabled = true",
            shape=_SIGNING_SECRET,
        )

    @field_validator("previous_signing_secret", mode="wrap")
    @classmethod
    def _previous_signing_secret(
        cls, value: object, handler: ValidatorFunctionWrapHandler, info: ValidationInfo
    ) -> SecretStr | None:
        return _secret(value, handler, info, required=False, shape=_SIGNING_SECRET)

    @field_validator("path")
    @classmethod
    def _path(cls, value: str) -> str:
        if not re.fullmatch(r"/[A-Za-z0-9._~/-]+", value) or value.endswith("/"):
            raise ValueError("must be a URL path such as /hooks/partner (no query, no trailing /)")
        for reserved in RESERVED_WEB_PATHS:
            if value == reserved or value.startswith(reserved + "/"):
                raise ValueError(f"{reserved} is a route of the bot's web app; choose another path")
        return value

    def signing_secrets(self) -> tuple[SecretStr, ...]:
        """Every secret a webhook may be signed with, the current one first."""
        return tuple(s for s in (self.signing_secret, self.previous_signing_secret) if s)


class TelegramConfig(_Section):
    """``[telegram]``: the bot's token and how updates reach it."""

    token_env: EnvName | None = None
    token: SecretStr
    mode: Literal["polling", "webhook"] = "polling"
    public_base_url: str | None = Field(None, validate_default=True)
    secret_token_env: EnvName | None = None
    secret_token: SecretStr | None = None
    api_base_url: str = DEFAULT_TELEGRAM_API_BASE_URL
    file_base_url: str = Field("", validate_default=True)
    listen_host: str = Field("127.0.0.1", min_length=1)
    listen_port: int = Field(8080, ge=1, le=65535)
    default_phone_region: str = "NG"

    @field_validator("token", mode="wrap")
    @classmethod
    def _token(
        cls, value: object, handler: ValidatorFunctionWrapHandler, info: ValidationInfo
    ) -> SecretStr | None:
        return _secret(value, handler, info, required=True, shape=_BOT_TOKEN)

    @field_validator("public_base_url")
    @classmethod
    def _public_base_url(cls, value: str | None, info: ValidationInfo) -> str | None:
        if value is None:
            if info.data.get("mode") == "webhook":
                raise ValueError('required when mode = "webhook": Telegram posts updates to it')
            return None
        return _url(value, rule=f"must be an https URL ({_LOOPBACK_HTTP}, for local tests)")

    @field_validator("secret_token", mode="wrap")
    @classmethod
    def _secret_token(
        cls, value: object, handler: ValidatorFunctionWrapHandler, info: ValidationInfo
    ) -> SecretStr | None:
        webhook_mode = info.data.get("mode") == "webhook"
        return _secret(
            value,
            handler,
            info,
            required=webhook_mode,
            when=' when mode = "webhook"',
            shape=_SECRET_TOKEN,
        )

    @field_validator("api_base_url")
    @classmethod
    def _api_base_url(cls, value: str) -> str:
        # The token travels in the URL path, so plain http is allowed on loopback only.
        example = DEFAULT_TELEGRAM_API_BASE_URL
        rule = f"must be https ({_LOOPBACK_HTTP}) and end with /bot, e.g. {example}"
        return _url(value, rule=rule, path_suffix="/bot")

    @field_validator("file_base_url")
    @classmethod
    def _file_base_url(cls, value: str, info: ValidationInfo) -> str:
        if not value:  # derived: https://api.telegram.org/bot -> https://api.telegram.org/file/bot
            api_base_url: str = info.data.get("api_base_url", DEFAULT_TELEGRAM_API_BASE_URL)
            return api_base_url.removesuffix("/bot") + "/file/bot"
        rule = f"must be https ({_LOOPBACK_HTTP}) and end with /bot, e.g. {_DEFAULT_FILE_BASE_URL}"
        return _url(value, rule=rule, path_suffix="/bot")

    @field_validator("default_phone_region")
    @classmethod
    def _region(cls, value: str) -> str:
        region = value.upper()
        if region not in phonenumbers.SUPPORTED_REGIONS:
            raise ValueError(
                "must be a two-letter ISO 3166 region code known to phonenumbers, "
                'e.g. "NG", "GH", "KE", "GB"'
            )
        return region


class OperatorsConfig(_Section):
    """``[operators]``: the Telegram chats allowed to dispatch and told about every event."""

    chat_ids: list[int] = Field(default_factory=list)

    @field_validator("chat_ids")
    @classmethod
    def _chat_ids(cls, value: list[int]) -> list[int]:
        problems: list[tuple[tuple[str | int, ...], str]] = [
            ((i,), "0 is not a Telegram chat id") for i, v in enumerate(value) if v == 0
        ]
        problems += [((i,), "listed twice") for i, v in enumerate(value) if v in value[:i]]
        if problems:
            raise _KeyProblems(problems)
        return value


def _resolve_path(value: Path, info: ValidationInfo) -> Path:
    base_dir: Path = (info.context or {}).get("base_dir", Path.cwd())
    return base_dir / value.expanduser()


StoragePath = Annotated[Path, Field(strict=False), AfterValidator(_resolve_path)]


class StorageConfig(_Section):
    """``[storage]``: the SQLite file and the re-hosted package photos."""

    path: StoragePath = Field(Path("deliverybot.sqlite3"), validate_default=True)
    media_dir: StoragePath = Field(Path("media"), validate_default=True)
    media_ttl_hours: float = Field(48.0, gt=0, le=24 * 30)


class NominatimConfig(_Section):
    """``[geocoding.nominatim]``: the OpenStreetMap Nominatim geocoder (through geopy)."""

    user_agent: str
    domain: str = NOMINATIM_PUBLIC_DOMAIN
    scheme: Literal["https", "http"] = "https"
    country_codes: list[str] = Field(default_factory=list)
    timeout: float = Field(10.0, gt=0, le=60)
    min_delay_seconds: float = Field(1.0, ge=0, le=60)

    @field_validator("user_agent")
    @classmethod
    def _user_agent(cls, value: str) -> str:
        value = value.strip()
        if len(value) < 8 or value.lower().startswith(_STOCK_USER_AGENTS):
            raise ValueError(
                'must identify your bot and a contact, e.g. "acme-deliverybot/1.0 '
                "(ops@acme.example)\": Nominatim's usage policy blocks stock agents"
            )
        return value

    @field_validator("domain")
    @classmethod
    def _domain(cls, value: str) -> str:
        if not value or "://" in value or any(ch.isspace() for ch in value):
            raise ValueError("must be a host name (optionally with :port and a path), no scheme")
        return value.rstrip("/")

    @field_validator("country_codes")
    @classmethod
    def _country_codes(cls, value: list[str]) -> list[str]:
        problems: list[tuple[tuple[str | int, ...], str]] = [
            ((i,), 'must be a two-letter ISO 3166 code, e.g. "ng"')
            for i, code in enumerate(value)
            if not re.fullmatch(r"[A-Za-z]{2}", code)
        ]
        if problems:
            raise _KeyProblems(problems)
        return [code.lower() for code in value]

    @field_validator("min_delay_seconds")
    @classmethod
    def _usage_policy(cls, value: float, info: ValidationInfo) -> float:
        if info.data.get("domain") == NOMINATIM_PUBLIC_DOMAIN and value < 1:
            raise ValueError(
                "must be at least 1 for the public Nominatim: its usage policy "
                "allows 1 request per second"
            )
        return value


class GeocodingConfig(_Section):
    """``[geocoding]``: turning a typed address into coordinates."""

    provider: Literal["nominatim", "none"] = "none"
    nominatim: NominatimConfig | None = Field(None, validate_default=True)

    @field_validator("nominatim")
    @classmethod
    def _provider_options(
        cls, value: NominatimConfig | None, info: ValidationInfo
    ) -> NominatimConfig | None:
        if value is None and info.data.get("provider") == "nominatim":
            raise ValueError(
                'required when provider = "nominatim": add the table with at least user_agent'
            )
        return value


class CustomerRelay(_Section):
    """``[relay.customer]``: what a customer's chat is told about their delivery."""

    status_updates: bool = True
    customer_message_hint: bool = True
    tracking_link: bool = True


class OperatorRelay(_Section):
    """``[relay.operators]``: what the operator chats are told about each event."""

    summary: bool = True
    agent_notes: bool = True
    events: list[EventType] = Field(default_factory=lambda: list(get_args(EventType)))


class RelayConfig(_Section):
    """``[relay]``: turning Partner API events into chat messages."""

    polling_interval_seconds: float = Field(60.0, ge=10, le=3600)
    customer: CustomerRelay
    operators: OperatorRelay


class Config(_Section):
    """The whole configuration file."""

    partner: PartnerConfig
    telegram: TelegramConfig
    webhooks: WebhooksConfig  # after telegram: it needs telegram's public_base_url
    operators: OperatorsConfig
    storage: StorageConfig
    geocoding: GeocodingConfig
    relay: RelayConfig

    @field_validator("webhooks")
    @classmethod
    def _public_host_for_webhooks(
        cls, value: WebhooksConfig, info: ValidationInfo
    ) -> WebhooksConfig:
        telegram = info.data.get("telegram")
        if value.enabled and telegram is not None and telegram.public_base_url is None:
            problem = "needs [telegram] public_base_url: the service posts events to a public host"
            raise _KeyProblems([(("enabled",), problem)])
        return value

    def partner_webhook_url(self) -> str | None:
        """The URL to register in the dashboard (Settings, API & Webhooks), if webhooks are on."""
        if not self.webhooks.enabled or self.telegram.public_base_url is None:
            return None
        return self.telegram.public_base_url + self.webhooks.path

    def warnings(self) -> list[str]:
        """Settings that are valid but probably not what the operator wants, one line each."""
        found = []
        if not self.operators.chat_ids:
            found.append(
                "[operators] chat_ids: empty: nobody may use operator commands, and "
                "event summaries and agent notes go nowhere"
            )
        public = self.telegram.public_base_url
        if public is None:
            found.append(
                "[telegram] public_base_url: not set: package photos cannot be hosted, "
                "so pickup deliveries and photo errands cannot be ordered"
            )
        elif urlsplit(public).hostname in LOOPBACK_HOSTS:
            found.append(
                "[telegram] public_base_url: a loopback host: only local tests can "
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
        return found


def load_config(
    path: str | os.PathLike[str], *, environ: Mapping[str, str] | None = None
) -> Config:
    """Read, parse and validate the TOML file at ``path``.

    Secrets named by ``*_env`` keys are read from ``environ`` (default: ``os.environ``).
    Raises ``ConfigError`` listing every problem found, one line each.
    """
    file = Path(path)
    data = _read_toml(file)
    context = {
        "environ": os.environ if environ is None else environ,
        "base_dir": file.parent.absolute(),
    }
    try:
        return Config.model_validate(data, context=context)
    except ValidationError as exc:
        # from None: the chained ValidationError would carry input values, secrets included.
        raise ConfigError(_problem_lines(exc, data)) from None


def _read_toml(file: Path) -> dict[str, Any]:
    try:
        raw = file.read_bytes()
    except FileNotFoundError:
        raise ConfigError([f"{file}: file not found"]) from None
    except IsADirectoryError:
        raise ConfigError([f"{file}: is a directory, not a file"]) from None
    except OSError as exc:
        raise ConfigError([f"{file}: cannot be read ({exc.strerror})"]) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise ConfigError([f"{file}:{line}: invalid TOML: not UTF-8 text"]) from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        where = re.fullmatch(r"(.*) \(at line (\d+), column (\d+)\)", message)
        if where:
            reason, line_no, column = where.groups()
            raise ConfigError([f"{file}:{line_no}:{column}: invalid TOML: {reason}"]) from None
        raise ConfigError([f"{file}: invalid TOML: {message}"]) from None


def _problem_lines(exc: ValidationError, data: dict[str, Any]) -> list[str]:
    lines: list[str] = []
    for error in exc.errors(include_url=False):
        loc = tuple(error["loc"])
        cause = error.get("ctx", {}).get("error")
        if isinstance(cause, _KeyProblems):
            lines += [f"{_where(loc + sub, data)}: {text}" for sub, text in cause.problems]
        else:
            lines.append(f"{_where(loc, data)}: {_message(error, loc, data)}")
    return lines


def _model_at(tables: tuple[str | int, ...]) -> type[BaseModel] | None:
    model: type[BaseModel] | None = Config
    for name in tables:
        model = _submodel(model, str(name)) if model is not None else None
    return model


def _raw_at(loc: tuple[str | int, ...], data: object) -> object:
    for part in loc:
        if not isinstance(data, dict) or part not in data:
            return None
        data = data[part]
    return data


def _where(loc: tuple[str | int, ...], data: dict[str, Any]) -> str:
    """``[table.sub] key[2]`` for a pydantic location, tables told apart from keys."""
    tables: list[str] = []
    model: type[BaseModel] | None = Config
    rest = list(loc)
    while rest and isinstance(head := rest[0], str):
        sub = _submodel(model, head) if model is not None else None
        if sub is None and not isinstance(_raw_at((*tables, head), data), dict):
            break
        tables.append(head)
        rest.pop(0)
        model = sub
    table = f"[{'.'.join(tables)}]" if tables else ""
    if not rest:
        return table
    key = str(rest[0]) + "".join(f"[{index}]" for index in rest[1:])
    return f"{table} {key}" if table else key


_TOML_TYPES = {
    str: "a string",
    bool: "true or false",
    int: "an integer",
    float: "a number",
    list: "an array",
    dict: "a table",
}


def _message(error: Any, loc: tuple[str | int, ...], data: dict[str, Any]) -> str:
    kind: str = error["type"]
    if kind == "extra_forbidden":
        is_table = isinstance(_raw_at(loc, data), dict)
        model = _model_at(loc[:-1])
        known = list(model.model_fields) if model is not None else []
        close = difflib.get_close_matches(str(loc[-1]), known, n=1)
        if not close:
            return f"unknown {'table' if is_table else 'key'}"
        if is_table:
            return f"unknown table (did you mean [{'.'.join(map(str, (*loc[:-1], close[0])))}]?)"
        return f"unknown key (did you mean {close[0]}?)"
    if kind == "missing":
        return "required key is missing"
    if kind == "value_error":
        return str(error["ctx"]["error"])
    if kind == "literal_error":
        return "must be " + str(error["ctx"]["expected"]).replace("'", '"')
    if kind in ("model_type", "dict_type", "model_attributes_type"):
        return "must be a table"
    message = re.sub(
        r"^(Input|String|List|Value) should( be)?",
        lambda m: "must" + (m[2] or ""),
        str(error["msg"]),
    )
    if kind.endswith("_type") or kind.endswith("_parsing"):
        got = _TOML_TYPES.get(type(error.get("input")), "something else")
        message += f" (got {got})"
    return message


def redact(secret: SecretStr) -> str:
    """A secret as it may be shown: its public prefix at most."""
    value = secret.get_secret_value()
    for prefix in (API_KEY_PREFIX, SIGNING_SECRET_PREFIX):
        if value.startswith(prefix):
            return f"{prefix}…(redacted)"
    return "***"


def render_redacted(config: Config) -> str:
    """The effective settings as TOML text, every secret redacted (the source of each named)."""
    lines: list[str] = []
    for name in Config.model_fields:
        _render_table(getattr(config, name), name, lines)
    return "\n".join(lines) + "\n"


def _render_table(section: BaseModel, name: str, lines: list[str]) -> None:
    if lines:
        lines.append("")
    lines.append(f"[{name}]")
    fields = type(section).model_fields
    tables: list[tuple[str, BaseModel]] = []
    for key in fields:
        value = getattr(section, key)
        if key.endswith("_env") and key.removesuffix("_env") in fields:
            continue  # shown beside the secret it names
        if isinstance(value, BaseModel):
            tables.append((key, value))
        elif value is None:
            shown = f"[{name}.{key}]" if _submodel(type(section), key) else key
            lines.append(f"# {shown}: not set")
        elif isinstance(value, SecretStr):
            env_name = getattr(section, f"{key}_env", None)
            source = f"environment variable {env_name}" if env_name else "this file"
            lines.append(f'{key} = "{redact(value)}"  # from {source}')
        else:
            lines.append(f"{key} = {_toml_value(value)}")
    for key, table in tables:
        _render_table(table, f"{name}.{key}", lines)


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    return json.dumps(str(value), ensure_ascii=False)  # a JSON string is a TOML basic string
