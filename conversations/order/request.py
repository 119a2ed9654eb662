"""The request the flows build: one delivery to create, with every rule of the spec's request
table that can be checked without the business's capabilities."""

from __future__ import annotations

import re
from typing import Annotated
from urllib.parse import urlsplit

from pydantic import Field, StringConstraints, field_validator, model_validator

from conversations.order.base import RequestModel
from conversations.order.fields import (
    ERRAND_FIELD_MISSING,
    ERRAND_FIELDS,
    PICKUP_DELIVERY_FIELD_MISSING,
    PICKUP_DELIVERY_FIELDS,
    errand_budget_problem,
    phone_problem,
)
from conversations.order.kinds import (
    CollectionMethod,
    DeliveryMode,
    ErrandMode,
    PackageSize,
    ServiceKind,
)
from conversations.order.locations import Coords
from conversations.order.order_limits import (
    IDEMPOTENCY_KEY_LENGTH,
    MAX_ERRAND_LINKS,
    MAX_PACKAGE_IMAGES,
)
from conversations.order.photos import is_image_url

_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


class ErrandLink(RequestModel):
    url: str = Field(min_length=1, max_length=2000)
    note: str = Field(default="", max_length=500)
    curatedId: str | None = None

    @field_validator("url")
    @classmethod
    def _web_link(cls, url: str) -> str:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ValueError("must be an http(s) link")
        return url


PhoneText = Annotated[str, StringConstraints(max_length=40)]
# The key is sent exactly as given: trimming it would make two different keys one.
IdempotencyKey = Annotated[
    str,
    StringConstraints(
        strip_whitespace=False,
        min_length=IDEMPOTENCY_KEY_LENGTH[0],
        max_length=IDEMPOTENCY_KEY_LENGTH[1],
    ),
]


