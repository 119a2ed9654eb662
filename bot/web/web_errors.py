"""Every error the web app raises on purpose, as one tree.

::

    WebError                      a request the web app refuses
    ├── BodyTooLarge              the body is (or says it is) larger than allowed (body)
    ├── NotJsonMediaType          the request declares a media type that is not JSON (body)
    └── MalformedBody             unreadable framing, or a body the door does not read (body)
        └── NotJson               not one JSON value, or not the kind the door takes
            └── NotFinite         a number that is NaN, Infinity, or too large to be finite

Each door answers these with its own status; the agents' door maps them once to its own
errors (``bot.agents.agent_routes``). No message ever quotes the body.
"""

from __future__ import annotations


class WebError(Exception):
    """Base of every error the web app raises on purpose."""
