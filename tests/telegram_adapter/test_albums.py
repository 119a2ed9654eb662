"""Albums in Telegram: several photo messages sharing a ``media_group_id`` are ONE answer.

The real PTB Application polls the fake Bot API; each photo is downloaded through PTB and
re-hosted by the bot; the album's quiet window is timed by ``WaitingClock``, released by hand
once the album's updates are handled, never by a real sleep.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.telegram.album_collector import QUIET_SECONDS, AlbumCollector
from conversations import (
    Answer,
    ChoiceAnswer,
    ContactAnswer,
    LocationAnswer,
    Prompt,
    TextAnswer,
)
from tests.fakes import SentMessage, TgUser
from tests.support.clock import WaitingClock

from .conftest import ALICE, BOB
from .handler_world import PUBLIC_BASE_URL, HandlerWorld, handler_world

JPEG = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00" + bytes(range(256)) * 4

# A pickup & delivery in the default scenario, answer by answer, up to the photos.
TO_PHOTOS: list[Answer] = [
    ChoiceAnswer(option="pickup_delivery"),
    LocationAnswer(lat=6.5095, lng=3.3711),
    TextAnswer(text="12 Herbert Macaulay Way, Yaba"),
    ChoiceAnswer(option="saved:loc_unilag_gate"),
    ContactAnswer(phone="+2348031234567", first_name="Ada"),
    TextAnswer(text="Bola Ahmed"),
    TextAnswer(text="+2348022223333"),
    TextAnswer(text="A pair of shoes in a box"),
    ChoiceAnswer(option="small"),
]


@pytest.fixture
async def world(tmp_path: Path, manual_time: WaitingClock) -> AsyncIterator[HandlerWorld]:
    async with handler_world(tmp_path, conversation=manual_time) as opened:
        yield opened


async def at_photo_step(world: HandlerWorld, user: TgUser) -> Prompt:
    """Answer ``user``'s order up to the package photos; the photo question."""
    world.tg.add_chat(user)
    chats = world.ctx.chats
    turn = await chats.new_order(user.chat, user.user)
    for answer in TO_PHOTOS:
        turn = await chats.handle(user.chat, user.user, answer)
    assert turn.prompt is not None and turn.prompt.photos is not None, turn
    return turn.prompt


def image(n: int) -> bytes:
    return JPEG + bytes([n])


async def send_album(
    world: HandlerWorld, user: TgUser, group: str, count: int, *, first: int = 0
) -> None:
    """Push the album's photos, one update each, and wait until the bot has handled them."""
    for n in range(first, first + count):
        world.tg.push_update(world.tg.updates.photo(user, image(n), media_group_id=group))
    await world.tg.wait_for_updates_taken()
    await world.app.update_queue.join()
    assert world.errors == []


async def release(world: HandlerWorld, time: WaitingClock, albums: int = 1) -> None:
    """The album's quiet window passes: it is answered; wait for that."""
    assert world.conversation is not None
    await time.sleepers(albums)
    time.advance(QUIET_SECONDS)
    await world.conversation.albums.settle()
    await world.conversation.settle()
    assert world.errors == []


def texts(messages: list[SentMessage]) -> list[str]:
    return [m.text or "" for m in messages]


async def test_an_album_of_three_photos_is_one_answer_and_one_reply(
    world: HandlerWorld, manual_time: WaitingClock
) -> None:
    await at_photo_step(world, ALICE)
    before = len(world.tg.sent_messages(ALICE.id))

    await send_album(world, ALICE, "album-1", 3)
    assert world.tg.sent_messages(ALICE.id)[before:] == []  # nothing yet: the album is open
    await release(world, manual_time)

    (reply,) = world.tg.sent_messages(ALICE.id)[before:]
    assert "Got 3 photos." in (reply.text or "")
    session = await world.ctx.chats.session(ALICE.chat)
    assert session is not None
    urls = session.answers["photos"]
    assert isinstance(urls, list) and len(urls) == 3
    assert all(str(u).startswith(f"{PUBLIC_BASE_URL}/media/") for u in urls)
    # Each photo was downloaded once, in the order sent, and stored for the chat.
    assert [d.data for d in world.tg.downloads] == [image(0), image(1), image(2)]
    assert session.step != "photos"  # the photo question is answered: the order moved on


async def test_a_photo_without_an_album_is_answered_at_once(
    world: HandlerWorld, manual_time: WaitingClock
) -> None:
    await at_photo_step(world, ALICE)
    before = len(world.tg.sent_messages(ALICE.id))

    world.tg.push_update(world.tg.updates.photo(ALICE, image(7)))
    reply = await world.tg.wait_for_message(ALICE.id, after=before)
    await world.app.update_queue.join()

    assert "Got 1 photo." in (reply.text or "")
    assert manual_time.slept == []  # no window for a single photo
    assert world.conversation is not None and world.conversation.albums.open_albums == 0


