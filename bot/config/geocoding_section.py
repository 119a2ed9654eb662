"""``[geocoding]`` and ``[geocoding.nominatim]``: turning a typed address into coordinates."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field, ValidationInfo, field_validator

from bot.config.config_errors import KeyProblems
from bot.config.section import Section

NOMINATIM_PUBLIC_DOMAIN = "nominatim.openstreetmap.org"
_STOCK_USER_AGENTS = ("geopy", "python-requests", "python-httpx", "python-urllib", "curl/")


class NominatimConfig(Section):
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
            raise KeyProblems(problems)
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


class GeocodingConfig(Section):
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
