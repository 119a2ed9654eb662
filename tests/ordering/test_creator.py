"""PartnerCreator: every Partner error of a create becomes one refusal reason, and the
``Refused`` value carries its decision: the capabilities are to be refreshed when the error says
they are stale (the engine does it, through the catalog; the creator leaves the cache alone)."""

from __future__ import annotations

import httpx
import pytest

from bot.chat_ref import ChatRef
from bot.ordering import PartnerCreator, refusal_for
from bot.ordering.creator import reason_for
from bot.ordering.kept_photos import EXPIRY_MARGIN_SECONDS, KeptPhotos
from bot.ordering.photo_origin import RehostedPhotos
from bot.partner import errors
from bot.partner.models import PLACE_FIELDS, CreateDeliveryRequest
from bot.web import media_url
from conversations import Created, Refused
from conversations.texts import dialogue
from tests.support.words import SHIPPED

from .conftest import BOT_HOST, JPEG, PHOTO_URL, MakeOrg, Org


def _cause(error: errors.PartnerError, cause: BaseException) -> errors.PartnerError:
    error.__cause__ = cause
    return error


@pytest.mark.parametrize(
    ("error", "reason"),
    [
        (errors.InvalidFields(field_errors={"receiverPhone": ["bad"]}), "validation"),
        (errors.InvalidFields(field_errors={"customerCollectionMethod": ["no"]}), "payment"),
        (
            errors.InvalidFields(field_errors={"isPODEnabled": ["no"], "podAmount": ["no"]}),
            "payment",
        ),
        (
            errors.InvalidFields(field_errors={"podAmount": ["no"], "receiverName": ["empty"]}),
            "validation",
        ),
        (errors.InvalidFields("checked before sending", status=0), "validation"),
        (errors.ServiceDisabled(status=403), "service_disabled"),
        (
            errors.CreateRejected(
                "outside the area",
                status=403,
                code="outside_coverage",
                field_errors={"deliveryCoords": ["outside"]},
            ),
            "coverage",
        ),
        (errors.CreateRejected("trust check failed", status=403), "coverage"),
        (errors.CreateRejected("Cash collection is not allowed", status=403), "payment"),
        (errors.CreateRejected(status=403, code="payment_method_blocked"), "payment"),
        (errors.ImageHostRejected(status=400), "image_host"),
        (errors.CreateFailed(status=503), "unavailable"),
        (errors.UpstreamUnavailable(status=503, code="auth_lookup_failed"), "unavailable"),
        (errors.OperationFailed(status=500, code="internal_error"), "unavailable"),
        (errors.ServerError(status=502), "unavailable"),
        (_cause(errors.ConnectionFailed(), httpx.ConnectError("refused")), "unavailable"),
        (errors.RequestTimeout(), "unavailable"),
        (errors.PartnerError("an answer of an unexpected shape", status=201), "unavailable"),
        (errors.InvalidApiKey(status=401), "other"),
        (errors.MissingScope(status=403), "other"),
        (errors.BillingTerminated(status=403), "other"),
        (errors.NotFound(status=404), "other"),
    ],
    ids=lambda value: value if isinstance(value, str) else type(value).__name__,
)
def test_each_error_has_one_reason(error: errors.PartnerError, reason: str) -> None:
    assert reason_for(error) == reason
    assert refusal_for(error).reason == reason


def test_what_the_customer_may_be_told_is_kept() -> None:
    limited = refusal_for(errors.RateLimited(status=429, retry_after=42.0))
    assert (limited.reason, limited.retry_after) == ("rate_limited", 42.0)
    assert limited.keep_key and limited.reask == ()
    invalid = refusal_for(errors.InvalidFields(field_errors={"receiverPhone": ["too short"]}))
    assert invalid.field_errors == {"receiverPhone": ["too short"]}
    assert invalid.reask == ("receiverPhone",) and not invalid.refresh
    # A key or billing problem is the business's to fix: its wording goes to the operators,
    # and never to the customer.
    revoked = refusal_for(errors.InvalidApiKey("API key revoked", status=401))
    assert "API key revoked" in (dialogue.operator_alert(SHIPPED, revoked) or "")
    assert "API key revoked" not in dialogue.refusal(SHIPPED, revoked)


def test_a_refusal_the_business_must_fix_alerts_the_operators() -> None:
    billing = refusal_for(errors.BillingTerminated(status=403))
    assert billing.alert_operators and not billing.keep_key
    photos = refusal_for(errors.ImageHostRejected(status=400))
    assert photos.alert_operators and photos.reask == ()
    assert not refusal_for(errors.ServiceDisabled(status=403)).alert_operators


