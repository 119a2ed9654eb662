"""Every error the host raises on purpose, as one tree.

::

    HostingError                  a request or change the host does not take
    ├── SlotClosed                the business is being removed or replaced: its request is
    │                             answered 503 with Retry-After (business_slot)
    └── BuildFailed               the business could not be built (Telegram refused its token,
                                  its store did not open): 503 with Retry-After, and logged
"""

from __future__ import annotations


class HostingError(Exception):
    """Base of every error the host raises on purpose."""


class SlotClosed(HostingError):
    """The business is being removed or replaced: the request is not taken."""


class BuildFailed(HostingError):
    """Business ``name`` could not be built; ``reason`` says why (no secret in it: the
    runtime's start-up errors and the store's never quote one)."""

    def __init__(self, name: str, reason: str) -> None:
        super().__init__(f"business {name} could not be built: {reason}")
        self.name = name
        self.reason = reason
