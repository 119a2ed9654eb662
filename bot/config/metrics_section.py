"""``[metrics]``: Prometheus metrics at ``GET /metrics``, off by default.

Metrics say how the business is doing (orders, failures, queue depths), so they are not for
anyone on the internet: the endpoint needs a bearer ``token``, or is served on an address of its
own (``listen_port``, on loopback by default) that only the scraper reaches, or both.
"""

from __future__ import annotations

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
from bot.config.partner import own_web_path
from bot.config.secrets import EnvName, SecretShape, resolve_secret
from bot.config.section import Section

METRICS_TOKEN_SHAPE: SecretShape = (
    re.compile(r"[A-Za-z0-9_-]{16,256}"),
    "must be 16 to 256 characters of A-Z, a-z, 0-9, _ and - (e.g. openssl rand -hex 24)",
)


class MetricsConfig(Section):
    """``[metrics]``: whether ``/metrics`` is served, where, and behind what."""

    enabled: bool = False
    path: str = "/metrics"
    token_env: EnvName | None = None
    # The scraper sends it as ``Authorization: Bearer <token>``.
    token: SecretStr | None = None
    # A listen address of its own for /metrics (the web app then does not serve it).
    listen_host: str = Field("127.0.0.1", min_length=1)
    listen_port: int | None = Field(None, ge=1, le=65535)

    @field_validator("token", mode="wrap")
    @classmethod
    def _token(
        cls, value: object, handler: ValidatorFunctionWrapHandler, info: ValidationInfo
    ) -> SecretStr | None:
        return resolve_secret(value, handler, info, required=False, shape=METRICS_TOKEN_SHAPE)

    @field_validator("path")
    @classmethod
    def _path(cls, value: str) -> str:
        return own_web_path(value, example="/metrics")

    @model_validator(mode="after")
    def _guarded(self) -> MetricsConfig:
        if self.enabled and self.token is None and self.listen_port is None:
            problem = (
                "required when enabled = true, unless listen_port serves /metrics on an address "
                "of its own: set token_env to the name of an environment variable holding it "
                "(or token in the file)"
            )
            raise KeyProblems([(("token",), problem)])
        return self

    @property
    def own_address(self) -> bool:
        """Whether /metrics is served on ``listen_host:listen_port`` instead of the web app."""
        return self.listen_port is not None
