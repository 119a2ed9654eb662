"""Every error the map Mini App raises on purpose, as one tree.

::

    WebAppError                   a Mini App request the bot refuses
    └── InitDataRefused           ``initData`` missing, malformed, forged, another bot's, or
                                  stale (init_data); the reason is for logs, the page gets 401
"""

from __future__ import annotations


class WebAppError(Exception):
    """Base of every error the map Mini App raises on purpose."""
