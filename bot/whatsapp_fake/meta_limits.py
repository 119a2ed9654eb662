"""The Cloud API's limits on a business's messages, as Meta's reference gives them.

The simulated Cloud API refuses a message over any of these the way Meta does, so a drawing
that breaks one fails in a test, never at Meta. They are the fake's own copy, from Meta's pages
("Interactive reply buttons messages", "Interactive list messages", "Text messages",
"Location request messages"): the fake stands below ``bot.whatsapp`` and reads none of its code.
"""

from __future__ import annotations

from typing import Final

TEXT_BODY: Final = 4096
"""A text message's ``text.body``."""
INTERACTIVE_BODY: Final = 1024
"""An interactive message's ``body.text``."""
HEADER_TEXT: Final = 60
FOOTER_TEXT: Final = 60
CAPTION: Final = 1024
"""A media message's caption."""
BUTTONS: Final = 3
"""Reply buttons on one message."""
BUTTON_TITLE: Final = 20
"""A reply button's title, and a list message's ``action.button``."""
REPLY_ID: Final = 256
"""A reply button's or a row's id."""
LIST_ROWS: Final = 10
"""Rows of one list message, over all its sections."""
LIST_SECTIONS: Final = 10
SECTION_TITLE: Final = 24
ROW_TITLE: Final = 24
ROW_DESCRIPTION: Final = 72
WA_ID_DIGITS: Final = range(5, 16)
"""A recipient's number: E.164 allows up to 15 digits."""
