"""Every error the Telegram adapter raises on purpose, as one tree.

::

    TelegramAdapterError          anything the Telegram adapter raises on purpose
    ├── UnmappedChat              an update's chat cannot be read off its JSON as surely as PTB
    │                             would read it (received_update)
    └── LeftToPtb                 a keyboard value the fast writer does not know: PTB's own
                                  ``to_dict`` writes the whole keyboard (wire_markup)

PTB's own errors (``telegram.error``) are mapped where the adapter sends: to a retry, a quiet
drop, or the relay's ``ChatUnreachable`` and ``SendFailed`` (``message_sender``).
"""

from __future__ import annotations


class TelegramAdapterError(Exception):
    """Base of every error the Telegram adapter raises on purpose."""


class LeftToPtb(TelegramAdapterError):
    """A value ``wire_markup`` does not write: PTB's ``to_dict`` writes the whole keyboard."""
