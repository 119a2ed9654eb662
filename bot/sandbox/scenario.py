"""A sandbox scenario: the org, its settings and its fleet, loaded from one TOML file.

Tables that mirror a resource of the spec use the spec's wire names (``[capabilities]`` reads
``enabledServiceKinds``, a service location reads ``allowCustom``); tables that only the sandbox
has (``[sandbox]``, ``[network]``, ``[pricing]``, keys, webhooks, rider GPS age) use snake_case.
Every table refuses unknown keys, so a typo is an error that names the key instead of a setting
that silently does nothing. ``docs/sandbox.md`` documents every key.
"""

from __future__ import annotations

import copy
import ipaddress
import tomllib
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from pydantic import Field, ValidationError, model_validator

from bot.partner.models import API_KEY_PREFIX, EVENT_TYPES, SIGNING_SECRET_PREFIX, Plan
from bot.sandbox.sandbox_errors import SandboxError
from bot.sandbox.scenario_parts import (
    CapabilitySettings,
    CoverageSettings,
    ImageSettings,
    PricingSettings,
    Strict,
)
from bot.sandbox.scenario_places import RiderSettings, ServiceLocationSettings, WarehouseSettings

DEFAULT_SCENARIO_PATH = Path(__file__).with_name("scenarios") / "default.toml"

Scope = Literal["deliveries:read", "deliveries:write"]
KeyState = Literal["active", "revoked", "auto_revoked"]

# The spec names rate limits by tier (Starter 60, Growth 180, Enterprise custom) and plans by
# name; how they map is not shown. The sandbox's choice, documented in docs/sandbox.md.
PLAN_REQUESTS_PER_MINUTE: dict[str, int | None] = {
    "basic": 60,
    "pro": 180,
    "scale": None,
    "global": None,
}
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})


def _ascii_alnum(text: str) -> bool:
    # str.isalnum alone accepts any script's letters and digits ("é", "٣"); keys are ASCII.
    return text.isascii() and text.isalnum()


class ScenarioError(SandboxError, ValueError):
    """A scenario file that cannot be used; the message names the file and the key."""


class SandboxSettings(Strict):
    track_url: str = "https://track.sandbox.invalid"
    docs_url: str = "https://docs.sandbox.invalid/partner-api/webhooks"
    admin_token: str | None = Field(default=None, repr=False)
    auto_dispatch_radius_km: float = 10.0
    idempotency_ttl_hours: float = 24.0

    @model_validator(mode="after")
    def _check(self) -> SandboxSettings:
        for name in ("track_url", "docs_url"):
            parts = urlsplit(getattr(self, name))
            if parts.scheme not in ("http", "https") or not parts.hostname:
                raise ValueError(f"{name} must be an http(s) URL")
        if self.admin_token is not None and len(self.admin_token) < 16:
            raise ValueError("admin_token must be at least 16 characters")
        if self.auto_dispatch_radius_km <= 0 or self.idempotency_ttl_hours <= 0:
            raise ValueError("auto_dispatch_radius_km and idempotency_ttl_hours must be positive")
        return self


class NetworkSettings(Strict):
    """Local-testing switches; both off by default, as the real service is strict."""

    allow_http: bool = False
    allow_loopback: bool = False


class OrganizationSettings(Strict):
    id: str
    name: str
    slug: str
    plan: Plan
    rate_limit_per_minute: int | None = None
    billing_terminated: bool = False
    otp_via_webhook: bool = False
    customer_delivery_messages: bool = True

    @model_validator(mode="after")
    def _check(self) -> OrganizationSettings:
        if self.rate_limit_per_minute is not None and self.rate_limit_per_minute < 1:
            raise ValueError("rate_limit_per_minute must be at least 1")
        return self

    @property
    def requests_per_minute(self) -> int | None:
        """The per-key cap: the explicit override, else the plan's; None means no cap."""
        if self.rate_limit_per_minute is not None:
            return self.rate_limit_per_minute
        return PLAN_REQUESTS_PER_MINUTE[self.plan]


class ApiKeySettings(Strict):
    id: str
    secret: str = Field(repr=False)
    scopes: list[Scope]
    state: KeyState = "active"

    @model_validator(mode="after")
    def _check(self) -> ApiKeySettings:
        body = self.secret.removeprefix(API_KEY_PREFIX)
        if body == self.secret or not (16 <= len(body) <= 128) or not _ascii_alnum(body):
            raise ValueError(f"secret must be {API_KEY_PREFIX} followed by 16-128 letters/digits")
        return self


