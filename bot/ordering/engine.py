"""The conversation engine wired to the Partner API: one call instead of five imports."""

from __future__ import annotations

from collections.abc import Callable

from bot.metrics.business_metrics import NO_METRICS, Metrics
from bot.ordering.catalog import PartnerCatalog
from bot.ordering.counted_creator import CountedCreator
from bot.ordering.creator import PartnerCreator
from bot.ordering.duplicate_hold import HoldingCreator
from bot.ordering.kept_photos import KeptPhotos
from bot.ordering.photo_origin import RehostedPhotos
from bot.ordering.recorded_creates import CreateRecorder
from bot.ordering.request_creator import RequestCreator
from bot.partner.capabilities import CapabilityCache
from bot.partner.client import PartnerClient
from bot.store import Store
from conversations import Engine, Geocoder, Services
from conversations.flow import FlowRegistry
from conversations.flows import default_registry
from conversations.services import OnlinePayment


def build_engine(
    client: PartnerClient,
    cache: CapabilityCache,
    *,
    geocoder: Geocoder | None = None,
    phone_region: str = "NG",
    registry: FlowRegistry | None = None,
    new_idempotency_key: Callable[[], str] | None = None,
    store: Store | None = None,
    public_base_url: str | None = None,
    online_payment: OnlinePayment | None = None,
    codes_by_link: bool = False,
    metrics: Metrics = NO_METRICS,
) -> Engine:
    """An engine over ``client`` and the shared ``cache`` (every shipped flow by default).

    ``new_idempotency_key`` replaces the engine's own key maker (tests pass predictable keys).
    With ``store``, an order identical to one whose create answer was lost is held once
    (``HoldingCreator``), and one whose re-hosted photos expired asks for them again
    (``KeptPhotos``), and each create is recorded in ``store.create_intents`` before it is
    sent (``CreateRecorder``). ``public_base_url`` is the bot's own host, where it re-hosts photos:
    a refused host there is the operators' to fix, any other the customer's (``photo_origin``).
    ``online_payment`` is how online payers are told to pay (``[payments]``); ``codes_by_link``
    whether drop-off codes come by webhook and are handed over by a link (``[relay]
    otp_via_webhook``) rather than texted by the service. ``metrics`` (the business's) count
    each create by its flow and outcome (``CountedCreator``).
    """
    rehosted = RehostedPhotos(public_base_url)
    kept = KeptPhotos(rehosted, store.media, store.clock) if store is not None else None
    recorder = (
        CreateRecorder(store.create_intents, store.holder, store.clock)
        if store is not None
        else None
    )
    creator: RequestCreator = PartnerCreator(client, rehosted, kept, recorder)
    if store is not None:
        creator = HoldingCreator(creator, store.unconfirmed, store.sent)
    services = Services(
        catalog=PartnerCatalog(cache),
        creator=CountedCreator(creator, metrics),
        geocoder=geocoder,
        online_payment=online_payment or OnlinePayment(),
        codes_by_link=codes_by_link,
    )
    extra = {"new_idempotency_key": new_idempotency_key} if new_idempotency_key else {}
    return Engine(
        registry if registry is not None else default_registry(),
        services,
        default_phone_region=phone_region,
        **extra,
    )
