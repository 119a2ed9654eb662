"""The rider tracker: one GET /riders a pass for every tracked delivery, each customer shown
their own rider only, while the delivery is active; the last fix kept, dropped at the end."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.chat_ref import TELEGRAM, ChatRef
from bot.config import TrackingConfig
from bot.relay import ChatUnreachable, SendFailed
from bot.store.rider_positions import Point
from bot.tracking.rider_map import NOTHING_SHOWN, RiderMap
from bot.tracking.rider_view import RiderView
from bot.tracking.tracker import UNREACHABLE, RiderTracker
from conversations.texts.business_texts import BusinessTexts
from conversations.texts.catalogue import DEFAULT_TEXTS
from tests.relay.support import CUSTOMER_CHAT, OTHER_CHAT, OTHER_USER
from tests.relay.world import MakeWorld, World

SETTINGS = TrackingConfig.model_validate({"enabled": True})
RIDERS_CALL = "list_riders"  # the sandbox counts GET /riders by this name


@dataclass
class RecordingMap:
    """A channel's ``RiderMap`` that records each call; chats can be blocked or fail once."""

    shown: list[tuple[ChatRef, RiderView, str]] = field(default_factory=list)
    ended: list[tuple[ChatRef, str]] = field(default_factory=list)
    blocked: set[int] = field(default_factory=set)
    fail_once: set[int] = field(default_factory=set)

    async def show(self, chat: ChatRef, view: RiderView, shown: str) -> str:
        if chat.id in self.blocked:
            raise ChatUnreachable("blocked")
        if chat.id in self.fail_once:
            self.fail_once.discard(chat.id)
            raise SendFailed("try later")
        self.shown.append((chat, view, shown))
        return f"shown:{view.rider_id}:{view.shown_at}"

    async def end(self, chat: ChatRef, view: RiderView | None, shown: str) -> None:
        self.ended.append((chat, shown))


@dataclass
class Maps:
    """Every chat's channel shows riders on ``the_map``; chats of ``without`` show none."""

    the_map: RecordingMap
    without: set[str] = field(default_factory=set)

    def rider_map(self, chat: ChatRef) -> RiderMap | None:
        return None if chat.channel in self.without else self.the_map


def _tracker(world: World, maps: Maps, settings: TrackingConfig = SETTINGS) -> RiderTracker:
    return RiderTracker(
        world.store,
        world.client,
        maps,
        settings=settings,
        texts=BusinessTexts(DEFAULT_TEXTS),
        clock=world.clock,
    )


def _rider_calls(world: World) -> int:
    return world.sandbox.call_counts().get(RIDERS_CALL, 0)


async def _matched(world: World, rider: str | None = None, **order: object) -> str:
    """A delivery with a rider: the scenario's dispatch (its one free rider with a fresh fix)
    or ``rider`` assigned, its events relayed so the chat's view knows the rider and route."""
    delivery = await world.order(**order)  # type: ignore[arg-type]
    if rider is not None:
        await world.client.assign_rider(delivery.id, rider)
    await world.settle()
    # The rider's app sends a fix now, near the pickup (the scenario's fixes are minutes old).
    assigned = world.sandbox.delivery(delivery.id)["rider"]["id"]
    world.sandbox.move_rider(assigned, 6.5095, 3.3711)
    view = await world.store.deliveries.get(delivery.id)
    assert view is not None and view.status == "matched", view
    return delivery.id


async def test_nothing_tracked_makes_no_call(make_world: MakeWorld) -> None:
    world = await make_world()
    maps = Maps(RecordingMap())

    done = await _tracker(world, maps).track_once()

    assert (done.tracked, done.read) == (0, "none")
    assert _rider_calls(world) == 0


async def test_one_call_a_pass_shows_each_customer_their_own_rider(make_world: MakeWorld) -> None:
    world = await make_world()
    first = await _matched(world)
    second = await _matched(world, "rdr_chiamaka", chat_id=OTHER_CHAT, user_id=OTHER_USER)
    maps = Maps(RecordingMap())
    tracker = _tracker(world, maps)

    done = await tracker.track_once()

    assert (done.tracked, done.read, done.shown) == (2, "ok", 2)
    assert _rider_calls(world) == 1
    by_delivery = {view.delivery_id: (chat, view) for chat, view, _ in maps.the_map.shown}
    riders = {d["id"]: d["rider"]["id"] for d in world.sandbox.deliveries()}
    for delivery_id, chat_id in ((first, CUSTOMER_CHAT), (second, OTHER_CHAT)):
        chat, view = by_delivery[delivery_id]
        assert chat == ChatRef(TELEGRAM, chat_id)
        assert view.rider_id == riders[delivery_id]
        assert view.milestone == "matched"
        assert view.position is not None
        assert view.eta_minutes is not None and view.eta_minutes >= 1
        assert "estimate" in view.text
    await tracker.track_once()
    assert _rider_calls(world) == 2  # one a pass, whatever the number of deliveries


async def test_the_last_fix_is_kept_and_dropped_when_the_delivery_ends(
    make_world: MakeWorld,
) -> None:
    world = await make_world()
    delivery_id = await _matched(world)
    maps = Maps(RecordingMap())
    tracker = _tracker(world, maps)
    await tracker.track_once()
    [tracked] = await world.store.rider_positions.tracked()
    assert tracked.kept is not None and tracked.kept.fix is not None
    shown = tracked.kept.shown

    world.sandbox.mark_paid(delivery_id)
    for _ in range(3):  # picked up, on its way, delivered
        world.sandbox.advance_status(delivery_id)
        await world.settle()
    done = await tracker.track_once()

    assert done.ended == 1
    assert maps.the_map.ended == [(ChatRef(TELEGRAM, CUSTOMER_CHAT), shown)]
    assert await world.store.rider_positions.tracked() == []
    assert await world.store.rider_positions.on_map() == []


