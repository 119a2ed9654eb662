"""``PhotoAnswers``: a customer's photo in Telegram, made into the order's answer.

A photo sent at any question of an open order is downloaded and re-hosted (``photo_receiver``):
the photo step is answered by it, and a photo sent after that step is added to it (or the
engine says what it wants). The photos of an album are one answer, collected over its quiet
window (``album_collector``), which answers it through the conversation.
"""

from __future__ import annotations

from bot.telegram.album_collector import AlbumCollector
from bot.telegram.bot_context import BotContext
from bot.telegram.chat_screen import ChatScreen
from bot.telegram.photo_receiver import IncomingPhoto, PhotoRefused
from bot.web.photo_keeping import Rehosted
from conversations import PhotosAnswer, Prompt


class PhotoAnswers:
    """The photos of ``ctx``'s customers, read against the question ``screen`` shows; an
    album's photos go to ``albums``."""

    def __init__(self, ctx: BotContext, screen: ChatScreen, albums: AlbumCollector) -> None:
        self.ctx = ctx
        self.screen = screen
        self.albums = albums

    async def answer(
        self, chat_id: int, user_id: int, photo: IncomingPhoto, language: str | None
    ) -> PhotosAnswer | PhotoRefused:
        """The answer ``photo`` gives at the chat's question, or why it was refused; the
        sender's client says ``language``."""
        prompt = (await self.screen.view(chat_id, user_id, language=language)).prompt
        if prompt is None:
            # Nothing to download for: the engine says there is no order open.
            return PhotosAnswer(urls=[])
        # Downloaded at any question of an open order: the photo step is answered by it, and
        # a photo sent after that step is added to it (or the engine says what it wants).
        have = _photos_had(prompt)
        received = await self.ctx.photos.receive(photo, chat_id=chat_id, already=have)
        if isinstance(received, PhotoRefused):
            return received
        return PhotosAnswer(urls=[received.url])

    async def album_photo(
        self, chat_id: int, user_id: int, group_id: str, photo: IncomingPhoto, language: str | None
    ) -> None:
        """``photo``, one of album ``group_id``'s, added to it (answered once it is whole, in
        ``language``, the sender's client's language code)."""
        prompt = (await self.screen.view(chat_id, user_id, language=language)).prompt

        async def receive(already: int) -> Rehosted | PhotoRefused:
            return await self.ctx.photos.receive(photo, chat_id=chat_id, already=already)

        await self.albums.add(
            chat_id,
            user_id,
            group_id,
            receive,
            have=None if prompt is None else _photos_had(prompt),
            limit=self._photo_limit(prompt),
            language=language,
        )

    def _photo_limit(self, prompt: Prompt | None) -> int:
        # At the photo step its own maximum counts; elsewhere (photos added after the step)
        # the engine keeps what its step takes and says so.
        most = self.ctx.photos.max_photos
        if prompt is not None and prompt.photos is not None:
            return min(most, prompt.photos.max)
        return most


def _photos_had(prompt: Prompt) -> int:
    return prompt.photos.have if prompt.photos is not None else 0
