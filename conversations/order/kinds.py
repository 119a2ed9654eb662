"""The order's kinds and modes, as plain ``Literal``s (the Partner API spells them the same)."""

from __future__ import annotations

from typing import Literal

ServiceKind = Literal["pickup_delivery", "errand"]
DeliveryMode = Literal["pickup", "warehouse"]
ErrandMode = Literal["at_place", "link", "photo"]
PackageSize = Literal["small", "medium", "large"]
CollectionMethod = Literal["cash_on_delivery", "online_checkout"]
Plan = Literal["basic", "pro", "scale", "global"]
PaymentTiming = Literal["before_dispatch", "after_delivery", "off_platform"]
CoverageMode = Literal["worldwide", "selected_regions", "radius_from_hub"]
PricingMode = Literal["quote_on_review", "fixed", "starting_from", "hidden"]
LocationCategory = Literal["hostel", "building", "library", "gate", "landmark", "other"]
UnitMode = Literal["none", "free_text", "list"]

# Open enums: the spec lists known values "or other string". Typed as ``str`` so an unknown value
# from a newer service parses; the known values are kept for callers that want to switch on them.
OpenServiceKind = str
OpenPackageSize = str
OpenCollectionMethod = str
OpenRequestSource = str
