"""``[payments]``: how a customer who chose to pay online is told to pay.

The capabilities carry no checkout link, so without this section an online payer reads that
the business will send them how to pay. ``online_instructions`` says it in the business's
words; ``online_link`` may add a link built for each delivery from ``{ref}`` (the short
reference chats show) and ``{id}`` (the delivery's id).
"""

from __future__ import annotations

import string
from urllib.parse import urlsplit

from pydantic import field_validator

from bot.config.section import Section

_LINK_FIELDS = frozenset({"ref", "id"})


class PaymentsConfig(Section):
    """``[payments]``: what an online payer is told after their order is created."""

    online_instructions: str = ""
    online_link: str = ""

    @field_validator("online_instructions")
    @classmethod
    def _instructions(cls, value: str) -> str:
        value = value.strip()
        if len(value) > 500:
            raise ValueError("keep it under 500 characters: it is one message to the customer")
        return value

    @field_validator("online_link")
    @classmethod
    def _link(cls, value: str) -> str:
        value = value.strip()
        if not value:
            return value
        try:
            names = {name for _, name, _, _ in string.Formatter().parse(value) if name is not None}
        except ValueError:
            raise ValueError("not a valid template: write {ref} or {id} with braces") from None
        unknown = sorted(names - _LINK_FIELDS)
        if unknown:
            raise ValueError(f"unknown placeholder {{{unknown[0]}}} (use {{ref}} or {{id}})")
        if urlsplit(value.format(ref="REF", id="ID")).scheme != "https":
            raise ValueError("must be an https link")
        return value