async def test_a_stale_fix_is_not_shown(make_world: MakeWorld) -> None:
    world = await make_world()
    delivery_id = await _matched(world)
    rider_id = world.sandbox.delivery(delivery_id)["rider"]["id"]
    maps = Maps(RecordingMap())
    # Fresh for the service (under 30 minutes) but older than the business allows.
    tight = TrackingConfig.model_validate({"enabled": True, "max_fix_age_seconds": 10})
    world.clock.advance(60)
    await _tracker(world, maps, tight).track_once()

    [(_, view, _)] = maps.the_map.shown
    assert view.rider_id == rider_id
    assert view.position is None and view.eta_minutes is None
    assert "not available right now" in view.text


async def test_another_rider_ends_the_first_ones_view(make_world: MakeWorld) -> None:
    world = await make_world()
    delivery_id = await _matched(world)
    first_rider = world.sandbox.delivery(delivery_id)["rider"]["id"]
    maps = Maps(RecordingMap())
    tracker = _tracker(world, maps)
    await tracker.track_once()

    await world.client.unassign_rider(delivery_id)
    await world.client.assign_rider(delivery_id, "rdr_chiamaka")
    await world.settle()
    await tracker.track_once()

    assert first_rider != "rdr_chiamaka"
    first_view = maps.the_map.shown[0][1]
    first_record = f"shown:{first_rider}:{first_view.shown_at}"
    assert maps.the_map.ended == [(ChatRef(TELEGRAM, CUSTOMER_CHAT), first_record)]
    _, last_view, before = maps.the_map.shown[-1]
    assert last_view.rider_id == "rdr_chiamaka" and before == NOTHING_SHOWN
    [tracked] = await world.store.rider_positions.tracked()
    assert tracked.kept is not None and tracked.kept.rider_id == "rdr_chiamaka"


async def test_a_blocked_chat_is_not_tracked_further(make_world: MakeWorld) -> None:
    world = await make_world()
    await _matched(world)
    maps = Maps(RecordingMap(blocked={CUSTOMER_CHAT}))
    tracker = _tracker(world, maps)

    await tracker.track_once()
    [tracked] = await world.store.rider_positions.tracked()
    assert tracked.kept is not None and tracked.kept.shown == UNREACHABLE

    maps.the_map.blocked.clear()
    await tracker.track_once()
    assert maps.the_map.shown == []


async def test_a_failed_show_is_tried_again_next_pass(make_world: MakeWorld) -> None:
    world = await make_world()
    await _matched(world)
    maps = Maps(RecordingMap(fail_once={CUSTOMER_CHAT}))
    tracker = _tracker(world, maps)

    await tracker.track_once()
    assert maps.the_map.shown == []
    await tracker.track_once()
    assert len(maps.the_map.shown) == 1


async def test_a_chat_whose_channel_shows_no_rider_costs_no_call(make_world: MakeWorld) -> None:
    world = await make_world()
    await _matched(world)
    maps = Maps(RecordingMap(), without={TELEGRAM})

    done = await _tracker(world, maps).track_once()

    assert (done.tracked, done.read) == (1, "none")
    assert _rider_calls(world) == 0


async def test_the_customer_reads_it_in_their_language(make_world: MakeWorld) -> None:
    world = await make_world()
    await _matched(world, language="fr")
    maps = Maps(RecordingMap())

    await _tracker(world, maps).track_once()

    [(_, view, _)] = maps.the_map.shown
    assert "estimation" in view.text


async def test_the_route_is_kept_for_the_estimate(make_world: MakeWorld) -> None:
    world = await make_world()
    delivery_id = await _matched(world)

    [tracked] = await world.store.rider_positions.tracked()

    sandbox_view = world.sandbox.delivery(delivery_id)
    dropoff = sandbox_view["dropoff"]
    assert tracked.dropoff == Point(dropoff["latitude"], dropoff["longitude"])


async def test_a_cancelled_delivery_ends_its_view(make_world: MakeWorld) -> None:
    world = await make_world()
    delivery_id = await _matched(world)
    maps = Maps(RecordingMap())
    tracker = _tracker(world, maps)
    await tracker.track_once()

    await world.client.cancel_delivery(delivery_id, "changed my mind")
    await world.settle()
    done = await tracker.track_once()

    assert done.ended == 1 and len(maps.the_map.ended) == 1
    assert await world.store.rider_positions.tracked() == []


async def test_a_rider_without_a_location_is_not_available(make_world: MakeWorld) -> None:
    world = await make_world()
    delivery = await world.order()
    await world.settle()
    await world.client.unassign_rider(delivery.id)
    world.sandbox.clear_rider_location("rdr_chiamaka")
    await world.client.assign_rider(delivery.id, "rdr_chiamaka")
    await world.settle()
    maps = Maps(RecordingMap())

    await _tracker(world, maps).track_once()

    [(_, view, _)] = maps.the_map.shown
    assert view.rider_id == "rdr_chiamaka" and view.position is None
    assert view.text == "Chiamaka's position is not available right now."
