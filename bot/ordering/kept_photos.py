"""Whether the photos the bot re-hosted for an order are still there for the service to fetch.

A re-hosted photo (``bot.store.media_files``) lives ``[privacy] photos_hours``; a draft may
wait longer (``[privacy] drafts_days``). A create whose own photos are gone would be
refused with 400 ``image_host_rejected``, which reads like the operator's allowlist but is
nobody's mistake: so ``PartnerCreator`` asks here first and, when any is gone, sends nothing
and asks the customer for the photos again (``photos_expired``). The same question after such
a refusal tells a photo that expired meanwhile from a host that is really not allowlisted.

Only the bot's own URLs are looked up (``RehostedPhotos``); links a customer gave are theirs.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from bot.clocks import Clock
from bot.ordering.photo_origin import RehostedPhotos
from bot.store import MediaStore

# Before a create, a photo this close to its expiry counts as gone: the service downloads it
# during the create, which the API key's request limit may hold back a minute or two.
EXPIRY_MARGIN_SECONDS: Final = 300.0


class KeptPhotos:
    """Looks up the bot's own photo URLs in its media store."""

    def __init__(self, rehosted: RehostedPhotos, media: MediaStore, clock: Clock) -> None:
        self._rehosted = rehosted
        self._media = media
        self._clock = clock

    async def gone(self, urls: Iterable[str], *, within: float = 0.0) -> list[str]:
        """The bot's own photo URLs of ``urls`` no longer stored (expired, purged, file lost),
        or expiring within ``within`` seconds."""
        missing: list[str] = []
        for url in urls:
            token = self._rehosted.token(url)
            if token is None:
                continue
            media = await self._media.get(token)
            if media is None or media.expires_at <= self._clock() + within:
                missing.append(url)
        return missing
