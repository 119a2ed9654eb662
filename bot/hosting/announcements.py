"""``Announcements``: which businesses' channels were set up for the file they have now.

A business is announced (Telegram's webhook and command menus set) by its first build after it
was added or its file changed. Idle businesses are released and built again often, and a
restarted host has built none of them, so what was announced is kept beside the business
files, in ``{businesses_dir}/.announced/{name}``: the fingerprint of the file announced. Every
instance reads the same directory, so a business is announced once per change, not once per
instance or per restart (two instances seeing a change together may both announce it, which
Telegram takes twice with no harm).
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from bot.hosting.hosted_business import HostedBusiness

DIRECTORY = ".announced"


class Announcements:
    """The markers under ``businesses_dir``; see the module docstring."""

    def __init__(self, businesses_dir: Path) -> None:
        self._dir = businesses_dir / DIRECTORY

    def current(self, business: HostedBusiness) -> bool:
        """Whether ``business`` was announced with the file it has now."""
        try:
            return (self._dir / business.name).read_text().strip() == business.fingerprint
        except OSError:
            return False

    def record(self, business: HostedBusiness) -> None:
        """Note ``business`` announced with its file as it is (written whole, or not at all)."""
        self._dir.mkdir(parents=True, exist_ok=True)
        marker = self._dir / business.name
        partial = marker.with_name(f".{business.name}.{os.getpid()}")
        partial.write_text(business.fingerprint + "\n")
        os.replace(partial, marker)

    def forget(self, name: str) -> None:
        """A removed business: its next add announces it again."""
        with contextlib.suppress(FileNotFoundError):
            (self._dir / name).unlink()
