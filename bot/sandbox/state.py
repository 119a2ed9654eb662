"""The sandbox's memory: deliveries, riders and API keys.

Plain mutable records owned by one ``Store``; the rules that change them live in
``transitions`` (deliveries), ``auth`` (keys) and ``auto_dispatch`` (riders), and ``views`` turns
them into wire JSON.
"""

from __future__ import annotations

import hashlib
import secrets
import string
import uuid
from dataclasses import dataclass, field

from bot.partner.models import RIDER_GPS_FRESH_MINUTES
from bot.sandbox.geo import MapPoint
from bot.sandbox.scenario import Scenario
from bot.sandbox.scenario_places import RiderSettings
from bot.sandbox.validated_order import CreateOrder

_ACCESS_CODE_ALPHABET = string.ascii_letters + string.digits
ACCESS_CODE_LENGTH = 12
OTP_DIGITS = 6


def new_access_code() -> str:
    """A random tracking-link code: unguessable, URL-safe, never derived from the id."""
    return "".join(secrets.choice(_ACCESS_CODE_ALPHABET) for _ in range(ACCESS_CODE_LENGTH))


def new_otp_code() -> str:
    return f"{secrets.randbelow(10**OTP_DIGITS):0{OTP_DIGITS}d}"


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class StoredImage:
    """A downloaded package photo: the sandbox keeps its fingerprint, not the bytes."""

    url: str
    content_type: str
    size: int
    sha256: str


@dataclass
class DeliveryRecord:
    id: str
    seq: int
    order: CreateOrder
    status: str
    access_code: str
    created_at: float
    currency: str
    api_key_id: str
    # Snapshots of the org's OTP settings at create: older jobs keep their own (spec rule 4).
    require_otp: bool
    otp_via_webhook: bool
    # When the fee is due, as the business's paymentTiming said at create (the rider waits for
    # a before_dispatch fee to be paid, as the sandbox's documented choice).
    payment_timing: str = "after_delivery"
    fee: float | None = None
    payment_status: str = "unpaid"
    images: list[StoredImage] = field(default_factory=list)
    rider_id: str | None = None
    # Where the rider was when the delivery came to them: the start of its path (rider_path).
    rider_start: MapPoint | None = None
    updated_at: float | None = None
    cancelled_at: float | None = None
    cancellation_reason: str | None = None
    otp_code: str | None = None

    @property
    def short_ref(self) -> str:
        """A short human reference for summaries (the id's first block, upper-cased)."""
        return self.id.split("-")[0].upper()


@dataclass
class RiderRecord:
    id: str
    name: str
    vehicle_type: str | None
    fleet_link_status: str
    presence: str
    presence_updated_at: float
    last_active_at: float | None
    latitude: float | None
    longitude: float | None
    location_updated_at: float | None
    active_delivery_count: int
    average_rating: float | None
    total_deliveries: int | None

    @classmethod
    def from_settings(cls, rider: RiderSettings, now: float) -> RiderRecord:
        location = rider.location
        return cls(
            id=rider.id,
            name=rider.name,
            vehicle_type=rider.vehicle_type,
            fleet_link_status=rider.fleet_link_status,
            presence=rider.presence,
            presence_updated_at=now - rider.presence_age_minutes * 60,
            last_active_at=(
                None
                if rider.last_active_age_minutes is None
                else now - rider.last_active_age_minutes * 60
            ),
            latitude=location.latitude if location else None,
            longitude=location.longitude if location else None,
            location_updated_at=now - location.age_minutes * 60 if location else None,
            active_delivery_count=rider.active_delivery_count,
            average_rating=rider.average_rating,
            total_deliveries=rider.total_deliveries,
        )

    @property
    def accepted(self) -> bool:
        return self.fleet_link_status == "accepted"

    def location_fresh(self, now: float) -> bool:
        """True when the GPS fix is newer than 30 minutes (the spec's ``location.fresh``)."""
        if self.location_updated_at is None:
            return False
        return now - self.location_updated_at < RIDER_GPS_FRESH_MINUTES * 60


@dataclass
class KeyRecord:
    id: str
    scopes: frozenset[str]
    state: str


@dataclass(frozen=True)
class IdempotencyEntry:
    fingerprint: str
    delivery_id: str
    created_at: float


class Store:
    """Everything the sandbox remembers for its one org, seeded from the scenario."""

    def __init__(self, scenario: Scenario, now: float) -> None:
        self.riders: dict[str, RiderRecord] = {
            rider.id: RiderRecord.from_settings(rider, now) for rider in scenario.riders
        }
        self.keys: dict[str, KeyRecord] = {
            key.id: KeyRecord(key.id, frozenset(key.scopes), key.state) for key in scenario.api_keys
        }
        self._key_ids_by_digest = {_digest(key.secret): key.id for key in scenario.api_keys}
        self.deliveries: dict[str, DeliveryRecord] = {}
        self._seq = 0

    def key_for_secret(self, secret: str) -> KeyRecord | None:
        # Looked up by digest so no comparison ever runs over the raw secret.
        key_id = self._key_ids_by_digest.get(_digest(secret))
        return self.keys.get(key_id) if key_id else None

    def next_seq(self) -> int:
        self._seq += 1
        return self._seq

    @staticmethod
    def new_delivery_id() -> str:
        return str(uuid.uuid4())

    def add(self, record: DeliveryRecord) -> None:
        self.deliveries[record.id] = record

    def delivery(self, delivery_id: str) -> DeliveryRecord | None:
        return self.deliveries.get(delivery_id)

    def newest_first(self) -> list[DeliveryRecord]:
        return sorted(self.deliveries.values(), key=lambda record: record.seq, reverse=True)
