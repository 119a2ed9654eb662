"""Every error the WhatsApp channel raises on purpose, as one tree.

::

    WhatsAppChannelError          anything the WhatsApp channel raises on purpose
    ├── BadSignature              a push not signed with the app's secret (signature)
    ├── NotAPush                  JSON that is not a WhatsApp Business Account push (payload)
    ├── WindowClosed              also the relay's ``SendFailed``: Meta refused a message other
    │                             than a template, the customer-service window being closed
    │                             (sender)
    └── SendThrottled             also the relay's ``SendFailed``: Meta's rate limits held a
                                  send past its retries (sender)
"""

from __future__ import annotations


class WhatsAppChannelError(Exception):
    """Base of every error the WhatsApp channel raises on purpose."""
