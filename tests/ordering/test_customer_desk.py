"""CustomerDesk against the sandbox and a real store: a customer sees and cancels only their own
deliveries, every answer is plain words, and a drop-off code goes only to the proven receiver."""

from __future__ import annotations

import uuid

import pytest

from bot.channel_texts import shipped_channel_texts
from bot.chat_ref import TELEGRAM, ChatRef, UserRef
from bot.ordering import ChatService, CustomerDesk
from bot.partner.models import Coords, CreateDeliveryRequest, Delivery
from bot.store import Store
from conversations.texts import desk_texts, handoff_texts
from conversations.texts.business_texts import BusinessTexts
from conversations.texts.catalogue import DEFAULT_TEXTS
from conversations.texts.deliveries_texts import short_ref
from conversations.texts.desk_texts import ChannelWords

from .conftest import PHOTO_URL, START, MakeOrg, Org

WORDS = ChannelWords(
    new="/new",
    status="/status",
    deliveries="/deliveries",
    cancel_delivery="/cancel_delivery",
    share_contact="telegram.share_contact",
    share_own_contact="telegram.share_own_contact",
)
ADA, BOB, BOLA = UserRef(TELEGRAM, 1001), UserRef(TELEGRAM, 1002), UserRef(TELEGRAM, 1003)


def private_chat(user: UserRef) -> ChatRef:
    """The user's own chat with the bot (Telegram numbers it as the user)."""
    return ChatRef(user.channel, user.id)


RECEIVER = "+2348098765432"
# The business's texts with every channel's words, as a configured bot has them.
SHIPPED = BusinessTexts(DEFAULT_TEXTS.with_channels(*shipped_channel_texts()))
TURN = SHIPPED.catalogue_for(None)  # the customer's turn, in the business default


def order_request() -> CreateDeliveryRequest:
    """Yaba to Ikoyi in the default scenario: inside coverage, near rider Tunde."""
    return CreateDeliveryRequest(
        serviceKind="pickup_delivery",
        deliveryMode="pickup",
        senderName="Adaeze Nwosu",
        senderPhone="+2348012345678",
        receiverName="Bola Ahmed",
        receiverPhone=RECEIVER,
        pickupAddress="12 Herbert Macaulay Way, Yaba, Lagos",
        pickupCoords=Coords(lng=3.3792, lat=6.5090),
        deliveryAddress="5 Awolowo Road, Ikoyi, Lagos",
        deliveryCoords=Coords(lng=3.4380, lat=6.4500),
        packageDescription="A pair of shoes in a box",
        packageSize="small",
        packageImages=[PHOTO_URL],
        customerCollectionMethod="cash_on_delivery",
    )


class Orders:
    """Deliveries created at the sandbox and linked to their customer, a minute apart."""

    def __init__(self, org: Org) -> None:
        self.org = org
        self.created = START

    @property
    def store(self) -> Store:
        assert self.org.store is not None
        return self.org.store

    async def order(self, user: UserRef, *, linked: bool = True) -> Delivery:
        delivery = await self.org.client.create_delivery(order_request())
        if linked:
            await self.link(delivery.id, user, delivery.status, delivery.tracking_url)
        return delivery

    async def link(
        self,
        delivery_id: str,
        user: UserRef,
        status: str = "pending",
        tracking_url: str | None = None,
    ) -> None:
        self.created += 60
        await self.store.deliveries.add(
            delivery_id,
            private_chat(user),
            user.id,
            self.created,
            RECEIVER,
            tracking_url,
            status,
        )

    async def fake(self, user: UserRef, count: int) -> list[str]:
        """Deliveries linked in the store only, newest first (the list never asks the service)."""
        ids = [str(uuid.uuid4()) for _ in range(count)]
        for delivery_id in ids:
            await self.link(delivery_id, user)
        return ids[::-1]


@pytest.fixture
def orders(org: Org) -> Orders:
    return Orders(org)


@pytest.fixture
def desk(org: Org) -> CustomerDesk:
    assert org.store is not None
    return CustomerDesk(org.store, org.client, WORDS, phone_region="NG")


def api_calls(org: Org) -> int:
    return sum(org.sandbox.call_counts().values())


# --- status -----------------------------------------------------------------------------------


