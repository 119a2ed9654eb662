"""The errors a channel reports to the relay, as one tree.

::

    RelayError                    a relay message that did not reach its chat
    ├── ChatUnreachable           the chat cannot be messaged until its user returns: recorded,
    │                             never retried
    └── SendFailed                not sent this time, still owed: tried again later
        ├── WindowClosed          WhatsApp's customer-service window is closed: the news goes
        │                         as a template (bot.whatsapp.sender)
        └── SendThrottled         WhatsApp's rate limits held the send past its retries
                                  (bot.whatsapp.sender)

A channel maps its messenger's errors to these once, where it sends (Telegram's
``message_sender``); any other exception a channel lets out is taken as ``SendFailed``.
"""

from __future__ import annotations


class RelayError(Exception):
    """Base of the errors a channel reports to the relay."""
