"""Photos an agent uploads (``POST /api/conversations/{id}/photos``), re-hosted like Telegram's.

The body is the image itself (JPEG, PNG or WebP, judged by its bytes, at most the service's
5 MB). It is kept in ``store.media`` under an unguessable token and served by the bot's web app
at ``{public_base_url}/media/<token>``, the URL the agent then answers the photo question with
(``{"kind": "photos", "urls": [url]}``): the service downloads it from the bot's own host, which
the operator allowlists once (``docs/operators.md``). Without a public host nothing is taken.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.agents.agents_errors import AgentsError
from bot.partner.models import MAX_IMAGE_BYTES
from bot.store import AgentConversation, Store
from bot.web import media_url
from bot.web.photo_keeping import image_type


@dataclass(frozen=True)
class Uploaded:
    """Where the service will fetch the photo, and until when (unix seconds)."""

    url: str
    expires_at: float


class UploadRefused(AgentsError):
    """The photo was not taken; ``reason`` says why (for the program, no secret)."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


class PhotoUploads:
    """Keeps uploaded photos for ``ttl_seconds`` and names their public URLs."""

    def __init__(self, store: Store, public_base_url: str | None, ttl_seconds: float) -> None:
        self._store = store
        self._public_base_url = public_base_url
        self._ttl_seconds = ttl_seconds

    async def put(self, conversation: AgentConversation, data: bytes) -> Uploaded:
        """Keep ``data`` for ``conversation``'s order; ``UploadRefused`` when it cannot be."""
        if self._public_base_url is None:
            raise UploadRefused("the bot has no public host for photos ([server] public_base_url)")
        content_type = image_type(data[:12])
        if content_type is None:
            raise UploadRefused("the body must be a JPEG, PNG or WebP image")
        if len(data) > MAX_IMAGE_BYTES:
            raise UploadRefused(f"a photo may be at most {MAX_IMAGE_BYTES} bytes")
        media = await self._store.media.put(
            data,
            content_type=content_type,
            chat=conversation.chat,
            expires_at=self._store.clock() + self._ttl_seconds,
        )
        return Uploaded(media_url(self._public_base_url, media.token), media.expires_at)