async def test_status_by_full_id_short_reference_or_none_for_the_latest(
    desk: CustomerDesk, orders: Orders
) -> None:
    first = await orders.order(ADA)
    latest = await orders.order(ADA)
    for typed in (first.id, short_ref(first.id), short_ref(first.id).lower(), f"  {first.id} "):
        reply = await desk.status(TURN, ADA, typed)
        assert reply.outcome == "found"
        assert reply.text.startswith(f"Delivery {short_ref(first.id)}\n")
        assert reply.delivery is not None and reply.delivery.delivery_id == first.id
    reply = await desk.status(TURN, ADA)
    assert reply.outcome == "found" and reply.delivery is not None
    assert reply.delivery.ref == short_ref(latest.id)
    assert reply.delivery.status == "pending"  # the nearby rider is busy with the first
    assert reply.delivery.status_text == "waiting for a rider"
    assert reply.text.splitlines()[1] == "Your delivery is booked and waiting for a rider."


async def test_status_in_plain_words(desk: CustomerDesk, orders: Orders, org: Org) -> None:
    delivery = await orders.order(ADA)
    lines = (await desk.status(TURN, ADA)).text.splitlines()
    assert lines[1] == "A rider (Tunde, motorbike) is assigned and heading to pickup."
    assert "Rider: Tunde Bakare (motorbike)" in lines
    fee = org.sandbox.delivery(delivery.id)["payment"]["delivery_fee"]
    assert f"Fee: NGN {fee:,.0f}, not paid yet" in lines
    assert "To: 5 Awolowo Road, Ikoyi, Lagos" in lines
    assert lines[-1] == f"Track it here: {delivery.tracking_url}"


async def test_anything_not_the_customers_own_is_unknown_and_never_asked_for(
    desk: CustomerDesk, orders: Orders, org: Org
) -> None:
    adas = await orders.order(ADA)
    elsewhere = await orders.order(ADA, linked=False)  # exists at the service, not ours
    calls = api_calls(org)
    answers = set()
    for typed in (adas.id, short_ref(adas.id), elsewhere.id, str(uuid.uuid4()), "3f2a9"):
        reply = await desk.status(TURN, BOB, typed)
        assert reply.outcome == "unknown" and reply.delivery is None
        assert reply.text == desk_texts.unknown_delivery(TURN, typed, WORDS)
        answers.add(reply.text.replace(typed, "<ref>"))
    assert answers == {"I can't find a delivery <ref> among yours. /deliveries lists them."}
    # Ada's own short reference needs six characters at least to mean one delivery.
    assert (await desk.status(TURN, ADA, short_ref(adas.id)[:5])).outcome == "unknown"
    assert api_calls(org) == calls


async def test_nothing_ordered_yet(desk: CustomerDesk) -> None:
    reply = await desk.status(TURN, BOB)
    assert (reply.outcome, reply.text) == ("none_yet", desk_texts.none_yet(TURN, WORDS))
    assert reply.text == "You have no deliveries yet. Send /new to order one."


async def test_a_long_reference_is_repeated_back_shortened(desk: CustomerDesk) -> None:
    reply = await desk.status(TURN, BOB, "x" * 100)
    assert f"delivery {'x' * 39}… among yours" in reply.text


async def test_status_when_the_service_fails_is_the_last_known_view(
    desk: CustomerDesk, orders: Orders, org: Org
) -> None:
    delivery = await orders.order(ADA)
    org.sandbox.inject_fault("get_delivery", "status", count=4, status=500, code="get_failed")
    reply = await desk.status(TURN, ADA)
    assert reply.outcome == "last_known"
    heading = f"Delivery {short_ref(delivery.id)}"
    assert reply.text.startswith(f"{heading}\nLast known status: rider assigned.")
    assert reply.text.endswith(desk_texts.UNREACHABLE.render(TURN))
    assert "get_failed" not in reply.text and "500" not in reply.text
    assert reply.delivery is not None and reply.delivery.status == "matched"


async def test_a_delivery_the_service_no_longer_knows_is_unknown(
    desk: CustomerDesk, orders: Orders
) -> None:
    (gone,) = await orders.fake(ADA, 1)
    reply = await desk.status(TURN, ADA)
    assert reply.outcome == "unknown"
    assert reply.text == desk_texts.unknown_delivery(TURN, short_ref(gone), WORDS)


# --- the list ---------------------------------------------------------------------------------


