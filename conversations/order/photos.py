"""Which photo links an order may carry."""

from __future__ import annotations

from urllib.parse import urlsplit

LOOPBACK_HOSTS: frozenset[str] = frozenset({"127.0.0.1", "localhost", "::1"})
"""Hosts that only this machine reaches: the one place plain http is taken (local tests).

``bot.partner.vocabulary`` holds the same set for the configuration, which must start without
importing ``conversations``; a test keeps the two equal."""


def is_image_url(url: str) -> bool:
    """Whether ``url`` may go into ``packageImages``: https with a host, or plain http to a
    loopback host.

    The spec takes https only, and the real service refuses anything else. Plain http to a
    loopback host is the exception the config makes for the bot's own ``public_base_url``
    (``bot.config.urls``): a bot run against a local sandbox hosts its photos there, and the
    sandbox downloads them only when its scenario sets ``[network] allow_http`` and
    ``allow_loopback``.
    """
    parts = urlsplit(url)
    if parts.scheme == "https":
        return bool(parts.hostname)
    return parts.scheme == "http" and parts.hostname in LOOPBACK_HOSTS
