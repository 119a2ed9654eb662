"""The ten Partner API operations: name, route, scope, and how each one fails upstream.

The names are what the admin API and ``Sandbox.inject_fault`` take (``"METHOD /path"`` works
too) and what the call counters report.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.sandbox.auth import READ_SCOPE, WRITE_SCOPE

API_PREFIX = "/api/v1"


@dataclass(frozen=True)
class Operation:
    name: str
    method: str
    path: str
    scope: str
    failure_status: int
    failure_code: str

    @property
    def label(self) -> str:
        return f"{self.method} {self.path}"


OPERATIONS: tuple[Operation, ...] = (
    Operation("get_capabilities", "GET", "/capabilities", READ_SCOPE, 503, "capabilities_failed"),
    Operation("list_warehouses", "GET", "/warehouses", READ_SCOPE, 503, "warehouses_failed"),
    # The spec shows no failure code for service locations; the sandbox's choice.
    Operation(
        "list_service_locations",
        "GET",
        "/service-locations",
        READ_SCOPE,
        503,
        "service_locations_failed",
    ),
    Operation("create_delivery", "POST", "/deliveries", WRITE_SCOPE, 503, "create_failed"),
    Operation("get_delivery", "GET", "/deliveries/{deliveryId}", READ_SCOPE, 500, "get_failed"),
    # The spec shows no code for a failed delivery list; the sandbox uses list_failed.
    Operation("list_deliveries", "GET", "/deliveries", READ_SCOPE, 500, "list_failed"),
    Operation(
        "cancel_delivery",
        "POST",
        "/deliveries/{deliveryId}/cancel",
        WRITE_SCOPE,
        500,
        "cancel_failed",
    ),
    Operation("list_riders", "GET", "/riders", READ_SCOPE, 500, "list_failed"),
    Operation(
        "assign_rider", "POST", "/deliveries/{deliveryId}/assign", WRITE_SCOPE, 500, "assign_failed"
    ),
    Operation(
        "unassign_rider",
        "POST",
        "/deliveries/{deliveryId}/unassign",
        WRITE_SCOPE,
        500,
        "unassign_failed",
    ),
)
OPERATIONS_BY_NAME = {operation.name: operation for operation in OPERATIONS}


def find_operation(name: str) -> Operation | None:
    """An operation by name (``create_delivery``) or label (``POST /deliveries``)."""
    name = " ".join(name.split())
    for operation in OPERATIONS:
        full_label = f"{operation.method} {API_PREFIX}{operation.path}"
        if name in (operation.name, operation.label, full_label):
            return operation
    return None