class CreateDeliveryRequest(RequestModel):
    """The body of ``POST /deliveries``, with every rule the spec's request table states.

    Rules that need the org's capabilities (enabled kinds, payment flags, POD, warehouses,
    errand modes, unknown shop location, image host allowlist) are checked by the flows
    before building this, and by the service (and the sandbox) on create. Everything else is
    checked here with the sandbox's own choices and wording (``docs/sandbox.md``), so a request
    this model accepts is one the sandbox accepts:

    * ``receiverName`` / ``receiverPhone`` and at least one image for ``pickup_delivery``;
    * errands: ``deliveryMode`` ``pickup`` only; all six errand fields present (``errandMode``,
      ``errandLinks``, ``errandBudgetNgn``, ``errandSubstituteOk``, ``shopPhone``,
      ``pickupLocationUnknown``; the array may be empty and the strings ``""``, except that a
      ``link`` errand needs at least one link); a ``photo`` errand needs an image; never POD;
    * errand fields are refused on a ``pickup_delivery``;
    * ``warehouseId`` is required in warehouse mode and refused in pickup mode;
    * ``isPODEnabled`` needs ``podAmount`` > 0; a non-zero ``podAmount`` needs POD;
    * phones (``senderPhone``, ``receiverPhone``, ``pickupContactPhone``, ``shopPhone`` when
      not empty): an optional ``+``, digits with spaces, dashes, dots or parentheses, 7 to 15
      digits; ``errandBudgetNgn`` an amount such as ``"8000"`` or ``"8,000.50"``;
    * ``idempotencyKey`` 8 to 120 characters, never trimmed; at most 10 ``errandLinks``.

    A rule that spans fields fails with ``"<field>: <problem>"`` parts joined by ``"; "``.
    """

    serviceKind: ServiceKind
    deliveryMode: DeliveryMode = "pickup"
    warehouseId: str | None = None
    senderName: str = Field(min_length=1, max_length=200)
    senderPhone: str = Field(min_length=1, max_length=40)
    senderEmail: str = ""
    pickupContactSameAsSender: bool | None = None
    pickupContactName: str | None = Field(default=None, max_length=200)
    pickupContactPhone: PhoneText | None = None
    receiverName: str | None = Field(default=None, max_length=200)
    receiverPhone: PhoneText | None = None
    pickupAddress: str = Field(min_length=1, max_length=500)
    pickupCoords: Coords
    deliveryAddress: str = Field(min_length=1, max_length=500)
    deliveryCoords: Coords
    packageDescription: str = Field(min_length=1, max_length=1000)
    packageSize: PackageSize
    isFragile: bool | None = None
    isPODEnabled: bool | None = None
    podAmount: float | None = Field(default=None, ge=0)
    packageImages: list[str] = Field(default_factory=list, max_length=MAX_PACKAGE_IMAGES)
    customerCollectionMethod: CollectionMethod
    idempotencyKey: IdempotencyKey | None = None
    errandMode: ErrandMode | None = None
    errandLinks: list[ErrandLink] | None = Field(default=None, max_length=MAX_ERRAND_LINKS)
    errandBudgetNgn: str | None = Field(default=None, max_length=50)
    errandSubstituteOk: bool | None = None
    shopPhone: PhoneText | None = None
    pickupLocationUnknown: bool | None = None
    distanceKm: float | None = Field(default=None, ge=0)
    estimatedDurationMinutes: float | None = Field(default=None, ge=0)

    @field_validator("senderEmail")
    @classmethod
    def _email_or_empty(cls, email: str) -> str:
        if email and not _EMAIL.match(email):
            raise ValueError("must be an email address or empty")
        return email

    @field_validator("senderPhone", "receiverPhone", "pickupContactPhone", "shopPhone")
    @classmethod
    def _phone(cls, phone: str | None) -> str | None:
        problem = phone_problem(phone) if phone else None
        if problem:
            raise ValueError(problem)
        return phone

    @field_validator("errandBudgetNgn")
    @classmethod
    def _budget(cls, budget: str | None) -> str | None:
        problem = errand_budget_problem(budget) if budget else None
        if problem:
            raise ValueError(problem)
        return budget

    @field_validator("packageImages")
    @classmethod
    def _https_images(cls, urls: list[str]) -> list[str]:
        for url in urls:
            if not is_image_url(url):
                raise ValueError("each image must be an https URL (plain http only to loopback)")
        return urls

    @model_validator(mode="after")
    def _per_kind_rules(self) -> CreateDeliveryRequest:
        problems: list[tuple[str, str]] = []
        self._mode_rules(problems)
        if self.serviceKind == "pickup_delivery":
            self._pickup_delivery_rules(problems)
        else:
            self._errand_rules(problems)
        if self.isPODEnabled and not (self.podAmount and self.podAmount > 0):
            problems.append(
                ("podAmount", "is required and greater than 0 when isPODEnabled is true")
            )
        if not self.isPODEnabled and self.podAmount:
            problems.append(("podAmount", "is only allowed when isPODEnabled is true"))
        if problems:
            raise ValueError("; ".join(f"{name}: {problem}" for name, problem in problems))
        return self

    def _mode_rules(self, problems: list[tuple[str, str]]) -> None:
        if self.deliveryMode != "warehouse":
            if self.warehouseId is not None:
                problems.append(("warehouseId", "is only sent with deliveryMode warehouse"))
            return
        if self.serviceKind == "errand":
            problems.append(
                ("deliveryMode", "errands use deliveryMode pickup (the rider goes to the shop)")
            )
        elif not self.warehouseId:
            problems.append(
                ("warehouseId", "is required in warehouse mode and must be a warehouse id")
            )

    def _pickup_delivery_rules(self, problems: list[tuple[str, str]]) -> None:
        for name in PICKUP_DELIVERY_FIELDS:
            if not getattr(self, name):
                problems.append((name, PICKUP_DELIVERY_FIELD_MISSING[name]))
        for name in ERRAND_FIELDS:
            if getattr(self, name) is not None:
                problems.append((name, "is only sent for errands"))

    def _errand_rules(self, problems: list[tuple[str, str]]) -> None:
        for name in ERRAND_FIELDS:
            if getattr(self, name) is None:
                problems.append((name, ERRAND_FIELD_MISSING[name]))
        if self.isPODEnabled:
            problems.append(("isPODEnabled", "POD is only allowed on pickup_delivery"))
        if self.errandMode == "photo" and not self.packageImages:
            problems.append(("packageImages", "needs at least 1 image for photo errands"))
        if self.errandMode == "link" and self.errandLinks is not None and not self.errandLinks:
            problems.append(("errandLinks", "needs at least 1 link for a link errand"))
