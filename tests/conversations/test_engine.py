"""The engine's navigation and bookkeeping: back, edit, cancel, help, stale answers, failures,
auto-answers, restarts, persistence and services that are down."""

from __future__ import annotations

from dataclasses import replace

import pytest

from conversations.context import Context
from conversations.dialog import (
    KEEP,
    Answer,
    ChoiceAnswer,
    LocationAnswer,
    PhotosAnswer,
    TextAnswer,
)
from conversations.engine import Engine
from conversations.engine.prompting import CANCEL_NO, CANCEL_YES
from conversations.flow import (
    Ask,
    AutoAnswer,
    Flow,
    FlowRegistry,
    Result,
    Step,
    Stop,
)
from conversations.flows import ERRAND, FLOWS, PICKUP_DELIVERY, default_registry
from conversations.request_fields import required_fields
from conversations.services import Services
from conversations.session import Session
from conversations.steps import summary, text
from conversations.texts import dialogue as wording
from conversations.texts.taps import BUTTONS, for_channel
from tests.support.words import SHIPPED

# One service and no usable warehouse: no choice of flow (no return), nothing to drop off.
ONE_FLOW = {
    "enabledServiceKinds": ["pickup_delivery"],
    "allowWarehouseDropoff": False,
    "features": {"maxWarehouses": 0},
}

# --- back -------------------------------------------------------------------------------------


async def test_back_returns_to_the_previous_question_and_keeps_its_answer(chat):
    await chat.start()
    await chat.tap("pickup_delivery")
    await chat.location(6.5244, 3.3792)
    await chat.say("12 Marina Road")
    assert chat.step == "dropoff_place"

    await chat.command("back")

    assert chat.step == "pickup_address"
    assert chat.prompt.current == "12 Marina Road"
    assert chat.prompt.options[0].id == KEEP
    await chat.tap(KEEP)
    assert chat.step == "dropoff_place"


async def test_changing_an_answer_clears_the_answers_built_on_it(chat):
    await chat.start()
    await chat.tap("pickup_delivery")
    await chat.location(6.5244, 3.3792)
    await chat.say("12 Marina Road")
    await chat.command("back")
    await chat.command("back")
    assert chat.step == "pickup_place"

    await chat.tap("saved:loc-hall")

    assert "pickup_address" not in chat.session.answers
    assert chat.step == "pickup_unit"


async def test_changing_the_delivery_mode_forgets_the_pickup_place(chat):
    await chat.pickup_delivery_to_summary()
    await chat.tap("edit:delivery_mode")  # pre-set, so changed from the summary
    assert chat.step == "delivery_mode"
    assert chat.prompt.default == "pickup"  # the current choice is pre-selected

    await chat.tap("warehouse")

    assert "pickup_place" not in chat.session.answers
    assert chat.step == "warehouse"


async def test_back_crosses_into_the_flow_that_handed_off(chat):
    await chat.start()
    await chat.tap("errand")
    assert chat.session.flow == "errand"

    await chat.command("back")

    assert (chat.session.flow, chat.step) == ("order", "service_kind")
    assert chat.prompt.default == "errand"


async def test_back_skips_questions_that_answered_themselves(new_world):
    chat = new_world(**ONE_FLOW).chat()
    await chat.start()
    assert chat.step == "pickup_place"
    assert chat.prompt.commands == ()

    await chat.command("back")

    assert wording.FIRST_QUESTION.render(SHIPPED) in chat.said
    assert chat.step == "pickup_place"


# --- edit from the summary --------------------------------------------------------------------


async def test_edit_from_the_summary_comes_back_to_the_summary(chat):
    await chat.pickup_delivery_to_summary()
    await chat.tap("edit:receiver_phone")
    assert chat.step == "receiver_phone"
    assert chat.prompt.current == "+2348022223333"

    await chat.say("0809 999 0000")

    assert chat.step == "summary"
    assert "• Receiver's phone: +2348099990000" in chat.prompt.text
    assert chat.session.editing is False


async def test_edit_a_place_asks_what_the_new_place_needs_then_returns(chat):
    await chat.pickup_delivery_to_summary()
    await chat.command("edit", "dropoff_place")
    await chat.tap("saved:loc-block")
    assert chat.step == "dropoff_unit"
    await chat.say("C9")  # custom units are allowed at Block C

    assert chat.step == "summary"
    assert "Block C — Block C Road, University of Lagos — C9" in chat.prompt.text


async def test_keep_during_an_edit_changes_nothing(chat):
    await chat.pickup_delivery_to_summary()
    before = dict(chat.session.answers)
    await chat.tap("edit:pickup_place")
    await chat.tap(KEEP)
    assert chat.step == "summary"
    assert chat.session.answers == before


