"""``running_version``: what ``deliverybot_build_info`` and the start line say runs."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version


def running_version() -> str:
    """The installed package's version (``unknown`` from a source tree never installed)."""
    try:
        return version("deliverybot")
    except PackageNotFoundError:
        return "unknown"
