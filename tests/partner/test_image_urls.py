"""``is_image_url``: https anywhere, plain http only to a loopback host (the config's rule)."""

from __future__ import annotations

import pytest

from bot.config import LOOPBACK_HOSTS
from bot.partner.models import LOOPBACK_HOSTS as IMAGE_LOOPBACK_HOSTS
from bot.partner.models import is_image_url
from conversations.order.photos import LOOPBACK_HOSTS as CORE_LOOPBACK_HOSTS
from conversations.order.photos import is_image_url as core_is_image_url


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


def test_the_cores_image_rule_takes_the_configs_loopback_hosts() -> None:
    # The core cannot import bot, and check-config must start without importing conversations,
    # so the set is written in both; this keeps the two the same.
    assert CORE_LOOPBACK_HOSTS == LOOPBACK_HOSTS
    assert is_image_url is core_is_image_url