async def test_back_from_an_edited_step_returns_to_the_summary(chat):
    await chat.pickup_delivery_to_summary()
    await chat.tap("edit:package_description")
    await chat.command("back")
    assert chat.step == "summary"


async def test_a_saved_places_unit_is_changed_on_its_own_from_the_summary(chat):
    await chat.pickup_delivery_to_summary()
    labels = {o.id: o.label for o in chat.prompt.changes}
    assert labels["edit:dropoff_unit"] == "Change drop-off place: room"
    await chat.tap("edit:dropoff_unit")
    assert chat.prompt.default == "A02"
    await chat.tap("A03")
    assert chat.step == "summary"
    assert chat.session.answers["dropoff_unit"] == "A03"


async def test_picking_the_same_saved_place_again_asks_its_unit_again(chat):
    await chat.pickup_delivery_to_summary()
    await chat.tap("edit:dropoff_place")
    await chat.tap("saved:loc-hall")
    assert chat.step == "dropoff_unit"
    assert chat.prompt.default == "A02"  # one tap (Enter) keeps it
    await chat.tap("A02")
    assert chat.step == "summary"


async def test_only_the_steps_built_on_the_answer_given_again_are_asked_again(chat):
    await chat.pickup_delivery_to_summary()
    await chat.tap("edit:sender_name")
    await chat.tap("keep")
    assert chat.step == "summary"  # the phone the contact gave is not built on the name


async def test_back_from_the_summary_comes_straight_back_once_answered(chat):
    await chat.pickup_delivery_to_summary()
    await chat.command("back")
    assert chat.step == "photos"  # the last question asked (payment and cash were pre-set)
    await chat.command("back")
    assert chat.step == "package_size"
    await chat.tap("medium")
    assert chat.step == "summary"  # the photos still have their answer: not asked again


async def test_edit_is_refused_away_from_the_summary_and_for_unknown_steps(chat):
    await chat.start()
    await chat.tap("pickup_delivery")
    await chat.command("edit", "service_kind")
    assert for_channel(SHIPPED, wording.EDIT_FROM_SUMMARY.render(SHIPPED), BUTTONS) in chat.said
    assert chat.step == "pickup_place"


async def test_summary_offers_only_steps_the_customer_answered(chat):
    await chat.pickup_delivery_to_summary()
    edits = chat.change_ids()
    assert "edit:sender_name" in edits
    assert "edit:dropoff_unit" in edits  # the saved place's room, changed on its own
    assert "edit:pickup_unit" not in edits  # a pin has no unit
    assert "edit:summary" not in edits
    await chat.command("edit", "no_such_step")
    assert "You can change: " in chat.said
    assert chat.step == "summary"


# --- cancel, help, failures -------------------------------------------------------------------


async def test_cancel_with_nothing_given_ends_at_once(chat):
    await chat.start()
    await chat.command("cancel")
    assert chat.turn.status == "cancelled"


async def test_cancel_asks_first_when_answers_would_be_lost_and_no_keeps_everything(chat):
    await chat.pickup_delivery_to_summary()
    before = chat.session.model_copy(deep=True)
    await chat.command("cancel")
    assert chat.turn.status == "open"
    assert chat.prompt.step == "summary"
    assert chat.prompt.text == wording.CANCEL_QUESTION.render(SHIPPED)
    assert [o.label for o in chat.prompt.options] == [
        wording.CANCEL_YES.render(SHIPPED),
        wording.CANCEL_NO.render(SHIPPED),
    ]
    await chat.tap(CANCEL_NO)
    assert chat.step == "summary"
    assert chat.prompt.text.startswith("Please check your pickup & delivery")
    assert chat.session.answers == before.answers
    assert chat.prompt.version > before.prompt_version + 1  # the old keyboards are stale


async def test_while_asked_to_cancel_an_answer_to_the_question_goes_on_with_the_order(chat):
    await chat.start()
    await chat.tap("pickup_delivery")
    await chat.tap("pickup")
    await chat.location(6.52, 3.38, address="Shop 3, Tejuosho Market")
    places = chat.prompt
    await chat.command("cancel")
    await chat.send(ChoiceAnswer(option="saved:loc-gate", step=places.step, version=places.version))
    assert (
        wording.STALE.render(SHIPPED) in chat.said
    )  # a tap on the place's keyboard shown before the question
    assert chat.prompt.text == wording.CANCEL_QUESTION.render(SHIPPED)
    await chat.say("no")
    assert chat.step == "dropoff_place"
    await chat.command("cancel")
    await chat.location(6.53, 3.39, address="Ozone Cinema, Yaba")  # answers the place
    assert chat.step == "sender_name"


