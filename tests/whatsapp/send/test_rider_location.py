"""The rider on the map on WhatsApp (``WhatsAppRiderMap``) through the fake Cloud API: one
location message per milestone, inside the customer-service window only; a milestone without
a position waits for one; outside the window nothing goes until the customer writes."""

from __future__ import annotations

from bot.store.rider_positions import Fix, Point
from bot.tracking.rider_map import NOTHING_SHOWN
from bot.tracking.rider_view import RiderView
from bot.whatsapp.rider_location import WhatsAppRiderMap
from bot.whatsapp.windows import WINDOW_SECONDS
from conversations.texts.deliveries_texts import short_ref
from tests.whatsapp_fake.cloud_fixtures import CUSTOMER

from .conftest import CHAT, DELIVERY, Sending, texts

YABA = Point(6.5095, 3.3711)
AKOKA = Point(6.5158, 3.3898)


def rider_map(sending: Sending) -> WhatsAppRiderMap:
    return WhatsAppRiderMap(sending.sender, sending.windows, sending.store, texts().catalogue_for)


def view(
    milestone: str, at: Point | None, *, rider: str | None = "Musa Bello", when: float = 0.0
) -> RiderView:
    return RiderView(
        delivery_id=DELIVERY,
        ref=short_ref(DELIVERY),
        milestone=milestone,
        rider_id="rdr_1",
        rider_name=rider,
        vehicle_type="motorbike",
        position=None if at is None else Fix(at, when),
        eta_minutes=None if at is None else 12,
        text=f"{milestone}: the rider's sentence",
    )


async def test_one_pin_per_milestone_named_for_the_rider_with_the_sentence_under_it(
    sending: Sending,
) -> None:
    await sending.ordered(language="en")
    await sending.customer_wrote()
    pins = rider_map(sending)

    shown = await pins.show(CHAT, view("matched", YABA), NOTHING_SHOWN)
    assert shown == "matched"
    # Within the milestone the rider moves and nothing more goes.
    assert await pins.show(CHAT, view("matched", AKOKA, when=20), shown) == shown
    shown = await pins.show(CHAT, view("picked_up", AKOKA, when=40), shown)
    assert shown == "picked_up"
    await pins.end(CHAT, view("picked_up", AKOKA, when=40), shown)

    first, second = sending.fake.sent_to(CUSTOMER)
    assert (first.kind, first.latitude, first.longitude) == ("location", 6.5095, 3.3711)
    assert (first.place_name, first.address) == ("Musa", "matched: the rider's sentence")
    assert (second.latitude, second.address) == (6.5158, "picked_up: the rider's sentence")
    assert sending.fake.refusals == {}


async def test_a_milestone_without_a_position_sends_its_pin_when_one_comes(
    sending: Sending,
) -> None:
    await sending.ordered(language="fr")
    await sending.customer_wrote()
    pins = rider_map(sending)

    assert await pins.show(CHAT, view("in_transit", None), "picked_up") == "picked_up"
    assert sending.fake.sent_to(CUSTOMER) == []
    shown = await pins.show(CHAT, view("in_transit", YABA, rider=None), "picked_up")

    assert shown == "in_transit"
    [pin] = sending.fake.sent_to(CUSTOMER)
    assert pin.place_name == "Votre livreur"  # the customer's language, without a name


async def test_outside_the_window_nothing_goes_until_the_customer_writes(
    sending: Sending,
) -> None:
    await sending.ordered()
    await sending.customer_wrote()
    sending.clock.advance(WINDOW_SECONDS + 60)
    pins = rider_map(sending)

    assert await pins.show(CHAT, view("matched", YABA), NOTHING_SHOWN) == NOTHING_SHOWN
    assert sending.fake.sent_to(CUSTOMER) == []
    await sending.customer_wrote()
    assert await pins.show(CHAT, view("matched", YABA), NOTHING_SHOWN) == "matched"
    assert [m.kind for m in sending.fake.sent_to(CUSTOMER)] == ["location"]
