"""What the WhatsApp demo's customer sees: each message the simulated Cloud API accepted for
them (``SentMessage``), drawn as terminal lines the way a phone shows it.

::

    bot: What would you like to order?
         [Choose]
           1. ✓ Pickup & delivery — A rider picks it up and brings it
           2. Errand
         (tap: type a number or a title; anything else is sent as a message)

Reply buttons and list rows that answer something (a question's options, menu words, a
relay's question) are numbered in the order WhatsApp shows them, on from one message to the
next of the same answer (a list, then "Talk to a person" under it), so the typist taps one by
its number or its title (``whatsapp_typing``). Buttons beside a question answered by typing
(only "Back", or "Use my number") are drawn ``[Back]``, tapped by their title: a number typed
there is the answer (a room "12"). a list's button label is shown above its
rows, a location request's "Send location" with how to share a pin, a template with its name,
language and parameters (what Meta fills into the approved text), a document or an image with
its file's name and size (``(document my-data-2024-05-01.json, 3.2 kB)``) above its caption.
The words inside a message are the bot's, from its catalogue; only the frame (numbers,
brackets, the hint) is the demo's, as a phone's own screen is not the business's.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from bot.console.console_render import said
from bot.whatsapp.reply_ids import NAMESPACE
from bot.whatsapp_fake.sent_messages import Offered, SentMessage

BOT: Final = "bot"
INDENT: Final = " " * 5
TAP_HINT: Final = "(tap: type a number or a title; anything else is sent as a message)"
TITLE_HINT: Final = "(tap: type a title; anything else is sent as a message)"
PIN_HINT: Final = (
    "[Send location] (type location <lat> <lng> [name], or lat,lng; or type the address)"
)
# What the buttons beside a question answered by typing stand for (``reply_ids``): a
# navigation command, "Use my number".
_BESIDE_TYPING: Final = frozenset({"c", "me"})


@dataclass(frozen=True)
class Choice:
    """A button or row on screen: ``offered`` of ``message`` (a tap names both), and the
    number it is tapped by (None: by its title only)."""

    message: SentMessage
    offered: Offered
    number: int | None


def stands_for(offered: Offered) -> str:
    """What a button or row stands for, by its id (``bot.whatsapp.reply_ids``): ``o`` an
    option, ``c`` a command, ``p`` a page of the list, ``me`` the customer's number, ``k`` a
    menu word; ``""`` for a relay question's typed answer."""
    namespace, _, rest = offered.reply_id.partition(":")
    return rest.partition(":")[0] if namespace == NAMESPACE else ""


def choices_of(messages: Iterable[SentMessage]) -> tuple[Choice, ...]:
    """The buttons and rows ``messages`` offer, numbered as ``draw_all`` shows them."""
    choices: list[Choice] = []
    number = 1
    for message in messages:
        numbered = not {stands_for(offered) for offered in message.offered} <= _BESIDE_TYPING
        for offered in message.offered:
            choices.append(Choice(message, offered, number if numbered else None))
            number += numbered
    return tuple(choices)


def draw_all(messages: Sequence[SentMessage], who: str = BOT) -> list[str]:
    """Every message of ``messages``, in order, their choices numbered by ``choices_of``."""
    choices = choices_of(messages)
    return [
        line
        for message in messages
        for line in draw(message, [c for c in choices if c.message is message], who)
    ]


def draw(message: SentMessage, choices: Sequence[Choice] = (), who: str = BOT) -> list[str]:
    """``message`` as the terminal shows it, said by ``who``, with its ``choices``."""
    match message.kind:
        case "buttons" | "list":
            return _choices(message, choices, who)
        case "location_request":
            return [*said(message.text, who), INDENT + PIN_HINT]
        case "template":
            head = f"(template {message.template}, {message.language})"
            parameters = enumerate(message.parameters, start=1)
            return [*said(head, who), *(f"{INDENT}{{{{{n}}}}} {p}" for n, p in parameters)]
        case "text":
            return said(message.text, who)
        case "document" | "image":
            return said(_file_line(message), who)
        case _:
            caption = f" {message.text}" if message.text else ""
            return said(f"({message.kind}){caption}", who)


def _file_line(message: SentMessage) -> str:
    """A document or an image as a phone shows it: its kind, name and size, then its caption."""
    size = "" if message.file_size is None else _size(message.file_size)
    about = ", ".join(part for part in (message.filename, size) if part)
    head = f"({message.kind} {about})" if about else f"({message.kind})"
    return f"{head}\n{message.text}" if message.text else head


def _size(count: int) -> str:
    """A file's size as a phone writes it: 812 B, 3.2 kB, 1.4 MB."""
    if count < 1000:
        return f"{count} B"
    if count < 1_000_000:
        return f"{count / 1000:.1f} kB"
    return f"{count / 1_000_000:.1f} MB"


def _choices(message: SentMessage, choices: Sequence[Choice], who: str) -> list[str]:
    lines = said(f"{message.header}\n{message.text}" if message.header else message.text, who)
    if message.kind == "list":
        lines.append(f"{INDENT}[{message.list_button}]")
    for choice in choices:
        detail = f" — {choice.offered.description}" if choice.offered.description else ""
        if choice.number is None:
            lines.append(f"{INDENT}  [{choice.offered.title}]{detail}")
        else:
            lines.append(f"{INDENT}  {choice.number}. {choice.offered.title}{detail}")
    if message.footer:
        lines.append(INDENT + message.footer)
    numbered = any(choice.number is not None for choice in choices)
    lines.append(INDENT + (TAP_HINT if numbered else TITLE_HINT))
    return lines