async def test_cancel_again_or_yes_cancels(chat):
    await chat.start()
    await chat.tap("pickup_delivery")
    await chat.command("cancel")
    await chat.say("Yes")
    assert chat.turn.status == "cancelled"


async def test_cancel_ends_the_conversation_and_later_answers_are_politely_refused(world, chat):
    await chat.start()
    await chat.tap("pickup_delivery")
    await chat.command("cancel")
    await chat.tap(CANCEL_YES)
    assert chat.turn.status == "cancelled"
    assert chat.turn.finished
    assert chat.turn.prompt is None
    assert wording.CANCELLED.render(SHIPPED) in chat.said

    await chat.say("hello?")
    assert wording.CLOSED.render(SHIPPED) in chat.said
    assert world.creator.requests == []


async def test_help_explains_and_shows_the_same_prompt(chat):
    await chat.start()
    await chat.tap("pickup_delivery")
    version = chat.prompt.version
    await chat.command("help")
    assert "Share a location pin, or type the street address" in chat.said
    assert wording.COMMANDS.render(SHIPPED) in chat.said
    assert (chat.step, chat.prompt.version) == ("pickup_place", version)


async def test_a_wrong_answer_is_reasked_and_after_three_help_and_cancel_are_offered(chat):
    await chat.pickup_delivery_to_summary()
    await chat.tap("edit:receiver_phone")
    await chat.say("12")
    assert "doesn't look like a phone number" in chat.said
    assert "0802 123 4567 or +234 802 123 4567" in chat.said
    assert "help" not in chat.prompt.commands
    await chat.say("abc")
    await chat.say("999")
    assert for_channel(SHIPPED, wording.STUCK.render(SHIPPED), BUTTONS) in chat.said
    assert {"help", "cancel"} <= set(chat.prompt.commands)
    await chat.say("08099990000")
    assert chat.step == "summary"
    assert chat.session.failures == 0


async def test_each_turn_carries_the_wrong_answers_in_a_row_at_its_question(chat):
    # A channel reads the count from the turn (to offer a person), not from the session.
    await chat.pickup_delivery_to_summary()
    await chat.tap("edit:receiver_phone")
    assert chat.turn.failures == 0
    await chat.say("12")
    assert chat.turn.failures == 1
    await chat.say("abc")
    assert chat.turn.failures == 2 == chat.session.failures
    await chat.say("08099990000")
    assert chat.turn.failures == 0


async def test_wrong_kinds_of_answer_are_reasked_with_what_is_expected(chat):
    await chat.start()
    await chat.send(LocationAnswer(lat=6.5, lng=3.3))
    assert "Please tap one of the options." in chat.said
    await chat.send(PhotosAnswer(urls=["https://media.example/x.jpg"]))
    assert chat.step == "service_kind"
    await chat.command("done")
    assert chat.step == "service_kind"


async def test_typed_text_that_names_an_option_counts_as_the_option(chat):
    await chat.start()
    await chat.say("  errand: WE BUY it for you ")
    assert chat.session.answers["service_kind"] == "errand"


# --- stale answers ----------------------------------------------------------------------------


async def test_an_answer_to_an_older_prompt_is_refused_kindly(chat):
    await chat.start()
    old = chat.prompt
    await chat.tap("pickup_delivery")
    now = chat.prompt

    await chat.send(ChoiceAnswer(option="errand", step=old.step, version=old.version))

    assert wording.STALE.render(SHIPPED) in chat.said
    assert chat.session.answers["service_kind"] == "pickup_delivery"
    assert chat.turn.prompt == now


async def test_a_tap_from_an_earlier_visit_of_the_same_step_is_stale(chat):
    await chat.start()
    first = chat.prompt
    await chat.tap("errand")
    await chat.command("back")
    assert chat.step == first.step and chat.prompt.version > first.version

    await chat.send(ChoiceAnswer(option="pickup_delivery", step=first.step, version=first.version))

    assert wording.STALE.render(SHIPPED) in chat.said
    assert chat.step == "service_kind"


# --- answering itself -------------------------------------------------------------------------


async def test_single_options_answer_themselves_and_say_so(new_world):
    chat = new_world(
        **ONE_FLOW,
        paymentCollection={"onlineCheckout": False},
        pod={"enabled": False},
    ).chat()
    await chat.start()
    assert chat.turn.messages == (
        "Only one service is available: Pickup & delivery.",
        "The rider will pick the package up from an address you give.",
    )
    assert chat.step == "pickup_place"
    assert chat.session.auto_answered == ["service_kind", "delivery_mode"]


