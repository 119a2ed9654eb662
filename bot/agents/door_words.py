"""What an agent is told to do next, in its own door's terms: tool names over MCP, routes over
the JSON API.

The customer desk words its hints for every channel alike ("Send {status} 3F2A9C1E for
details"); for the agent channels it is given marks instead of command names
(``agent_texts.AGENT_WORDS``: ``[[call:status]]``), and each door draws them here: over MCP "a
delivery_status call with delivery 3F2A9C1E", over the JSON API "GET
/api/customers/cust-42/deliveries/3F2A9C1E". A mark that begins a sentence is drawn with a
capital. The same is done for the one way of the flows that differs between the doors, how
photos are given (``taps.api.way.photos`` names the upload route with the conversation's id).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TypeVar
from urllib.parse import quote

from bot.ordering import CancelReply, DeliveryPage, StatusReply

# A mark, and the short reference (upper-case hex, "3F2A9C1E") that may follow it.
_CALL = re.compile(r"\[\[call:([a-z_]+)\]\](?: ([0-9A-F]{4,16})(?!\w))?")
R = TypeVar("R", DeliveryPage, StatusReply, CancelReply)


@dataclass(frozen=True)
class DoorWords:
    """A door's words for each call mark; ``{customer}`` and ``{ref}`` are filled in."""

    calls: dict[str, str]

    def draw(self, text: str, customer: str = "") -> str:
        """``text`` with every call mark in this door's words."""

        def said(match: re.Match[str]) -> str:
            template = self.calls.get(match[1], match[1])
            words = template.format(customer=quote(customer, safe=""), ref=match[2] or "")
            if match[2] and "{ref}" not in template:
                words = f"{words} {match[2]}"
            before = text[: match.start()].rstrip()
            starts_sentence = not before or before.endswith((".", "!", "?", ":"))
            return words[:1].upper() + words[1:] if starts_sentence else words

        return _CALL.sub(said, text)

    def drawn(self, reply: R, customer: str) -> R:
        """A desk reply (its ``text``, a page's ``title`` and ``hint``) in this door's words."""
        update: dict[str, object] = {"text": self.draw(reply.text, customer)}
        if isinstance(reply, DeliveryPage):
            update["title"] = self.draw(reply.title, customer)
            if reply.hint is not None:
                update["hint"] = self.draw(reply.hint, customer)
        return reply.model_copy(update=update)


MCP_WORDS = DoorWords(
    {
        "new": "a start_order call",
        "status": "a delivery_status call with delivery {ref}",
        "deliveries": "a my_deliveries call",
        "cancel_delivery": "a cancel_delivery call with the delivery's reference and a reason",
    }
)
API_WORDS = DoorWords(
    {
        "new": "POST /api/conversations",
        "status": "GET /api/customers/{customer}/deliveries/{ref}",
        "deliveries": "GET /api/customers/{customer}/deliveries",
        "cancel_delivery": "POST /api/customers/{customer}/deliveries/<reference>/cancel",
    }
)