async def test_two_albums_from_two_chats_do_not_mix(
    world: HandlerWorld, manual_time: WaitingClock
) -> None:
    await at_photo_step(world, ALICE)
    await at_photo_step(world, BOB)
    alice_before = len(world.tg.sent_messages(ALICE.id))
    bob_before = len(world.tg.sent_messages(BOB.id))

    # Interleaved, as two customers' albums arrive; the same group id in both chats too.
    for n in range(3):
        world.tg.push_update(world.tg.updates.photo(ALICE, image(n), media_group_id="same"))
        if n < 2:
            world.tg.push_update(world.tg.updates.photo(BOB, image(10 + n), media_group_id="same"))
    await world.tg.wait_for_updates_taken()
    await world.app.update_queue.join()
    await release(world, manual_time, albums=2)

    (alice_reply,) = world.tg.sent_messages(ALICE.id)[alice_before:]
    (bob_reply,) = world.tg.sent_messages(BOB.id)[bob_before:]
    assert "Got 3 photos." in (alice_reply.text or "")
    assert "Got 2 photos." in (bob_reply.text or "")
    alice = await world.ctx.chats.session(ALICE.chat)
    bob = await world.ctx.chats.session(BOB.chat)
    assert alice is not None and bob is not None
    alice_urls, bob_urls = alice.answers["photos"], bob.answers["photos"]
    assert isinstance(alice_urls, list) and isinstance(bob_urls, list)
    assert len(alice_urls) == 3 and len(bob_urls) == 2
    assert not set(alice_urls) & set(bob_urls)
    media = [await world.store.media.get(str(u).rsplit("/", 1)[1]) for u in bob_urls]
    assert [m.chat.id for m in media if m is not None] == [BOB.id, BOB.id]


async def test_an_album_that_cannot_be_downloaded_is_refused_once_in_plain_words(
    world: HandlerWorld, manual_time: WaitingClock
) -> None:
    await at_photo_step(world, ALICE)
    before = len(world.tg.sent_messages(ALICE.id))
    world.tg.fail_next("getFile", error_code=400, description="Bad Request: wrong file_id", count=3)

    await send_album(world, ALICE, "album-broken", 3)
    await release(world, manual_time)

    (reply,) = texts(world.tg.sent_messages(ALICE.id)[before:])
    assert reply == "I couldn't receive the pictures in that album. Please send them again."
    session = await world.ctx.chats.session(ALICE.chat)
    assert session is not None and session.step == "photos"  # still asking for them


async def test_a_partly_received_album_takes_what_came_and_says_so_in_the_same_reply(
    world: HandlerWorld, manual_time: WaitingClock
) -> None:
    await at_photo_step(world, ALICE)
    before = len(world.tg.sent_messages(ALICE.id))
    world.tg.fail_next("getFile", error_code=400, description="Bad Request: wrong file_id")

    await send_album(world, ALICE, "album-partly", 3)
    await release(world, manual_time)

    (reply,) = texts(world.tg.sent_messages(ALICE.id)[before:])
    assert reply.startswith(
        "I took 2 of the 3 pictures in that album. "
        "I couldn't receive the others: please send them again."
    )
    assert "Got 2 photos." in reply
    assert "BadRequest" not in reply and "file_id" not in reply


async def test_photos_beyond_the_steps_maximum_are_refused_in_one_sentence(
    world: HandlerWorld, manual_time: WaitingClock
) -> None:
    prompt = await at_photo_step(world, ALICE)
    assert prompt.photos is not None
    most = prompt.photos.max
    before = len(world.tg.sent_messages(ALICE.id))

    await send_album(world, ALICE, "album-big", most + 2)
    await release(world, manual_time)

    (reply,) = texts(world.tg.sent_messages(ALICE.id)[before:])
    assert reply.startswith(
        f"I took {most} of the {most + 2} pictures in that album. "
        f"An order takes at most {most} photos."
    )
    assert f"Got {most} photos." in reply
    assert len(world.tg.downloads) == most  # the extra ones are not even fetched
    session = await world.ctx.chats.session(ALICE.chat)
    assert session is not None
    urls = session.answers["photos"]
    assert isinstance(urls, list) and len(urls) == most


async def test_a_photo_that_comes_late_opens_the_window_again(
    world: HandlerWorld, manual_time: WaitingClock
) -> None:
    await at_photo_step(world, ALICE)
    before = len(world.tg.sent_messages(ALICE.id))

    await send_album(world, ALICE, "album-slow", 2)
    await manual_time.sleepers(1)
    manual_time.advance(QUIET_SECONDS / 2)
    await send_album(world, ALICE, "album-slow", 1, first=2)
    manual_time.advance(QUIET_SECONDS / 2)  # the first window is over, not the last photo's
    await manual_time.sleepers(1)
    assert world.tg.sent_messages(ALICE.id)[before:] == []
    await release(world, manual_time)

    (reply,) = texts(world.tg.sent_messages(ALICE.id)[before:])
    assert "Got 3 photos." in reply


async def test_an_album_without_an_open_order_is_told_so_once(
    world: HandlerWorld, manual_time: WaitingClock
) -> None:
    world.tg.add_chat(ALICE)

    await send_album(world, ALICE, "album-orphan", 3)
    await release(world, manual_time)

    (reply,) = texts(world.tg.sent_messages(ALICE.id))
    assert reply == "There is no order in progress. Send /new to start one."
    assert world.tg.downloads == []


async def test_an_album_still_open_when_the_bot_stops_is_answered(
    world: HandlerWorld, manual_time: WaitingClock
) -> None:
    await at_photo_step(world, ALICE)
    before = len(world.tg.sent_messages(ALICE.id))
    await send_album(world, ALICE, "album-at-stop", 2)
    await manual_time.sleepers(1)

    assert world.conversation is not None
    await world.conversation.close()

    (reply,) = texts(world.tg.sent_messages(ALICE.id)[before:])
    assert "Got 2 photos." in reply


def test_the_quiet_window_must_be_positive() -> None:
    async def deliver(album: object) -> None:
        raise AssertionError("never called")

    with pytest.raises(ValueError):
        AlbumCollector(deliver, quiet_seconds=0)