class WebhookEndpointSettings(Strict):
    id: str
    url: str
    events: list[str] = Field(default_factory=lambda: ["*"])
    secret: str = Field(repr=False)

    @model_validator(mode="after")
    def _check(self) -> WebhookEndpointSettings:
        unknown = [e for e in self.events if e != "*" and e not in EVENT_TYPES]
        if unknown or not self.events:
            raise ValueError(f"events must be '*' or event types from {list(EVENT_TYPES)}")
        if not self.secret.startswith(SIGNING_SECRET_PREFIX) or len(self.secret) < 22:
            raise ValueError(f"secret must be {SIGNING_SECRET_PREFIX} + at least 16 characters")
        return self

    def wants(self, event_type: str) -> bool:
        return "*" in self.events or event_type in self.events


class Scenario(Strict):
    """Everything the sandbox simulates for one org. Build it with ``load_scenario``."""

    name: str = "unnamed scenario"
    description: str = ""
    sandbox: SandboxSettings = SandboxSettings()
    network: NetworkSettings = NetworkSettings()
    organization: OrganizationSettings
    capabilities: CapabilitySettings
    coverage: CoverageSettings = CoverageSettings()
    pricing: PricingSettings = PricingSettings()
    images: ImageSettings = ImageSettings()
    warehouses: list[WarehouseSettings] = Field(default_factory=list)
    service_locations: list[ServiceLocationSettings] = Field(default_factory=list)
    riders: list[RiderSettings] = Field(default_factory=list)
    api_keys: list[ApiKeySettings] = Field(default_factory=list)
    webhooks: list[WebhookEndpointSettings] = Field(default_factory=list)

    @model_validator(mode="after")
    def _check(self) -> Scenario:
        for table in ("warehouses", "service_locations", "riders", "api_keys", "webhooks"):
            ids = [row.id for row in getattr(self, table)]
            duplicates = sorted({i for i in ids if ids.count(i) > 1})
            if duplicates:
                raise ValueError(f"{table}: duplicate id {duplicates[0]!r}")
        secrets = [key.secret for key in self.api_keys]
        if len(set(secrets)) != len(secrets):
            raise ValueError("api_keys: two keys share one secret")
        for endpoint in self.webhooks:
            problem = webhook_url_problem(endpoint.url, self.network)
            if problem:
                raise ValueError(f"webhooks: {endpoint.id}: {problem}")
        return self

    @property
    def max_warehouses(self) -> int | None:
        """``features.maxWarehouses``: 1 on basic, unlimited otherwise."""
        return 1 if self.organization.plan == "basic" else None

    def active_warehouses(self) -> list[WarehouseSettings]:
        return [w for w in self.warehouses if w.active]


def webhook_url_problem(url: str, network: NetworkSettings) -> str | None:
    """Why ``url`` cannot be a webhook endpoint under ``network``, or None.

    https is required; plain http only to a loopback host and only with ``allow_http``; a
    loopback host needs ``allow_loopback``; private and link-local IP literals are refused.
    """
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    if parts.scheme not in ("http", "https") or not host:
        return "url must be an https URL"
    loopback = host in LOOPBACK_NAMES
    if not loopback:
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            address = None
        if address is not None:
            if address.is_loopback:
                loopback = True
            elif not address.is_global:
                return "url points at a private or link-local address"
    if parts.scheme == "http" and not (loopback and network.allow_http):
        return "url must be https (plain http only to loopback with [network] allow_http)"
    if loopback and not network.allow_loopback:
        return "url is a loopback address; set [network] allow_loopback for local tests"
    return None


def _location(loc: tuple[int | str, ...]) -> str:
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else part
    return text or "(top level)"


def parse_scenario(data: Mapping[str, Any], source: str = "<scenario>") -> Scenario:
    """A ``Scenario`` from already-parsed TOML data; ``ScenarioError`` names each bad key."""
    try:
        return Scenario.model_validate(dict(data))
    except ValidationError as exc:
        lines = []
        for problem in exc.errors(include_url=False, include_input=False):
            message = str(problem["msg"]).removeprefix("Value error, ")
            lines.append(f"{source}: {_location(problem['loc'])}: {message}")
        raise ScenarioError("\n".join(lines)) from None


def load_scenario(path: str | Path) -> Scenario:
    """Read a scenario TOML file; a bad file raises ``ScenarioError`` naming the key."""
    path = Path(path)
    try:
        with path.open("rb") as handle:
            data = tomllib.load(handle)
    except OSError as exc:
        raise ScenarioError(f"{path}: cannot read the scenario file ({exc.strerror})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"{path}: not valid TOML: {exc}") from None
    return parse_scenario(data, str(path))


@cache
def _default_data() -> dict[str, Any]:
    with DEFAULT_SCENARIO_PATH.open("rb") as handle:
        return tomllib.load(handle)


def default_scenario_data() -> dict[str, Any]:
    """A fresh, mutable copy of the default scenario's TOML data (tests edit it)."""
    return copy.deepcopy(_default_data())


def default_scenario() -> Scenario:
    """The scenario that ships with the project and drives the demo (Lagos, NGN, plan pro)."""
    return parse_scenario(default_scenario_data(), str(DEFAULT_SCENARIO_PATH))
