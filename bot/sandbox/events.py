"""Webhook events: which change raises which event type, and the body the receiver gets.

Bodies are built when the change happens, so ``data.object`` is the delivery exactly as that
change left it (as ``GET /deliveries/{id}`` showed it then), even if the event is sent later or
retried. A status change to a final status raises its own event instead of
``delivery.status_changed``: ``delivered`` raises ``delivery.completed`` and ``cancelled``
raises ``delivery.cancelled``.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from bot.clocks import Clock
from bot.sandbox.narration import Story, narrate
from bot.sandbox.scenario import Scenario
from bot.sandbox.state import DeliveryRecord, RiderRecord

EVENT_TYPE_BY_CHANGE = {
    "created": "delivery.created",
    "assigned": "delivery.status_changed",
    "unassigned": "delivery.status_changed",
    "priced": "delivery.status_changed",
    "picked_up": "delivery.status_changed",
    "in_transit": "delivery.status_changed",
    "repriced": "delivery.updated",
    "paid": "delivery.updated",
    "delivered": "delivery.completed",
    "cancelled": "delivery.cancelled",
    "otp": "delivery.otp_issued",
}


@dataclass(frozen=True)
class Event:
    """One event, ready to be sent to every endpoint that subscribes to its type."""

    id: str
    type: str
    body: dict[str, Any]

    @cached_property
    def raw(self) -> bytes:
        """The exact bytes that are signed and sent (the same for every attempt)."""
        return json.dumps(self.body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


class EventFactory:
    def __init__(self, scenario: Scenario, clock: Clock) -> None:
        self._scenario = scenario
        self._clock = clock

    def build(
        self,
        change: str,
        record: DeliveryRecord,
        view: dict[str, Any],
        *,
        previous_status: str | None,
        rider: RiderRecord | None = None,
        otp_reason: str | None = None,
    ) -> Event:
        event_type = EVENT_TYPE_BY_CHANGE[change]
        story = Story(
            change=change,
            record=record,
            scenario=self._scenario,
            tracking_url=str(view["tracking"]["url"]),
            rider=rider,
            previous_status=previous_status,
            otp_reason=otp_reason,
        )
        words = narrate(story)
        data: dict[str, Any] = {"object": view, "previous_status": previous_status}
        if change == "otp":
            data["otp"] = {
                "code": record.otp_code,
                # An errand may have no separate receiver: the code then goes to the sender.
                "receiver_phone": record.order.receiver_phone or record.order.sender_phone,
                "reason": otp_reason,
                "channel": "webhook",
            }
        event_id = f"evt_{secrets.token_hex(12)}"
        body = {
            "id": event_id,
            "type": event_type,
            "created": int(self._clock()),
            "data": data,
            "summary": words.summary,
            "customer_message_hint": words.customer_message_hint,
            "docs_url": f"{self._scenario.sandbox.docs_url}#{event_type}",
            "agent_notes": words.agent_notes,
        }
        return Event(event_id, event_type, body)