async def test_the_list_is_the_customers_own_newest_first_in_pages(
    desk: CustomerDesk, orders: Orders, org: Org
) -> None:
    newest_first = await orders.fake(ADA, 7)
    bobs = await orders.fake(BOB, 1)
    calls = api_calls(org)
    first = await desk.deliveries(TURN, ADA)
    assert (first.page, first.pages, first.total) == (0, 2, 7)
    assert [e.delivery_id for e in first.entries] == newest_first[:5]
    assert (first.has_previous, first.has_next) == (False, True)
    assert first.title == "Your deliveries (page 1 of 2):"
    assert first.hint == (
        f"Send /status {short_ref(newest_first[0])} (or any reference above) for details."
    )
    lines = first.text.splitlines()
    assert lines[0] == first.title and lines[-1] == first.hint
    assert lines[1] == f"• {short_ref(newest_first[0])}: waiting for a rider, ordered 15 Jan 2027"
    assert short_ref(bobs[0]) not in first.text

    second = await desk.deliveries(TURN, ADA, 1)
    assert [e.delivery_id for e in second.entries] == newest_first[5:]
    assert (second.has_previous, second.has_next) == (True, False)
    assert (await desk.deliveries(TURN, ADA, 99)).page == 1  # clamped to the last
    assert (await desk.deliveries(TURN, ADA, -3)).page == 0
    assert api_calls(org) == calls


async def test_one_page_has_no_page_numbers_and_none_says_how_to_order(
    desk: CustomerDesk, orders: Orders
) -> None:
    empty = await desk.deliveries(TURN, ADA)
    assert (empty.pages, empty.entries, empty.hint) == (0, (), None)
    assert empty.text == empty.title == desk_texts.none_yet(TURN, WORDS)
    await orders.fake(ADA, 2)
    page = await desk.deliveries(TURN, ADA)
    assert page.title == "Your deliveries:" and not page.has_next


def test_other_pages_are_named_for_channels_without_buttons() -> None:
    assert desk_texts.other_pages(TURN, 0, 1, WORDS) is None
    assert desk_texts.other_pages(TURN, 0, 3, WORDS) == "Send /deliveries 2 for the next page."
    assert desk_texts.other_pages(TURN, 1, 3, WORDS) == (
        "Send /deliveries 3 for the next page or /deliveries 1 for the previous one."
    )


# --- cancel -----------------------------------------------------------------------------------


async def test_a_customer_cancels_their_own_delivery(
    desk: CustomerDesk, orders: Orders, org: Org
) -> None:
    delivery = await orders.order(ADA)
    reason = "I ordered it twice " + "x" * (500 - 19)
    reply = await desk.cancel(TURN, ADA, short_ref(delivery.id), f"  {reason}  ")
    assert (reply.outcome, reply.delivery_id) == ("cancelled", delivery.id)
    assert reply.text == f"Delivery {short_ref(delivery.id)} is cancelled."
    cancelled = org.sandbox.delivery(delivery.id)
    assert (cancelled["status"], cancelled["cancellation_reason"]) == ("cancelled", reason)


@pytest.mark.parametrize(("reason", "length"), [("no", 2), ("  x ", 1), ("y" * 501, 501), ("", 0)])
async def test_a_reason_must_be_3_to_500_characters(
    desk: CustomerDesk, orders: Orders, org: Org, reason: str, length: int
) -> None:
    delivery = await orders.order(ADA)
    calls = api_calls(org)
    reply = await desk.cancel(TURN, ADA, delivery.id, reason)
    assert reply.outcome == "bad_reason"
    assert reply.text.startswith(
        f"Please give a reason of 3 to 500 characters (yours has {length}).\n\n"
        "To cancel, send /cancel_delivery, the delivery and your reason"
    )
    assert api_calls(org) == calls


async def test_cancel_without_a_delivery_explains_how(desk: CustomerDesk) -> None:
    reply = await desk.cancel(TURN, ADA, " ", "")
    assert (reply.outcome, reply.text) == ("usage", desk_texts.cancel_usage(TURN, WORDS))


async def test_nobody_cancels_another_customers_delivery(
    desk: CustomerDesk, orders: Orders, org: Org
) -> None:
    delivery = await orders.order(ADA)
    calls = api_calls(org)
    reply = await desk.cancel(TURN, BOB, delivery.id, "not mine really")
    assert (reply.outcome, reply.delivery_id) == ("unknown", None)
    assert reply.text == desk_texts.unknown_delivery(TURN, delivery.id, WORDS)
    assert api_calls(org) == calls
    assert org.sandbox.delivery(delivery.id)["status"] == "matched"


