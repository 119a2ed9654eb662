"""Telegram albums: the photos of one album become ONE answer.

Telegram delivers an album as several messages, one update each, that share a
``media_group_id``. Each photo is re-hosted as it comes, in its own update's turn (so the
downloads run one at a time per chat, as for single photos), and kept in the album's bucket,
keyed by chat and ``media_group_id``. Once no photo of the album has come for
``QUIET_SECONDS``, the album is answered once: one ``PhotosAnswer`` with every photo taken,
and one sentence for the photos that were not (refused, or beyond the step's maximum).

The wait runs in a task of its own, never inside an update's turn: the chat's next updates
(the album's other photos) queue behind that turn, so waiting there would hold them back.
The task takes the chat's turn to answer, so it never races the chat's updates; a photo that
came in while it queued for the turn starts the quiet window again. Time is read through the
injected clock and sleep (``bot.clocks``): tests release the window by hand.

An album still waiting when the bot stops is answered at once (``flush``). The buckets live in
this process: with several bots behind one webhook, an album whose photos reach different
bots is answered once by each.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import Final

from telegram.error import TelegramError

from bot.clocks import Clock, Sleep, system_sleep
from bot.telegram.photo_receiver import MAX_PHOTO_BYTES, PhotoProblem, PhotoRefused
from bot.telegram.refs import telegram_chat
from bot.web.photo_keeping import Rehosted
from conversations.texts.catalogue import Catalogue

log = logging.getLogger(__name__)

QUIET_SECONDS: Final = 0.8
"""How long an album stays open after its last photo. Telegram's clients upload an album's
photos together and the Bot API hands its messages out within a few hundred milliseconds of
one another; 0.8 s covers that spread with room, and keeps the customer's wait for the one
reply under a second."""

ChatTurn = Callable[[int], AbstractAsyncContextManager[None]]
Receive = Callable[[int], Awaitable[Rehosted | PhotoRefused]]
"""Re-host one photo, given how many photos the order already has."""


@dataclass
class Album:
    """The photos of one album so far, in the order they came.

    ``have`` is how many photos the order had before the album (None: no order is open, so
    nothing is downloaded and the engine says so); ``limit`` the most the order takes;
    ``language`` the language code of the sender's client (the album is answered in it).
    """

    chat_id: int
    user_id: int
    have: int | None
    limit: int
    last_seen: float
    language: str | None = None
    urls: list[str] = field(default_factory=list)
    problems: list[PhotoProblem] = field(default_factory=list)
    sent: int = 0
    waiting: asyncio.Task[None] | None = field(default=None, repr=False)

    def note(self, catalogue: Catalogue) -> str | None:
        """What the customer is told about the photos left out, in one sentence or two of
        ``catalogue``'s words; None when every photo was taken."""
        if not self.problems:
            return None
        values = {"max_photos": self.limit, "megabytes": MAX_PHOTO_BYTES // (1024 * 1024)}
        problems = list(dict.fromkeys(self.problems))
        if "no_public_host" in problems:  # about the bot, not the photos: nothing was taken
            return catalogue.say("telegram.photo.no_public_host")
        if not self.urls:
            return " ".join(catalogue.say(f"telegram.album.none.{p}", **values) for p in problems)
        reasons = [catalogue.say(f"telegram.album.why.{p}", **values) for p in problems]
        return " ".join(
            [catalogue.say("telegram.album.partly", taken=len(self.urls), sent=self.sent), *reasons]
        )


Deliver = Callable[[Album], Awaitable[None]]


class AlbumCollector:
    """Gathers albums photo by photo and hands each to ``deliver`` once it is complete.

    ``chat_turn(chat_id)`` is the update processor's per-chat turn (None: updates are handled
    one at a time anyway); ``clock`` and ``sleep`` time the quiet window.
    """

    def __init__(
        self,
        deliver: Deliver,
        *,
        chat_turn: ChatTurn | None = None,
        clock: Clock = time.monotonic,
        sleep: Sleep = system_sleep,
        quiet_seconds: float = QUIET_SECONDS,
    ) -> None:
        if quiet_seconds <= 0:
            raise ValueError("quiet_seconds must be positive")
        self._deliver = deliver
        self._chat_turn = chat_turn
        self._clock = clock
        self._sleep = sleep
        self.quiet_seconds = quiet_seconds
        self._albums: dict[tuple[int, str], Album] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._stopping = False

    @property
    def open_albums(self) -> int:
        """How many albums are still waiting for their quiet window."""
        return len(self._albums)

    async def add(
        self,
        chat_id: int,
        user_id: int,
        group_id: str,
        receive: Receive,
        *,
        have: int | None,
        limit: int,
        language: str | None = None,
    ) -> None:
        """One photo of album ``group_id`` in ``chat_id``: re-hosted by ``receive`` unless the
        order is full (``have`` photos already, at most ``limit``) or not open (``have`` None).
        Returns once the photo is in; the album is answered later, in ``language`` (the
        sender's client's language code, as its first photo gave it)."""
        key = (chat_id, group_id)
        album = self._albums.get(key)
        if album is None:
            album = Album(chat_id, user_id, have, limit, self._clock(), language)
            self._albums[key] = album
            self._start(key, album)
        album.sent += 1
        album.last_seen = self._clock()
        if album.have is not None:
            already = album.have + len(album.urls)
            if already >= album.limit:
                album.problems.append("too_many")  # not even downloaded
            else:
                received = await receive(already)
                if isinstance(received, Rehosted):
                    album.urls.append(received.url)
                else:
                    album.problems.append(received.problem)
        album.last_seen = self._clock()  # the quiet window counts from when the photo is in

    async def flush(self) -> None:
        """Answer every album now, without waiting for its window (the bot is stopping)."""
        self._stopping = True  # a wait not begun yet is skipped
        for album in self._albums.values():
            if album.waiting is not None:  # only a sleep is cut short, never an answer
                album.waiting.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        for key, album in list(self._albums.items()):
            async with self._turn(album.chat_id):
                await self._answer(key, album)

    async def settle(self) -> None:
        """Wait until every album being waited for has been answered (in tests)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def _start(self, key: tuple[int, str], album: Album) -> None:
        task = asyncio.create_task(self._wait_then_answer(key, album))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _wait_then_answer(self, key: tuple[int, str], album: Album) -> None:
        while True:
            left = album.last_seen + self.quiet_seconds - self._clock()
            if left > 0 and not self._stopping:
                album.waiting = asyncio.current_task()
                try:
                    await self._sleep(left)
                finally:
                    album.waiting = None
                continue
            async with self._turn(album.chat_id):
                # A photo handled while this waited for the turn opens the window again.
                if not self._stopping and album.last_seen + self.quiet_seconds > self._clock():
                    continue
                await self._answer(key, album)
                return

    def _turn(self, chat_id: int) -> AbstractAsyncContextManager[None]:
        return self._chat_turn(chat_id) if self._chat_turn else contextlib.nullcontext()

    async def _answer(self, key: tuple[int, str], album: Album) -> None:
        if self._albums.get(key) is not album:
            return
        del self._albums[key]
        try:
            await self._deliver(album)
        except TelegramError as error:
            # A network error's text may quote a request URL, and those carry the bot token.
            log.warning(
                "album for chat %s: Telegram call failed (%s)",
                telegram_chat(album.chat_id).for_log,
                type(error).__name__,
            )
        except Exception:
            log.exception(
                "album for chat %s could not be answered", telegram_chat(album.chat_id).for_log
            )
