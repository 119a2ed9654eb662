"""Every error the host raises on purpose, as one tree.

::

    HostingError                  a request or change the host does not take
    └── SlotClosed                the business is being removed or replaced: its request is
                                  answered 503 with Retry-After (business_slot)
"""

from __future__ import annotations


class HostingError(Exception):
    """Base of every error the host raises on purpose."""


class SlotClosed(HostingError):
    """The business is being removed or replaced: the request is not taken."""