@pytest.mark.parametrize(
    ("to", "says"),
    [
        ("picked_up", "can no longer be cancelled: the rider already has the package."),
        ("delivered", "was delivered, so it can no longer be cancelled."),
    ],
)
async def test_cancel_not_allowed_is_explained_by_the_status_now(
    desk: CustomerDesk, orders: Orders, org: Org, to: str, says: str
) -> None:
    delivery = await orders.order(ADA)  # the chat's view stays "matched": no relay here
    org.sandbox.mark_paid(delivery.id)  # its fee is due before dispatch
    while org.sandbox.delivery(delivery.id)["status"] != to:
        org.sandbox.advance_status(delivery.id)
    reply = await desk.cancel(TURN, ADA, delivery.id, "changed my mind")
    assert reply.outcome == "not_allowed"
    assert reply.text == f"Delivery {short_ref(delivery.id)} {says}"
    assert "cancel_not_allowed" not in reply.text


async def test_cancelling_twice_says_it_is_already_cancelled(
    desk: CustomerDesk, orders: Orders
) -> None:
    delivery = await orders.order(ADA)
    assert (await desk.cancel(TURN, ADA, delivery.id, "ordered twice")).outcome == "cancelled"
    again = await desk.cancel(TURN, ADA, delivery.id, "ordered twice")
    assert again.outcome == "not_allowed"
    assert again.text == f"Delivery {short_ref(delivery.id)} is already cancelled."


@pytest.mark.parametrize(
    ("status", "code", "outcome", "text"),
    [
        (429, "rate_limited", "busy", desk_texts.BUSY.render(TURN)),
        (400, "validation_error", "refused", desk_texts.NOT_ACCEPTED.render(TURN)),
        (500, "cancel_failed", "unreachable", desk_texts.UNREACHABLE.render(TURN)),
        (403, "missing_scope", "unreachable", desk_texts.UNREACHABLE.render(TURN)),
    ],
)
async def test_service_refusals_are_said_in_plain_words_only(
    make_org: MakeOrg, status: int, code: str, outcome: str, text: str
) -> None:
    org = make_org(rate_limit_retries=0, max_attempts=1)
    store = await org.open_store()
    desk = CustomerDesk(store, org.client, WORDS, phone_region="NG")
    delivery = await Orders(org).order(ADA)
    org.sandbox.inject_fault("cancel_delivery", "status", status=status, code=code)
    reply = await desk.cancel(TURN, ADA, delivery.id, "ordered twice")
    assert (reply.outcome, reply.text, reply.delivery_id) == (outcome, text, delivery.id)
    assert code not in reply.text and str(status) not in reply.text
    assert org.sandbox.delivery(delivery.id)["status"] == "matched"


# --- the drop-off code hand-off ---------------------------------------------------------------


async def code_waiting(orders: Orders, code: str = "482913") -> str:
    """Ada's delivery with a code the relay kept for the receiver; the link's token."""
    delivery = await orders.order(ADA)
    handoff = await orders.store.otp.put(delivery.id, code, RECEIVER, 1_800_000_100)
    return handoff.token


async def test_the_receiver_opens_the_link_proves_the_phone_and_gets_the_code(
    desk: CustomerDesk, orders: Orders
) -> None:
    token = await code_waiting(orders)
    (link,) = await orders.store.deliveries.for_user(ADA, 1)
    asked = await desk.open_handoff(TURN, private_chat(BOLA), BOLA, token)
    assert (asked.outcome, asked.wants_contact, asked.codes) == ("ask_for_contact", True, ())
    assert asked.text == handoff_texts.ask_for_contact(TURN, link.delivery_id, WORDS)
    assert f"drop-off code for delivery {short_ref(link.delivery_id)}" in (asked.text or "")

    got = await desk.share_contact(TURN, private_chat(BOLA), BOLA, RECEIVER[1:], contact_user=BOLA)
    assert (got.outcome, got.answered, got.text) == ("handed_over", True, None)
    (code,) = got.codes
    assert (code.delivery_id, code.code) == (link.delivery_id, "482913")
    assert code.text == (
        f"Your drop-off code for delivery {short_ref(link.delivery_id)} is 482913. "
        "Give it to the rider only once the package is in your hands."
    )
    assert "482913" not in repr(code) and "482913" not in repr(got)
    assert await orders.store.contacts.phone_for(BOLA) == RECEIVER
    # Erased only once the channel says it reached the chat.
    handoff = await orders.store.otp.get(link.delivery_id)
    assert handoff is not None and handoff.pending
    assert await desk.code_handed_over(private_chat(BOLA), code)
    handoff = await orders.store.otp.get(link.delivery_id)
    assert (
        handoff is not None and not handoff.pending and handoff.delivered_chat == private_chat(BOLA)
    )

    again = await desk.open_handoff(TURN, private_chat(BOB), BOB, token)
    assert (again.outcome, again.text) == (
        "already_sent",
        handoff_texts.ALREADY_SENT.render(TURN),
    )


