"""The one line ``deliverybot run`` logs once it listens: what runs, where, as which instance.

Nothing in it is a secret: the store is named by its kind, never by its DSN.
"""

from __future__ import annotations

import os
import socket

from bot.config import Config
from bot.metrics.build_info import running_version


def instance_name() -> str:
    """This process among several instances: host name and process id."""
    return f"{socket.gethostname()}:{os.getpid()}"


def start_line(
    config: Config, channels: list[str], web: str | None, metrics: str | None
) -> tuple[str, tuple[object, ...]]:
    """The start line's format and arguments (for ``log.info``). ``web`` and ``metrics``:
    where the web app and /metrics listen (None: not served)."""
    mode = config.telegram.mode if config.has_telegram else "none"
    return (
        "deliverybot %s started: instance %s, telegram %s, channels %s, store %s, "
        "web app %s, metrics %s",
        (
            running_version(),
            instance_name(),
            mode,
            ", ".join(channels) or "none",
            config.storage.backend,
            web or "not listening",
            metrics or "off",
        ),
    )
