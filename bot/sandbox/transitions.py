"""The delivery state machine: every move, its rule, and the events it raises.

::

    create ──> awaiting_price (no fee) ── set fee ──> pending ── assign ──> matched
                                  └──────── assign needs a fee ────────────┘   │ ▲
    create ──> pending ── auto-dispatch ──> matched          unassign <───────┘ │ (reassign)
    matched ──> picked_up ──> in_transit ──> delivered        (sandbox admin: advance)
    awaiting_price | pending | matched ── cancel ──> cancelled

The rider follows the business's ``paymentTiming`` (snapshotted at create): a
``before_dispatch`` fee must be marked paid before the package is picked up ("rider may wait
until the fee is paid": the sandbox's rider always waits). A delivery that needs a drop-off
code (``requireDeliveryOtp``) is delivered only once its code was issued, which happens when the
fee is marked paid (texted by the service, or the ``delivery.otp_issued`` event).

With ``publicRequest.requireApproval`` every create waits in ``awaiting_price`` without a fee,
even when a pricing rule covers it, until staff approve it by setting the fee.
Cancel and assign are allowed before pickup only (``awaiting_price``, ``pending``,
``matched``); unassign only while ``matched``. The moves the spec only names (``picked_up``,
``in_transit``, ``delivered``) and pricing, payment and OTP resend are sandbox admin actions.
Each method returns the record and the events to send once the caller's response is out.

The rider moves with the delivery (``rider_path``): a rider who gets it reports a fresh fix
where they are, and each advance puts them on the path (the pickup, a third of the way, the
drop-off), with a fresh fix taken now.
"""

from __future__ import annotations

from bot.clocks import Clock
from bot.sandbox.auto_dispatch import may_auto_dispatch, nearest_free_rider, release_job, take_job
from bot.sandbox.error_envelope import ApiError, not_found, validation_error
from bot.sandbox.events import Event, EventFactory
from bot.sandbox.pricing import quote
from bot.sandbox.rider_path import point_at_status, put_rider, start_route
from bot.sandbox.scenario import Scenario
from bot.sandbox.state import (
    DeliveryRecord,
    RiderRecord,
    Store,
    StoredImage,
    new_access_code,
    new_otp_code,
)
from bot.sandbox.validated_order import CreateOrder
from bot.sandbox.validation import as_number
from bot.sandbox.views import delivery_view

BEFORE_PICKUP = frozenset({"awaiting_price", "pending", "matched"})
NEXT_STATUS = {"matched": "picked_up", "picked_up": "in_transit", "in_transit": "delivered"}
# Not shown which statuses count as "drop-off" for an OTP resend: the rider has the package.
DROP_OFF_STATUSES = frozenset({"picked_up", "in_transit"})
FINAL_STATUSES = frozenset({"delivered", "cancelled"})

Outcome = tuple[DeliveryRecord, list[Event]]