def test_a_refused_link_the_customer_gave_asks_for_the_photos_again() -> None:
    given = refusal_for(errors.ImageHostRejected(status=400), given_photos=True)
    assert given.reason == "photo_link" and given.reask == ("packageImages",)
    assert not given.alert_operators and dialogue.operator_alert(SHIPPED, given) is None
    # Given photos change nothing for any other refusal.
    assert reason_for(errors.ServiceDisabled(status=403), given_photos=True) == "service_disabled"


def _request(**overrides: object) -> CreateDeliveryRequest:
    body: dict[str, object] = {
        "serviceKind": "pickup_delivery",
        "deliveryMode": "pickup",
        "senderName": "Ada Obi",
        "senderPhone": "+2348031234567",
        "receiverName": "Bola Ahmed",
        "receiverPhone": "+2348022223333",
        "pickupAddress": "Ozone Cinema, Yaba",
        "pickupCoords": {"lat": 6.5095, "lng": 3.3711},
        "deliveryAddress": "5 Awolowo Road, Ikoyi",
        "deliveryCoords": {"lat": 6.45, "lng": 3.438},
        "packageDescription": "Shoes",
        "packageSize": "small",
        "packageImages": [PHOTO_URL],
        "customerCollectionMethod": "cash_on_delivery",
        "idempotencyKey": "test-key-0001",
    }
    return CreateDeliveryRequest.model_validate(body | overrides)


async def test_an_accepted_create_is_created(org: Org) -> None:
    outcome = await PartnerCreator(org.client).create(_request())
    assert isinstance(outcome, Created)
    assert outcome.delivery.status == "matched"


async def test_an_outage_is_unavailable_at_once_and_its_key_is_kept(org: Org) -> None:
    # A 503 may come after the delivery was made: not repeated by the client (the spec does not
    # say a reused key is deduplicated); the key is kept for the follow-up's read-back and retry.
    org.sandbox.inject_fault("create_delivery", "status", count=1)
    creator = PartnerCreator(org.client)
    outcome = await creator.create(_request())
    assert isinstance(outcome, Refused) and outcome.reason == "unavailable"
    assert outcome.outcome_unknown and outcome.keep_key and not outcome.refresh
    assert org.calls("create_delivery") == 1
    again = await creator.create(_request())
    assert isinstance(again, Created)


async def test_a_coverage_refusal_asks_to_refresh_and_names_the_places(org: Org) -> None:
    await org.cache.get()
    outcome = await PartnerCreator(org.client).create(
        _request(deliveryCoords={"lat": 9.065, "lng": 7.47})
    )
    assert isinstance(outcome, Refused) and outcome.reason == "coverage"
    assert "deliveryCoords" in outcome.field_errors
    assert outcome.refresh and not outcome.keep_key
    assert outcome.reask and set(outcome.reask) <= set(PLACE_FIELDS)
    # The creator leaves the shared cache alone: the engine refreshes through the catalog.
    await org.cache.get()
    assert org.calls("get_capabilities") == 1


async def test_a_stale_allow_list_asks_to_refresh_but_a_typo_does_not(
    make_org: MakeOrg, scenario_data: dict[str, object]
) -> None:
    caps = scenario_data["capabilities"]
    assert isinstance(caps, dict)
    caps["paymentCollection"]["onlineCheckout"] = False
    org = make_org(scenario_data)
    creator = PartnerCreator(org.client)
    paid_online = await creator.create(_request(customerCollectionMethod="online_checkout"))
    assert isinstance(paid_online, Refused) and paid_online.reason == "payment"
    assert paid_online.refresh
    assert "customerCollectionMethod" in paid_online.reask
    # A key reused for another body: refused, but nothing about the allow-list.
    assert isinstance(await creator.create(_request(idempotencyKey="test-key-2")), Created)
    reused = await creator.create(_request(idempotencyKey="test-key-2", packageDescription="Hat"))
    assert isinstance(reused, Refused) and reused.reason == "validation"
    assert list(reused.field_errors) == ["idempotencyKey"]
    assert not reused.refresh
    assert org.calls("get_capabilities") == 0


async def test_a_removed_curated_link_asks_to_refresh(org: Org) -> None:
    errand = _request(
        serviceKind="errand",
        receiverName=None,
        receiverPhone=None,
        packageImages=[],
        errandMode="link",
        errandLinks=[{"url": "https://gone.example.com", "note": "", "curatedId": "link_gone"}],
        errandBudgetNgn="",
        errandSubstituteOk=True,
        shopPhone="",
        pickupLocationUnknown=False,
    )
    outcome = await PartnerCreator(org.client).create(errand)
    assert isinstance(outcome, Refused) and outcome.reason == "validation"
    assert outcome.refresh
    assert any(name.startswith("errandLinks") for name in outcome.reask)


