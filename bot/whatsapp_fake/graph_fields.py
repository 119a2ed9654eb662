"""Reading one field of a Cloud API request body, refused as Meta refuses a missing one.

Meta names the parameter in ``error_data.details`` ("The parameter text['body'] is
required."); so do these, so a test's failure says which field was wrong.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.whatsapp_fake.graph_errors import INVALID_PARAMETER, ErrorCode, GraphError


def _name(key: str, where: str) -> str:
    return f"{where}['{key}']" if where else key


def required_text(body: Mapping[str, Any], key: str, *, where: str = "") -> str:
    """``body[key]``, a non-empty string; code 100 naming the parameter otherwise."""
    value = body.get(key)
    if not isinstance(value, str) or not value:
        raise GraphError(INVALID_PARAMETER, f"The parameter {_name(key, where)} is required.")
    return value


def optional_text(body: Mapping[str, Any], key: str, *, where: str = "") -> str:
    """``body[key]`` when present (a string), else ``""``."""
    value = body.get(key, "")
    if not isinstance(value, str):
        raise GraphError(INVALID_PARAMETER, f"Param {_name(key, where)} must be a string.")
    return value


def object_field(body: Mapping[str, Any], key: str, *, where: str = "") -> Mapping[str, Any]:
    """``body[key]``, an object; code 100 naming the parameter otherwise."""
    value = body.get(key)
    if not isinstance(value, dict):
        raise GraphError(INVALID_PARAMETER, f"The parameter {_name(key, where)} is required.")
    return value


def list_field(body: Mapping[str, Any], key: str, *, where: str = "") -> list[Any]:
    """``body[key]``, a non-empty array; code 100 naming the parameter otherwise."""
    value = body.get(key)
    if not isinstance(value, list) or not value:
        raise GraphError(INVALID_PARAMETER, f"The parameter {_name(key, where)} is required.")
    return value


def text_at_most(error: ErrorCode, name: str, text: str, limit: int) -> None:
    """Refuse ``text`` longer than ``limit`` characters with ``error``."""
    if len(text) > limit:
        raise GraphError(error, f"Param {name} must be at most {limit} characters long.")
