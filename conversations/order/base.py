"""The two kinds of order value: one read from the service, one the bot sends."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict


def keep_known(value: Any, known: tuple[str, ...]) -> Any:
    """An allow-list array without the values this bot does not know: unknown = not allowed."""
    if isinstance(value, list):
        return [item for item in value if isinstance(item, str) and item in known]
    return value


def known_or_none(value: Any, known: tuple[str, ...]) -> Any:
    """A default the bot cannot offer is no default at all."""
    return value if isinstance(value, str) and value in known else None


class ResponseModel(BaseModel):
    """A body the service sends: unknown fields are ignored, so the service can grow."""

    model_config = ConfigDict(extra="ignore", frozen=True)


class RequestModel(BaseModel):
    """A body the bot sends: unknown fields are refused, so a typo never reaches the wire."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    def to_wire(self) -> dict[str, Any]:
        """The JSON body as the service expects it (fields left unset are omitted)."""
        return self.model_dump(mode="json", exclude_none=True)