async def test_a_long_rate_limit_is_reported_with_its_wait(make_org: MakeOrg) -> None:
    org = make_org(rate_limit_retries=0)
    org.sandbox.inject_fault("create_delivery", "status", status=429, code="rate_limited")
    outcome = await PartnerCreator(org.client).create(_request())
    assert isinstance(outcome, Refused) and outcome.reason == "rate_limited"
    assert outcome.retry_after is not None and outcome.retry_after > 0
    assert outcome.keep_key


async def test_whose_refused_photos_they_were_decides_the_reason(
    make_org: MakeOrg, scenario_data: dict[str, object]
) -> None:
    images = scenario_data["images"]
    assert isinstance(images, dict)
    images["allowlist"] = ["media.swift-lagos.example"]  # not the bot's own host
    org = make_org(scenario_data)
    creator = PartnerCreator(org.client, RehostedPhotos("https://bot.shop.example"))
    own = "https://bot.shop.example/media/tok123"
    foreign = "https://elsewhere.example/p.jpg"
    cases = [([own], "image_host"), ([foreign], "photo_link"), ([own, foreign], "photo_link")]
    for number, (photos, reason) in enumerate(cases):
        outcome = await creator.create(
            _request(packageImages=photos, idempotencyKey=f"photo-key-{number:04}")
        )
        assert isinstance(outcome, Refused) and outcome.reason == reason, photos
    # Without the bot's own host (no public host: nothing is re-hosted), every photo is given.
    alone = await PartnerCreator(org.client).create(
        _request(packageImages=[own], idempotencyKey="photo-key-0099")
    )
    assert isinstance(alone, Refused) and alone.reason == "photo_link"


async def _creator_over_the_store(org: Org) -> tuple[PartnerCreator, str, float]:
    """A creator that checks the bot's own photos in ``org``'s store, one photo stored there
    (its URL) and when that photo expires."""
    assert org.store is not None
    rehosted = RehostedPhotos(BOT_HOST)
    creator = PartnerCreator(org.client, rehosted, KeptPhotos(rehosted, org.store.media, org.clock))
    photo = await org.store.media.put(
        JPEG, content_type="image/jpeg", chat=ChatRef("telegram", 42), expires_at=org.clock() + 3600
    )
    return creator, media_url(BOT_HOST, photo.token), photo.expires_at


async def test_a_create_whose_own_photo_expired_is_not_sent_and_asks_for_photos(
    org: Org,
) -> None:
    creator, photo, expires_at = await _creator_over_the_store(org)
    org.clock.advance(expires_at - org.clock() + 1)

    outcome = await creator.create(_request(packageImages=[photo]))

    assert isinstance(outcome, Refused) and outcome.reason == "photos_expired"
    assert outcome.reask == ("packageImages",) and not outcome.alert_operators
    assert org.calls("create_delivery") == 0


async def test_a_photo_about_to_expire_counts_as_gone_and_a_fresh_one_is_sent(org: Org) -> None:
    creator, photo, expires_at = await _creator_over_the_store(org)
    org.clock.advance(expires_at - org.clock() - EXPIRY_MARGIN_SECONDS + 1)
    outcome = await creator.create(_request(packageImages=[photo]))
    assert isinstance(outcome, Refused) and outcome.reason == "photos_expired"

    creator, fresh, _ = await _creator_over_the_store(org)
    outcome = await creator.create(_request(packageImages=[fresh], idempotencyKey="test-key-0002"))
    assert isinstance(outcome, Created)
    assert org.calls("create_delivery") == 1


async def test_a_refused_host_with_the_photos_still_stored_is_the_operators(
    make_org: MakeOrg, scenario_data: dict[str, object]
) -> None:
    images = scenario_data["images"]
    assert isinstance(images, dict)
    images["allowlist"] = ["elsewhere.example"]  # not the bot's own host
    org = make_org(scenario_data)
    await org.open_store()
    creator, photo, _ = await _creator_over_the_store(org)

    outcome = await creator.create(_request(packageImages=[photo]))

    assert isinstance(outcome, Refused) and outcome.reason == "image_host"
    assert outcome.alert_operators
    assert reason_for(errors.ImageHostRejected(status=400), gone_photos=True) == "photos_expired"
