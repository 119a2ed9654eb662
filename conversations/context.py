"""What a step may look at while it asks or parses: the org's allow-list, its places, the
answers so far, and the services it may call."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol, TypeVar

from pydantic import BaseModel, JsonValue, ValidationError

from conversations.order.business_capabilities import Capabilities
from conversations.order.locations import ServiceLocation, Warehouse
from conversations.services import Geocoder
from conversations.session import Session
from conversations.texts.catalogue import Catalogue

M = TypeVar("M", bound=BaseModel)


class Answers:
    """Typed reads of the answers given so far (a live view of the session's answers)."""

    def __init__(self, data: Mapping[str, JsonValue]) -> None:
        self._data = data

    def text(self, name: str) -> str:
        value = self._data.get(name)
        return value if isinstance(value, str) else ""

    def option(self, name: str) -> str | None:
        value = self._data.get(name)
        return value if isinstance(value, str) else None

    def yes(self, name: str) -> bool:
        return self._data.get(name) == "yes"

    def number(self, name: str) -> float | None:
        value = self._data.get(name)
        if isinstance(value, bool) or not isinstance(value, int | float):
            return None
        return float(value)

    def texts(self, name: str) -> list[str]:
        value = self._data.get(name)
        return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []

    def model(self, name: str, cls: type[M]) -> M | None:
        value = self._data.get(name)
        if value is None:
            return None
        try:
            return cls.model_validate(value)
        except ValidationError:
            return None


class Route(Protocol):
    """What a step may ask of the flow it belongs to (``Flow`` is one; this module cannot
    import it, since a flow's steps are declared over this context)."""

    @property
    def name(self) -> str: ...

    def summary_lines(self, ctx: Context) -> list[tuple[str, str]]: ...


@dataclass(frozen=True)
class Context:
    """Everything a step may look at: the org's allow-list, its places and the answers, and
    the services a step may call (the geocoder). ``codes_by_link``: a drop-off code reaches
    the receiver by a link the customer forwards, not by the service's text message."""

    session: Session
    flow: Route
    caps: Capabilities
    warehouses: tuple[Warehouse, ...]
    locations: tuple[ServiceLocation, ...]
    phone_region: str
    geocoder: Geocoder | None
    catalogue: Catalogue
    """The turn's catalogue: every sentence a step says is said from it."""
    codes_by_link: bool = False

    @property
    def answers(self) -> Answers:
        return Answers(self.session.answers)

    @property
    def pending(self) -> JsonValue:
        return self.session.pending

    def summary_lines(self) -> list[tuple[str, str]]:
        """(title, description) of every answered step on the current route, in order."""
        return self.flow.summary_lines(self)
