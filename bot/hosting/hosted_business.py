"""``HostedBusiness``: one business of a host, as its file says it today.

What the host keeps of a business that is not built: its name, its whole ``Config`` (the
host's sections with the business file's, derived per business by ``bot.config``) and the
fingerprint of the file it came from, so a rescan that finds the same fingerprint changes
nothing and a new one is a change to apply.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.config import Config


@dataclass(frozen=True)
class HostedBusiness:
    """One business: ``name`` (its file's stem, its URL prefix ``/b/{name}``), ``config``
    and ``fingerprint`` (the SHA-256 of its file's content)."""

    name: str
    config: Config
    fingerprint: str

    @property
    def prefix(self) -> str:
        """The path under which the host serves this business's web app."""
        return f"/b/{self.name}"