async def test_someone_elses_contact_is_refused_even_with_the_right_number(
    desk: CustomerDesk, orders: Orders
) -> None:
    token = await code_waiting(orders)
    await desk.open_handoff(TURN, private_chat(BOB), BOB, token)
    for whose in (BOLA, None):
        refused = await desk.share_contact(
            TURN, private_chat(BOB), BOB, RECEIVER, contact_user=whose
        )
        assert (refused.outcome, refused.codes, refused.wants_contact) == (
            "not_own_contact",
            (),
            True,
        )
        assert refused.text == handoff_texts.not_own_contact(TURN, WORDS)
    assert await orders.store.contacts.phone_for(BOB) is None


async def test_an_own_contact_with_another_number_ends_the_hand_off(
    desk: CustomerDesk, orders: Orders
) -> None:
    token = await code_waiting(orders)
    await desk.open_handoff(TURN, private_chat(BOB), BOB, token)
    unreadable = await desk.share_contact(TURN, private_chat(BOB), BOB, "12", contact_user=BOB)
    assert (unreadable.outcome, unreadable.wants_contact) == ("unreadable_phone", True)
    wrong = await desk.share_contact(
        TURN, private_chat(BOB), BOB, "+2348031234567", contact_user=BOB
    )
    assert (wrong.outcome, wrong.text, wrong.ended) == (
        "wrong_phone",
        handoff_texts.WRONG_PHONE.render(TURN),
        True,
    )
    later = await desk.share_contact(
        TURN, private_chat(BOB), BOB, "+2348031234567", contact_user=BOB
    )
    assert (later.outcome, later.answered, later.text) == ("not_for_handoff", False, None)


async def test_unknown_and_garbled_links(desk: CustomerDesk, orders: Orders) -> None:
    await code_waiting(orders)
    for token in ("A" * 43, "<script>", ""):
        reply = await desk.open_handoff(TURN, private_chat(BOB), BOB, token)
        assert (reply.outcome, reply.text) == (
            "unknown_link",
            handoff_texts.UNKNOWN_LINK.render(TURN),
        )


async def test_a_receiver_who_proved_the_number_before_gets_the_code_at_once(
    desk: CustomerDesk, orders: Orders
) -> None:
    await orders.store.contacts.record(BOLA, RECEIVER, contact_user_id=BOLA.id)
    token = await code_waiting(orders)
    reply = await desk.open_handoff(TURN, private_chat(BOLA), BOLA, token)
    assert reply.outcome == "handed_over" and [c.code for c in reply.codes] == ["482913"]


async def test_a_contact_outside_a_hand_off_may_belong_to_an_open_order(
    org: Org, orders: Orders
) -> None:
    assert org.store is not None
    chats = ChatService(org.engine(), org.store)
    desk = CustomerDesk(org.store, org.client, WORDS, phone_region="NG", chats=chats)
    await code_waiting(orders)
    # No link opened, no order open: the code, and the contact is the hand-off's alone.
    first = await desk.share_contact(TURN, private_chat(BOLA), BOLA, RECEIVER, contact_user=BOLA)
    assert (first.outcome, first.answered) == ("handed_over", True)
    # With an order being filled in, the contact answers the order as well.
    await code_waiting(orders, code="111222")
    await chats.start(private_chat(BOLA), BOLA)
    second = await desk.share_contact(TURN, private_chat(BOLA), BOLA, RECEIVER, contact_user=BOLA)
    assert second.outcome == "handed_over" and not second.answered
    assert {c.code for c in second.codes} >= {"111222"}
    # Nobody's code waits for this number: the contact is the order's.
    other = await desk.share_contact(
        TURN, private_chat(BOB), BOB, "+2348031234567", contact_user=BOB
    )
    assert (other.outcome, other.answered) == ("not_for_handoff", False)