# --- persistence and restarts -----------------------------------------------------------------


async def test_a_session_reloaded_from_json_continues_where_it_was(world, chat):
    await chat.start()
    await chat.tap("pickup_delivery")
    await chat.pickup_delivery_to_summary(start=False)
    await chat.tap("edit:photos")
    stored = chat.session.model_dump_json()

    engine = world.engine()  # a new process: a new engine over the same services
    session = Session.model_validate_json(stored)
    resumed = await engine.resume(SHIPPED, session)
    assert resumed.prompt is not None
    assert (resumed.prompt.step, resumed.prompt.version) == ("photos", chat.prompt.version)

    urls = ["https://media.example/p/10.jpg", "https://media.example/p/11.jpg"]
    turn = await engine.handle(SHIPPED, session, PhotosAnswer(urls=urls))
    assert "Got 2 photos." in turn.messages[0]
    assert turn.prompt is not None and turn.prompt.step == "summary"


async def test_a_stored_step_that_no_longer_exists_restarts_politely(world, chat):
    await chat.pickup_delivery_to_summary()
    chat.session.step = "package_fragility"  # stored by an older release

    await chat.say("yes")

    assert wording.RESTARTED.render(SHIPPED) in chat.said
    assert chat.step == "service_kind"
    assert chat.session.answers == {}
    assert chat.session.history == []


async def test_a_flow_that_lost_a_step_in_a_new_version_restarts_politely(world, chat):
    await chat.start("errand")
    await chat.tap("at_place")
    assert chat.step == "errand_items"
    mode, items, *rest = ERRAND.steps
    renamed = replace(
        ERRAND,
        version=ERRAND.version + 1,
        steps=(replace(mode, next="errand_what"), replace(items, name="errand_what"), *rest),
    )
    services = Services(catalog=world.catalog, creator=world.creator, geocoder=world.geocoder)
    engine = Engine(default_registry((PICKUP_DELIVERY, renamed)), services)

    turn = await engine.handle(SHIPPED, chat.session, TextAnswer(text="rice"))

    assert turn.messages[0] == wording.RESTARTED.render(SHIPPED)
    assert turn.prompt is not None and turn.prompt.step == "errand_mode"
    assert chat.session.flow_version == ERRAND.version + 1
    assert chat.session.answers == {}


async def test_a_session_of_a_removed_flow_ends(world, chat):
    await chat.start("errand")
    services = Services(catalog=world.catalog, creator=world.creator)
    engine = Engine(FlowRegistry([PICKUP_DELIVERY]), services)

    turn = await engine.handle(SHIPPED, chat.session, TextAnswer(text="rice"))

    assert turn.status == "ended"
    assert turn.messages == (wording.FLOW_GONE.render(SHIPPED),)


# --- services that are down -------------------------------------------------------------------


async def test_a_service_that_is_down_leaves_the_session_as_it_was(world, chat):
    await chat.start()
    before = chat.session.model_dump()
    prompt = chat.prompt
    world.catalog.down = True

    await chat.tap("pickup_delivery")

    assert chat.turn.messages == (wording.SERVICE_DOWN.render(SHIPPED),)
    assert chat.turn.prompt is None
    assert chat.session.model_dump() == before

    world.catalog.down = False
    await chat.send(
        ChoiceAnswer(option="pickup_delivery", step=prompt.step, version=prompt.version)
    )
    assert chat.step == "pickup_place"


async def test_a_start_while_the_service_is_down_starts_over_on_the_next_message(world, chat):
    world.catalog.down = True
    await chat.start()
    assert chat.turn.messages == (wording.SERVICE_DOWN.render(SHIPPED),)
    assert chat.session.step is None

    world.catalog.down = False
    await chat.say("hi")
    assert chat.step == "service_kind"


# --- answers the allow-list no longer permits ---------------------------------------------------


async def test_an_answer_the_business_no_longer_allows_is_asked_again_before_the_summary(
    world, chat, caps
):
    await chat.start()
    await chat.tap("pickup_delivery")
    await chat.tap("saved:loc-gate")
    await chat.tap("saved:loc-gate")
    await chat.contact("2348031234567", "Ada", "Obi")
    await chat.contact("2348022223333", "Bola", "Ade")
    await chat.say("Books")
    await chat.tap("small")
    await chat.photos(1)
    await chat.pay("online_checkout")
    assert chat.step == "summary"
    world.catalog.caps = caps(paymentCollection={"onlineCheckout": False}, pod={"enabled": False})

    await chat.tap("edit:package_size")
    await chat.tap("medium")  # on the way back to the summary

    assert "Payment: your choice is no longer offered" in chat.said
    assert "Payment: Cash on delivery." in chat.said
    assert chat.step == "summary"
    assert chat.session.answers["payment"] == "cash_on_delivery"


