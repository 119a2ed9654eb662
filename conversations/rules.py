"""The capabilities allow-list, read as "what may be offered": one function per rule.

Every rule of the spec's "Rules a client must follow" table that decides what a customer is
offered lives here, so the flows only ask and the tests check each rule in one place. A value
that is missing or false means "not allowed".
"""

from __future__ import annotations

from collections.abc import Sequence

from conversations.order.business_capabilities import Capabilities, CuratedLink
from conversations.order.kinds import CollectionMethod, ErrandMode, ServiceKind
from conversations.order.locations import ServiceLocation, Warehouse
from conversations.texts import money_texts
from conversations.texts.catalogue import Catalogue
from conversations.texts.money_texts import format_money as format_money  # kept for callers
from conversations.texts.said import Said, said

# Labels and sentences are catalogue messages (``rules.*``), said in the turn's language.
SERVICE_KIND_LABELS: dict[ServiceKind, Said] = {
    "pickup_delivery": said("rules.kind.pickup_delivery"),
    "errand": said("rules.kind.errand"),
}
ERRAND_MODE_LABELS: dict[ErrandMode, Said] = {
    "at_place": said("rules.errand_mode.at_place"),
    "link": said("rules.errand_mode.link"),
    "photo": said("rules.errand_mode.photo"),
}
PAYMENT_LABELS: dict[CollectionMethod, Said] = {
    "cash_on_delivery": said("rules.payment.cash_on_delivery"),
    "online_checkout": said("rules.payment.online_checkout"),
}
# Cash is paid in person; ``paymentTiming`` says when and to whom (docs/flows.md, "Money"):
# before dispatch it is the rider at the pickup, off platform the business, never "on delivery".
_CASH_BY_TIMING: dict[str, Said] = {
    "before_dispatch": said("rules.payment.cash_at_pickup"),
    "off_platform": said("rules.payment.cash_to_business"),
}


def payment_label(catalogue: Catalogue, method: CollectionMethod, caps: Capabilities) -> str:
    """The collection method as the customer chooses it, worded for the business's
    ``paymentTiming`` (cash before dispatch is not "on delivery")."""
    if method == "cash_on_delivery" and caps.paymentTiming in _CASH_BY_TIMING:
        return _CASH_BY_TIMING[caps.paymentTiming].render(catalogue)
    return PAYMENT_LABELS[method].render(catalogue)


SETTINGS_BROKEN = said("rules.settings_broken")
NOTHING_OFFERED = said("rules.nothing_offered")


def service_kinds(caps: Capabilities) -> list[ServiceKind]:
    """Kinds that may be offered: enabled ones, and errands only when a mode can be collected.

    ``enabledServiceKinds`` wins over the presence of an ``errand`` object; an enabled errand
    kind without any enabled mode cannot be collected, so it is not offered either.
    """
    kinds: list[ServiceKind] = []
    for kind in caps.enabledServiceKinds:
        if kind == "errand" and not errand_modes(caps):
            continue
        if kind not in kinds:
            kinds.append(kind)
    return kinds


def default_service_kind(caps: Capabilities) -> ServiceKind | None:
    default = caps.defaultServiceKind
    return default if default in service_kinds(caps) else None


def ordering_problem(
    catalogue: Catalogue, caps: Capabilities, kind: ServiceKind | None = None
) -> str | None:
    """Why nothing (or not ``kind``) can be ordered, or None when ordering can go ahead."""
    offered = service_kinds(caps)
    if not offered:
        return NOTHING_OFFERED.render(catalogue)
    if kind is not None and kind not in offered:
        return kind_not_offered(catalogue, kind)
    if not payment_methods(caps):
        return SETTINGS_BROKEN.render(catalogue)
    return None


def kind_not_offered(catalogue: Catalogue, kind: ServiceKind) -> str:
    """Why ``kind`` cannot be ordered (the kind named as a sentence names it, not as its
    button does)."""
    return catalogue.say(f"rules.not_offered.{kind}")


def usable_warehouses(caps: Capabilities, rows: Sequence[Warehouse]) -> list[Warehouse]:
    """Warehouses a customer may drop a package at.

    None unless ``allowWarehouseDropoff``; only the first ``maxWarehouses`` rows (1 on basic);
    and never a row without coordinates, since the pickup pin is copied from the row.
    """
    if not caps.allowWarehouseDropoff:
        return []
    limit = caps.features.maxWarehouses
    listed = list(rows) if limit is None else list(rows)[: max(limit, 0)]
    return [row for row in listed if row.coords is not None]


def payment_methods(caps: Capabilities) -> list[CollectionMethod]:
    return caps.collection_methods


def pod_allowed(caps: Capabilities, kind: ServiceKind) -> bool:
    """Cash-to-collect may be offered on pickup & delivery only, and only when POD is on."""
    return caps.pod.enabled and kind == "pickup_delivery"


def errand_modes(caps: Capabilities) -> list[ErrandMode]:
    return caps.errand_modes


def default_errand_mode(caps: Capabilities) -> ErrandMode | None:
    default = caps.errand.defaultMode if caps.errand else None
    return default if default in errand_modes(caps) else None


def unknown_shop_allowed(caps: Capabilities) -> bool:
    return bool(caps.errand and caps.errand.allowUnknownShopLocation)


def curated_links(caps: Capabilities) -> list[CuratedLink]:
    return list(caps.errand.curatedLinks) if caps.errand else []


def saved_places(caps: Capabilities, rows: Sequence[ServiceLocation]) -> list[ServiceLocation]:
    """Saved places to offer: none when the plan has no service locations."""
    return list(rows) if caps.features.serviceLocations else []


def fee_hints(
    catalogue: Catalogue,
    caps: Capabilities,
    method: CollectionMethod | None = None,
    *,
    customer_receives: bool = False,
    codes_by_link: bool = False,
) -> list[str]:
    """What the customer should know before confirming: the fee, who pays it, when and how
    (for the chosen ``method``), then the approval, the dispatch, the drop-off proof and the
    area; ``customer_receives`` when the customer is the receiver (an errand: no receiver is
    asked). The drop-off code is said the one way it will come: texted by the service, or
    (``codes_by_link``, OTP by webhook) handed over here, by a link for someone else."""
    hints = money_texts.summary_lines(catalogue, caps, method)
    pricing = caps.publicRequest
    if pricing.requireApproval:
        hints.append(catalogue.say("rules.hint.approval"))
    elif pricing.autoDispatch:
        hints.append(catalogue.say("rules.hint.auto_dispatch"))
    if caps.requireDeliveryOtp:
        code = "rules.hint.otp_you" if customer_receives else "rules.hint.otp_receiver"
        hints.append(catalogue.say(f"{code}_link" if codes_by_link else code))
    else:
        hints.append(catalogue.say("rules.hint.no_otp"))
    if caps.coverage.mode == "radius_from_hub" and caps.coverage.radiusKm:
        hints.append(
            catalogue.say("rules.hint.radius", km=catalogue.number(caps.coverage.radiusKm))
        )
    return hints
