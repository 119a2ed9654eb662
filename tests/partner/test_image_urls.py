"""``is_image_url``: https anywhere, plain http only to a loopback host (the config's rule)."""

from __future__ import annotations

import pytest

from bot.config import LOOPBACK_HOSTS
from bot.partner.models import LOOPBACK_HOSTS as IMAGE_LOOPBACK_HOSTS
from bot.partner.models import is_image_url


@pytest.mark.parametrize(
    ("url", "taken"),
    [
        ("https://bot.example.com/media/abc", True),
        ("http://127.0.0.1:8080/media/abc", True),
        ("http://localhost/media/abc", True),
        ("http://[::1]:8080/media/abc", True),
        ("http://bot.example.com/media/abc", False),
        ("http://127.0.0.2/media/abc", False),
        ("ftp://localhost/media/abc", False),
        ("https:///media/abc", False),
    ],
)
def test_only_https_or_loopback_http_is_an_image_url(url: str, taken: bool) -> None:
    assert is_image_url(url) is taken


def test_the_config_and_the_images_share_one_loopback_list() -> None:
    assert LOOPBACK_HOSTS is IMAGE_LOOPBACK_HOSTS