async def test_a_summary_shown_again_never_shows_an_answer_no_longer_allowed(world, chat, caps):
    """Found by the random walk: ``help`` at the summary redrew it, after the business switched
    off the chosen payment method, with the raw ``online_checkout`` in it."""
    await chat.start()
    await chat.tap("pickup_delivery")
    await chat.tap("saved:loc-gate")
    await chat.tap("saved:loc-gate")
    await chat.contact("2348031234567", "Ada", "Obi")
    await chat.contact("2348022223333", "Bola", "Ade")
    await chat.say("Books")
    await chat.tap("small")
    await chat.photos(1)
    await chat.pay("online_checkout")
    assert chat.step == "summary"
    world.catalog.caps = caps(paymentCollection={"onlineCheckout": False}, pod={"enabled": False})

    await chat.command("help")

    assert "online_checkout" not in chat.turn.prompt.text
    assert "Payment: your choice is no longer offered" in chat.said
    assert chat.step == "summary"
    assert chat.session.answers["payment"] == "cash_on_delivery"


@pytest.mark.parametrize("flow", FLOWS, ids=lambda flow: flow.name)
def test_every_flow_step_name_is_plain_text(flow):
    for step in flow.steps:
        assert type(step.name) is str


# --- the customer, lookups and the request that was sent ---------------------------------------


def lookup_step(find) -> Step:
    """A step whose ``ask`` looks the answer up through a service (an awaitable ``Ask``)."""

    async def ask(ctx: Context) -> Ask:
        return await find(ctx)

    async def accept(ctx: Context, answer: Answer) -> Result:
        pytest.fail("never asked: find answers or stops")

    return Step(
        name="found",
        title="Found",
        input="choice",
        ask=ask,
        accept=accept,
        next="name",
        summarize=False,
    )  # editable: an answer the step gave itself is still never offered for change


def looked_up_flow(find) -> Flow:
    """lookup -> name (filled by the lookup) -> phone -> summary."""
    return Flow(
        name="looked_up",
        title="Looked up",
        version=1,
        start="found",
        service_kind="pickup_delivery",  # never confirmed here
        # Never confirmed here: the fields the kind requires only need naming.
        fixed=dict.fromkeys(required_fields("pickup_delivery")[1:]),
        steps=(
            lookup_step(find),
            text("name", title="Name", question="Your name?", next="phone"),
            text("phone", title="Phone", question="Your phone?", next="summary"),
            summary(heading="Check:", hints=lambda ctx: []),
        ),
    )


async def test_a_lookup_answers_itself_and_fills_later_steps_which_stay_editable(world):
    seen: list[str | None] = []

    async def find(ctx) -> AutoAnswer:
        seen.append(ctx.session.customer)
        return AutoAnswer("yes", "Found you.", fills={"name": "Ada Obi"})

    world.registry = FlowRegistry([looked_up_flow(find)])
    chat = world.chat()
    await chat.start("looked_up", customer="7")

    assert seen == ["7"]
    assert chat.said == "Found you."
    assert chat.step == "phone"  # the filled name is passed over
    await chat.say("0803 123 4567")
    assert "• Name: Ada Obi" in chat.prompt.text
    assert "edit:name" in chat.change_ids() and "edit:found" not in chat.change_ids()
    await chat.tap("edit:name")
    assert chat.prompt.current == "Ada Obi"


async def test_a_lookup_may_stop_the_flow(world):
    async def find(ctx) -> Stop:
        return Stop("Nothing to do here.")

    world.registry = FlowRegistry([looked_up_flow(find)])
    chat = world.chat()
    await chat.start("looked_up")

    assert chat.said == "Nothing to do here."
    assert chat.turn.status == "ended"


async def test_the_customer_is_kept_through_json_and_a_polite_restart(world, chat):
    await chat.start(customer="7")
    assert chat.session.customer == "7"
    chat.session.step = "gone"

    await chat.say("hello")

    assert wording.RESTARTED.render(SHIPPED) in chat.said
    assert chat.session.customer == "7"


async def test_the_turn_that_creates_carries_the_request_it_sent(world, chat):
    await chat.pickup_delivery_to_summary()
    assert chat.turn.request is None
    await chat.tap("confirm")

    assert chat.turn.request == world.creator.requests[0]
    assert chat.turn.request.idempotencyKey == "key-0001-chat"
