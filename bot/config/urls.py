"""The one URL check every configured address goes through.

https everywhere, plain http only on a loopback host (the local sandbox, local tests): several
of these URLs carry a secret, the Telegram token in its path or the API key in a header.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from bot.partner.vocabulary import LOOPBACK_HOSTS

__all__ = ["LOOPBACK_HOSTS", "LOOPBACK_HTTP", "check_url"]
LOOPBACK_HTTP = "plain http only for 127.0.0.1 or localhost"


def check_url(value: str, *, rule: str, path_suffix: str = "") -> str:
    """``value`` without a trailing slash if it is https (or http on a loopback host), has a
    host and ends with ``path_suffix``; else ``ValueError(rule)``."""
    url = value.strip().rstrip("/")
    parts = urlsplit(url)
    plain_http_ok = parts.scheme == "http" and parts.hostname in LOOPBACK_HOSTS
    if (
        not (parts.scheme == "https" or plain_http_ok)
        or not parts.hostname
        or not parts.path.endswith(path_suffix)
    ):
        raise ValueError(rule)
    try:
        parts.port  # noqa: B018 - parsing the port is the check
    except ValueError:
        raise ValueError("has an invalid port") from None
    if parts.username or parts.password or parts.query or parts.fragment:
        raise ValueError("must not carry a user name, password, query or fragment")
    return url
