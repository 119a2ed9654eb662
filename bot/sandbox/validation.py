"""Reading a JSON body field by field, collecting every problem under the field's wire name.

JSON types are checked as JSON types: a number in quotes is not a number, ``1`` is not ``true``.
For an optional field ``null`` means "not sent". Strings are trimmed before length checks.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Mapping
from typing import Any

from bot.partner.models import phone_problem
from bot.sandbox.error_envelope import validation_error
from bot.sandbox.geo import coordinate_problem

_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
_NOT_AN_OBJECT = {"body": ["must be a JSON object"]}
_UUID = re.compile(r"^[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$")


def parse_json_object(raw: bytes, *, empty_ok: bool = False) -> dict[str, Any]:
    """The request body as a JSON object; 400 ``validation_error`` otherwise, with
    ``fieldErrors.body`` so every validation failure carries ``fieldErrors``."""
    if not raw.strip():
        if empty_ok:
            return {}
        raise validation_error(_NOT_AN_OBJECT, "The request body must be a JSON object.")
    try:
        body = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise validation_error(_NOT_AN_OBJECT, "The request body is not valid JSON.") from None
    if not isinstance(body, dict):
        raise validation_error(_NOT_AN_OBJECT, "The request body must be a JSON object.")
    return body


def as_number(value: Any) -> float | None:
    """A JSON number as a finite float; None for anything else (booleans, huge ints, NaN)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if math.isfinite(number) else None


class FieldReader:
    """Reads fields of one JSON object and records problems in ``errors``."""

    def __init__(self, body: Mapping[str, Any]) -> None:
        self.body = body
        self.errors: dict[str, list[str]] = {}

    def fail(self, name: str, message: str) -> None:
        self.errors.setdefault(name, []).append(message)

    def failed(self, name: str) -> bool:
        return name in self.errors

    def raise_if_errors(self) -> None:
        if self.errors:
            raise validation_error(self.errors)

    def present(self, name: str) -> bool:
        return self.body.get(name) is not None

    def require_present(self, name: str, message: str) -> bool:
        """Fail ``name`` with ``message`` when it is absent or null; True when it is there."""
        if self.present(name):
            return True
        self.fail(name, message)
        return False

    def reject_unknown(self, allowed: Iterable[str]) -> None:
        known = set(allowed)
        for name in self.body:
            if name not in known:
                self.fail(name, "is not a known field")

    def string(
        self, name: str, *, required: bool = False, min_len: int = 1, max_len: int = 500
    ) -> str | None:
        value = self.body.get(name)
        if value is None:
            if required:
                self.fail(name, "is required")
            return None
        if not isinstance(value, str):
            self.fail(name, "must be a string")
            return None
        value = value.strip()
        if not value:
            if required:
                self.fail(name, "is required")
                return None
            return ""
        if len(value) < min_len:
            self.fail(name, f"must be at least {min_len} characters")
            return None
        if len(value) > max_len:
            self.fail(name, f"must be at most {max_len} characters")
            return None
        return value

    def phone(self, name: str, *, required: bool = False) -> str | None:
        value = self.string(name, required=required, max_len=40)
        if not value:
            return None
        problem = phone_problem(value)
        if problem:
            self.fail(name, problem)
            return None
        return value

    def email(self, name: str) -> str | None:
        value = self.string(name, max_len=254)
        if value and not _EMAIL.fullmatch(value):
            self.fail(name, "must be an email address or an empty string")
            return None
        return value or None

    def boolean(self, name: str) -> bool | None:
        value = self.body.get(name)
        if value is None:
            return None
        if not isinstance(value, bool):
            self.fail(name, "must be true or false")
            return None
        return value

    def number(self, name: str, *, minimum: float = 0.0, maximum: float = 1e9) -> float | None:
        value = self.body.get(name)
        if value is None:
            return None
        number = as_number(value)
        if number is None:
            self.fail(name, "must be a number")
            return None
        if not minimum <= number <= maximum:
            self.fail(name, f"must be between {minimum:g} and {maximum:g}")
            return None
        return number

    def choice(self, name: str, options: Iterable[str], *, required: bool = False) -> str | None:
        allowed = list(options)
        value = self.body.get(name)
        if value is None:
            if required:
                self.fail(name, "is required")
            return None
        if not isinstance(value, str) or value not in allowed:
            self.fail(name, "must be one of: " + ", ".join(allowed))
            return None
        return value

    def coords(self, name: str) -> tuple[float, float] | None:
        """A required ``{ lng, lat }`` object of real coordinates, as ``(lat, lng)``."""
        value = self.body.get(name)
        if value is None:
            self.fail(name, "is required")
            return None
        if not isinstance(value, dict) or set(value) != {"lng", "lat"}:
            self.fail(name, "must be an object with exactly lng and lat")
            return None
        lat, lng = as_number(value["lat"]), as_number(value["lng"])
        if lat is None or lng is None:
            self.fail(name, "lng and lat must be finite numbers")
            return None
        problem = coordinate_problem(lat, lng)
        if problem:
            self.fail(name, problem)
            return None
        return lat, lng

    def array(self, name: str, *, required: bool = False) -> list[Any] | None:
        value = self.body.get(name)
        if value is None:
            if required:
                self.fail(name, "is required (send an empty array for none)")
            return None
        if not isinstance(value, list):
            self.fail(name, "must be an array")
            return None
        return value


def query_params(items: Iterable[tuple[str, str]], allowed: Iterable[str]) -> dict[str, str]:
    """Query parameters as a dict; unknown or repeated names are a ``validation_error``."""
    known = set(allowed)
    params: dict[str, str] = {}
    problems: dict[str, list[str]] = {}
    for name, value in items:
        if name not in known:
            problems.setdefault(name, []).append("is not a known query parameter")
        elif name in params:
            problems.setdefault(name, []).append("must be given once")
        else:
            params[name] = value
    if problems:
        raise validation_error(problems)
    return params


def is_uuid(value: str) -> bool:
    """True for a UUID in its canonical 8-4-4-4-12 hex form."""
    return _UUID.fullmatch(value) is not None


def check_delivery_id(value: str) -> None:
    """A malformed delivery id is a 400 (the spec lists validation_error on get and cancel)."""
    if not is_uuid(value):
        raise validation_error({"deliveryId": ["must be a delivery id (UUID)"]})
