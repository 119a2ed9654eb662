"""Whose package photos a create sent: copies the bot re-hosted, or links a customer gave.

Every photo the bot re-hosts (a Telegram picture, a console file, an agent's upload) is served
by its own web app at ``{public_base_url}/media/<token>`` (``bot.web.media_url``), a host the
operator allowlists once. Any other URL in ``packageImages`` came from the customer as is (an
agent answering the photo question with its own link). The URL is the whole record: nothing
is kept in the session, so sessions saved before this module read the same way, and a bot
without a public host (which re-hosts nothing) takes every photo as given.

When the service refuses the photos (400 ``image_host_rejected``), a refusal with any given
link among them is the customer's to fix (``photo_link``); one of re-hosted photos only is the
operator's allowlist (``image_host``). The spec does not say which image a refusal names, so a
mixed set counts as the customer's: once they send photos the bot re-hosts, a refusal that is
still there is the operator's, and the operators are told then.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.web import media_url


class RehostedPhotos:
    """Tells the bot's re-hosted photo URLs from the links customers gave."""

    def __init__(self, public_base_url: str | None) -> None:
        # media_url with an empty token is exactly the prefix every re-hosted URL starts with.
        self._prefix = None if public_base_url is None else media_url(public_base_url, "")

    def rehosted(self, url: str) -> bool:
        """Whether ``url`` is one of the bot's own re-hosted photos."""
        return (
            self._prefix is not None
            and url.startswith(self._prefix)
            and len(url) > len(self._prefix)
        )

    def token(self, url: str) -> str | None:
        """The media token of one of the bot's own photo URLs; None for any other URL."""
        return url[len(self._prefix) :] if self._prefix is not None and self.rehosted(url) else None

    def given(self, urls: Iterable[str]) -> list[str]:
        """The URLs of ``urls`` the bot did not re-host: links the customer gave as they are."""
        return [url for url in urls if not self.rehosted(url)]