class Lifecycle:
    def __init__(
        self, scenario: Scenario, store: Store, clock: Clock, events: EventFactory
    ) -> None:
        self._scenario = scenario
        self._store = store
        self._clock = clock
        self._events = events

    # --- helpers --------------------------------------------------------------------------

    def view(self, record: DeliveryRecord) -> dict[str, object]:
        return delivery_view(record, self._scenario, self._store.riders)

    def get(self, delivery_id: str) -> DeliveryRecord:
        record = self._store.delivery(delivery_id)
        if record is None:
            raise not_found()
        return record

    def _rider(self, record: DeliveryRecord) -> RiderRecord | None:
        return self._store.riders.get(record.rider_id) if record.rider_id else None

    def _event(
        self,
        change: str,
        record: DeliveryRecord,
        previous: str | None,
        rider: RiderRecord | None = None,
        otp_reason: str | None = None,
    ) -> Event:
        return self._events.build(
            change,
            record,
            delivery_view(record, self._scenario, self._store.riders),
            previous_status=previous,
            rider=rider or self._rider(record),
            otp_reason=otp_reason,
        )

    # --- API moves ------------------------------------------------------------------------

    def create(self, order: CreateOrder, images: list[StoredImage], key_id: str) -> Outcome:
        now = self._clock()
        caps = self._scenario.capabilities
        # With approval required, staff price every request themselves: it waits in
        # awaiting_price, unpriced, even when a pricing rule would cover it.
        fee = (
            None
            if caps.publicRequest.requireApproval
            else quote(self._scenario.pricing, order, caps.publicRequest)
        )
        record = DeliveryRecord(
            id=self._store.new_delivery_id(),
            seq=self._store.next_seq(),
            order=order,
            status="pending" if fee is not None else "awaiting_price",
            access_code=new_access_code(),
            created_at=now,
            currency=caps.currency,
            api_key_id=key_id,
            require_otp=caps.requireDeliveryOtp,
            otp_via_webhook=self._scenario.organization.otp_via_webhook,
            payment_timing=caps.paymentTiming,
            fee=fee,
            images=images,
        )
        rider = None
        if may_auto_dispatch(self._scenario, fee):
            rider = nearest_free_rider(
                self._store.riders.values(),
                order.pickup_lat,
                order.pickup_lng,
                now,
                self._scenario.sandbox.auto_dispatch_radius_km,
            )
        if rider is not None:
            record.status, record.rider_id = "matched", rider.id
            take_job(rider, now)
            start_route(record, rider, now)
        self._store.add(record)
        events = [self._event("created", record, None)]
        if rider is not None:
            events.append(self._event("assigned", record, "pending", rider))
        return record, events

    def cancel(self, delivery_id: str, reason: str) -> Outcome:
        record = self.get(delivery_id)
        if record.status not in BEFORE_PICKUP:
            raise ApiError(
                400,
                "cancel_not_allowed",
                f"A delivery that is {record.status} cannot be cancelled; cancel is allowed "
                "only before pickup.",
            )
        now = self._clock()
        previous, rider = record.status, self._rider(record)
        if rider is not None:
            release_job(rider, now)
        record.status, record.rider_id, record.rider_start = "cancelled", None, None
        record.cancelled_at = record.updated_at = now
        record.cancellation_reason = reason
        return record, [self._event("cancelled", record, previous, rider)]

    def assign(self, delivery_id: str, rider_id: str) -> Outcome:
        record = self.get(delivery_id)
        if record.status not in BEFORE_PICKUP:
            raise ApiError(
                400,
                "assign_not_allowed",
                f"A delivery that is {record.status} cannot be assigned; assign is allowed "
                "only before pickup.",
            )
        if record.fee is None or record.fee <= 0:
            raise ApiError(400, "fee_required", "Set a delivery fee before assigning a rider.")
        rider = self._store.riders.get(rider_id)
        if rider is None:
            raise ApiError(400, "rider_not_found", "No rider with this id on this fleet.")
        if not rider.accepted:
            raise ApiError(400, "rider_not_active", "This rider has not accepted the invite.")
        now = self._clock()
        previous, current = record.status, self._rider(record)
        if current is not rider:
            if current is not None:
                release_job(current, now)
            take_job(rider, now)
        record.status, record.rider_id, record.updated_at = "matched", rider.id, now
        start_route(record, rider, now)
        return record, [self._event("assigned", record, previous, rider)]

    def unassign(self, delivery_id: str) -> Outcome:
        record = self.get(delivery_id)
        if record.status != "matched":
            raise ApiError(
                400,
                "unassign_not_allowed",
                f"A rider can be unassigned only while the delivery is matched, not "
                f"{record.status}.",
            )
        now = self._clock()
        rider = self._rider(record)
        if rider is not None:
            release_job(rider, now)
        record.rider_id, record.rider_start, record.updated_at = None, None, now
        record.status = "pending" if record.fee else "awaiting_price"
        return record, [self._event("unassigned", record, "matched", rider)]

    # --- sandbox admin moves ----------------------------------------------------------------

    def set_fee(self, delivery_id: str, amount: float) -> Outcome:
        number = as_number(amount)
        if number is None or number <= 0:
            raise validation_error({"amount": ["must be a number greater than 0"]})
        record = self.get(delivery_id)
        if record.status in FINAL_STATUSES:
            raise ApiError(400, "fee_not_allowed", f"The delivery is {record.status}.")
        if record.payment_status == "paid":
            raise ApiError(400, "fee_already_paid", "The fee was already paid.")
        previous = record.status
        record.fee, record.updated_at = number, self._clock()
        if previous == "awaiting_price":
            record.status = "pending"
            return record, [self._event("priced", record, previous)]
        return record, [self._event("repriced", record, previous)]

    def mark_paid(self, delivery_id: str) -> Outcome:
        record = self.get(delivery_id)
        if record.status == "cancelled":
            raise ApiError(400, "payment_not_allowed", "The delivery is cancelled.")
        if record.fee is None:
            raise ApiError(400, "fee_required", "The delivery has no fee to pay yet.")
        if record.payment_status == "paid":
            raise ApiError(400, "already_paid", "The fee was already marked paid.")
        record.payment_status, record.updated_at = "paid", self._clock()
        events = [self._event("paid", record, record.status)]
        if record.require_otp and record.status != "delivered":
            # Issued now either way: texted by the service, or sent to the caller by webhook.
            record.otp_code = record.otp_code or new_otp_code()
            if record.otp_via_webhook:
                events.append(self._event("otp", record, record.status, otp_reason="payment"))
        return record, events

    def advance(self, delivery_id: str, to: str | None = None) -> Outcome:
        record = self.get(delivery_id)
        target = NEXT_STATUS.get(record.status)
        if target is None or (to is not None and to != target):
            allowed = f"only to {target}" if target else "no further"
            raise ApiError(
                400,
                "advance_not_allowed",
                f"From {record.status} the delivery can move {allowed}.",
            )
        _check_may_move(record, target)
        now = self._clock()
        previous, rider = record.status, self._rider(record)
        record.status, record.updated_at = target, now
        place = point_at_status(record)
        if rider is not None and place is not None:
            put_rider(rider, place, now)
        if target == "delivered" and rider is not None:
            release_job(rider, now)
        return record, [self._event(target, record, previous, rider)]

    def resend_otp(self, delivery_id: str) -> Outcome:
        record = self.get(delivery_id)
        if not record.require_otp:
            raise ApiError(400, "otp_disabled", "This delivery uses photo proof, not a code.")
        if not record.otp_via_webhook:
            raise ApiError(
                400, "otp_not_via_webhook", "OTP via webhook is off: the service texts the code."
            )
        if record.payment_status != "paid":
            raise ApiError(400, "fee_not_paid", "Resend needs the delivery fee to be paid.")
        if record.status not in DROP_OFF_STATUSES:
            raise ApiError(
                400,
                "otp_not_allowed",
                f"Resend needs a drop-off status (picked_up or in_transit), not {record.status}.",
            )
        record.otp_code = record.otp_code or new_otp_code()
        return record, [self._event("otp", record, record.status, otp_reason="resend")]


def _check_may_move(record: DeliveryRecord, target: str) -> None:
    """Refuse a move the business's settings forbid yet: the pickup of an unpaid
    ``before_dispatch`` job, the drop-off of a job whose drop-off code was never issued."""
    paid = record.payment_status == "paid"
    if target == "picked_up" and record.payment_timing == "before_dispatch" and not paid:
        raise ApiError(
            400,
            "fee_not_paid",
            "Payment is due before dispatch: the rider waits until the fee is marked paid.",
        )
    if target == "delivered" and record.require_otp and record.otp_code is None:
        raise ApiError(
            400,
            "otp_not_issued",
            "The receiver has no drop-off code yet: it is issued when the fee is marked paid.",
        )
