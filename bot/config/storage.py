"""``[storage]``: where the bot keeps its files.

Relative paths are resolved against the config file's directory (the validation context's
``base_dir``), so the bot finds the same files whatever directory it is started from.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import AfterValidator, Field, ValidationInfo

from bot.config.section import Section


def _resolve_path(value: Path, info: ValidationInfo) -> Path:
    base_dir: Path = (info.context or {}).get("base_dir", Path.cwd())
    return base_dir / value.expanduser()


StoragePath = Annotated[Path, Field(strict=False), AfterValidator(_resolve_path)]


class StorageConfig(Section):
    """``[storage]``: the SQLite file and the re-hosted package photos."""

    path: StoragePath = Field(Path("deliverybot.sqlite3"), validate_default=True)
    media_dir: StoragePath = Field(Path("media"), validate_default=True)
    media_ttl_hours: float = Field(48.0, gt=0, le=24 * 30)
    # SQLite's durability. "full": a commit is on the disk when it returns, so an acknowledged
    # webhook survives a power cut. "normal": commits reach the disk at WAL checkpoints; they
    # survive the bot crashing or being killed, but a power cut or OS crash may lose the last
    # ones (an acknowledged webhook, a sent marker). In exchange no commit waits for the disk.
    synchronous: Literal["full", "normal"] = "full"

    @property
    def sqlite_synchronous(self) -> Literal["FULL", "NORMAL"]:
        """``synchronous`` as SQLite spells it (``Store.connect``'s argument)."""
        return "NORMAL" if self.synchronous == "normal" else "FULL"
