"""Drawing a turn in Telegram: the engine's messages and its prompt, as few messages as fit.

Everything the engine says is plain text; here it is escaped for ``parse_mode=HTML`` (so a
customer's "<3" or "&" can never break a message) and split below Telegram's 4096-character
limit. A turn's notices ("Got 1 photo.", "That is not a phone number.") and its prompt go out
as ONE message, separated by blank lines: less noise in the chat, and one send instead of
several. The prompt's inline keyboard rides on that message: its options one per row (the
pre-selected one marked), page buttons when the options are too many for one screen, and the
navigation commands it offers. When the prompt message is later edited (a page turn, or the
answered question losing its buttons) it shows the question only.

Sharing a location or a contact needs a *reply* keyboard (``request_location`` /
``request_contact`` buttons), and a message carries one keyboard only. So a prompt that asks
for a location or a contact is drawn on a reply keyboard of its own (``on_reply_keyboard``):
the share buttons first, then its options and commands as plain buttons, which send their
label as text; ``reply_answer`` reads such a label back as the tap it stands for. One message,
and no buttons left behind to tidy (the customer's own message shows what they chose). Only a
paged prompt keeps its inline keyboard (a reply keyboard has no pages), with a short hint
after it carrying the share buttons. When the chat moves on to a step that shares nothing, the
reply keyboard is taken away (``ReplyKeyboardRemove``) by the first message of the turn that
has no inline keyboard (the notices), or, when there is none, by a short "OK." before the
prompt. The caller keeps which reply keyboard is showing (``RenderedTurn.reply_keyboard``)
and passes it to the next render.

Where the engine's sentences ask to choose (``conversations.texts.taps``), Telegram says "tap".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Final, Literal

from telegram import (
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    KeyboardButton,
    ReplyKeyboardMarkup,
    ReplyKeyboardRemove,
    WebAppInfo,
)

from bot.telegram.callbacks import command_data, option_data, page_count, page_data
from bot.telegram.text import escape, split
from conversations import Answer, ChoiceAnswer, CommandAnswer, CommandName, Prompt, Turn
from conversations.dialog import PAGE_SIZE
from conversations.shortening import ELLIPSIS, shorten
from conversations.texts.catalogue import Catalogue
from conversations.texts.taps import BUTTONS, for_channel

MAX_BUTTON_LABEL: Final = 60  # longer labels are shortened: clients elide them anyway
COMMANDS_PER_ROW: Final = 3

ShareRequest = Literal["location", "contact"]
Markup = InlineKeyboardMarkup | ReplyKeyboardMarkup | ReplyKeyboardRemove

DEFAULT_MARK: Final = "✓ "
# Labels, hints and page buttons are catalogue messages (``command.*``, ``telegram.*``), said
# in the customer's language when the turn is drawn.
COMMAND_GLYPHS: Final[dict[CommandName, str]] = {"back": "↩ "}
SHARE_BUTTON_TEXTS: Final[dict[ShareRequest, str]] = {
    "location": "telegram.share_location_button",
    "contact": "telegram.share_contact_button",
}
SHARE_HINTS: Final[dict[tuple[ShareRequest, ...], str]] = {
    ("location",): "telegram.share_location_hint",
    ("contact",): "telegram.share_contact_hint",
    ("location", "contact"): "telegram.share_both_hint",
}


def command_label(catalogue: Catalogue, name: CommandName) -> str:
    """A command's button label in ``catalogue``'s words: ``↩ Back``, ``Done``."""
    return COMMAND_GLYPHS.get(name, "") + catalogue.say(f"command.{name}")


def previous_page(catalogue: Catalogue) -> str:
    """The label of a "previous page" button."""
    return catalogue.say("telegram.previous_page")


def next_page(catalogue: Catalogue) -> str:
    """The label of a "next page" button."""
    return catalogue.say("telegram.next_page")


def _share_button(catalogue: Catalogue, kind: ShareRequest) -> KeyboardButton:
    text = catalogue.say(SHARE_BUTTON_TEXTS[kind])
    if kind == "location":
        return KeyboardButton(text, request_location=True)
    return KeyboardButton(text, request_contact=True)


@dataclass(frozen=True)
class OutgoingMessage:
    """One message to send: ``text`` is HTML (already escaped), ``markup`` its keyboard."""

    text: str
    markup: Markup | None = None

    @property
    def editable(self) -> bool:
        """True when ``edit_message_text`` can draw it (only inline keyboards can be edited in)."""
        return self.markup is None or isinstance(self.markup, InlineKeyboardMarkup)


@dataclass(frozen=True)
class RenderedTurn:
    """A turn as messages, in order.

    ``prompt_index`` is the position of the prompt's own message (keep its id to edit it
    later: page turns, marking the answer), None when the turn asks nothing. ``reply_keyboard``
    is what reply keyboard is showing once these messages are sent: pass it to the next render.
    """

    messages: tuple[OutgoingMessage, ...]
    prompt_index: int | None
    reply_keyboard: tuple[ShareRequest, ...]


def render_turn(
    catalogue: Catalogue,
    turn: Turn,
    *,
    session_id: str | None = None,
    reply_keyboard: tuple[ShareRequest, ...] = (),
    map_url: str | None = None,
) -> RenderedTurn:
    """Messages for ``turn``, Telegram's own words (buttons, hints) from ``catalogue`` (the
    customer's); ``reply_keyboard`` is what the previous render left showing.

    ``session_id`` goes into the buttons' tag (see ``callbacks``); pass the same to ``resolve``.
    ``map_url`` is the chat's "Pick on the map" page (``bot.webapp``): a place question gets
    that button beside "Share my location" (None: no map button).
    """
    needed = share_requests(turn.prompt)
    map_url = map_url if turn.prompt is not None and turn.prompt.input == "place" else None
    notices = "\n\n".join(_said(catalogue, text).strip() for text in turn.messages if text.strip())
    messages: list[OutgoingMessage] = []
    prompt_index: int | None = None
    if turn.prompt is None:
        messages = _plain(notices)
    elif on_reply_keyboard(turn.prompt):
        question = _question(catalogue, turn.prompt, 0)
        messages = _plain(f"{notices}\n\n{question}" if notices else question)
        on_reply = reply_prompt_keyboard(catalogue, turn.prompt, map_url=map_url)
        messages[-1] = replace(messages[-1], markup=on_reply)
        return RenderedTurn(tuple(messages), len(messages) - 1, needed)
    else:
        keyboard = prompt_keyboard(catalogue, turn.prompt, session_id=session_id)
        question = _question(catalogue, turn.prompt, _first_page(turn.prompt))
        if keyboard is not None and needed != reply_keyboard:
            # The notices carry the reply keyboard's change: it cannot share the inline one's.
            messages = _plain(notices) + _plain(question)
        else:
            messages = _plain(f"{notices}\n\n{question}" if notices else question)
        messages[-1] = replace(messages[-1], markup=keyboard)
        prompt_index = len(messages) - 1
    if needed == reply_keyboard:
        return RenderedTurn(tuple(messages), prompt_index, needed)
    change: Markup = (
        share_keyboard(catalogue, needed, map_url=map_url) if needed else ReplyKeyboardRemove()
    )
    carrier = next((i for i in reversed(range(len(messages))) if messages[i].markup is None), None)
    if carrier is not None:
        messages[carrier] = replace(messages[carrier], markup=change)
    elif needed:
        messages.append(OutgoingMessage(escape(catalogue.say(SHARE_HINTS[needed])), change))
    elif prompt_index is not None:
        messages.insert(
            prompt_index,
            OutgoingMessage(escape(catalogue.say("telegram.keyboard_removed")), change),
        )
        prompt_index += 1
    else:  # nothing is sent at all, so nothing can take the keyboard away yet
        needed = reply_keyboard
    return RenderedTurn(tuple(messages), prompt_index, needed)


def render_prompt(
    catalogue: Catalogue, prompt: Prompt, *, page: int | None = None, session_id: str | None = None
) -> OutgoingMessage:
    """The prompt's own message at ``page`` (default: the page with the pre-selected option).

    For ``edit_message_text`` on the message ``render_turn`` sent (a page turn). IndexError for
    a page the prompt does not have.
    """
    shown = _first_page(prompt) if page is None else page
    if not 0 <= shown < page_count(prompt):
        raise IndexError(f"{prompt.step} has no page {shown}")
    text = split(_question(catalogue, prompt, shown))[-1]
    keyboard = prompt_keyboard(catalogue, prompt, page=shown, session_id=session_id)
    return OutgoingMessage(escape(text), keyboard)


def render_answered(
    catalogue: Catalogue, prompt: Prompt, answer: Answer | None = None
) -> OutgoingMessage:
    """The prompt's message once answered: its question, the tapped choice, no keyboard.

    Editing the old prompt into this keeps the chat readable and leaves no stale buttons.
    Answers the customer typed or shared are visible in the chat already, so only taps
    (a ``ChoiceAnswer`` or ``CommandAnswer``) are written under the question.
    """
    picked = _tapped_label(catalogue, prompt, answer)
    question = _said(catalogue, prompt.text)
    text = question if picked is None else f"{question}\n\n{DEFAULT_MARK}{picked}"
    return OutgoingMessage(escape(split(text)[-1]))


def prompt_keyboard(
    catalogue: Catalogue, prompt: Prompt, *, page: int | None = None, session_id: str | None = None
) -> InlineKeyboardMarkup | None:
    """The inline keyboard of ``prompt`` (None when it has neither options nor commands)."""
    shown = _first_page(prompt) if page is None else page
    start = shown * PAGE_SIZE if prompt.paged else 0
    stop = start + PAGE_SIZE if prompt.paged else len(prompt.options)
    rows: list[list[InlineKeyboardButton]] = [
        [InlineKeyboardButton(_option_label(prompt, i), callback_data=_data(prompt, i, session_id))]
        for i in range(start, min(stop, len(prompt.options)))
    ]
    if prompt.paged:
        pages: list[InlineKeyboardButton] = []
        if shown > 0:
            pages.append(_page_button(prompt, previous_page(catalogue), shown - 1, session_id))
        if shown + 1 < page_count(prompt):
            pages.append(_page_button(prompt, next_page(catalogue), shown + 1, session_id))
        rows.append(pages)
    commands = [
        InlineKeyboardButton(
            command_label(catalogue, name),
            callback_data=command_data(prompt, name, session_id=session_id),
        )
        for name in prompt.commands
    ]
    rows += [commands[i : i + COMMANDS_PER_ROW] for i in range(0, len(commands), COMMANDS_PER_ROW)]
    return InlineKeyboardMarkup(rows) if rows else None


def on_reply_keyboard(prompt: Prompt) -> bool:
    """Whether ``prompt`` is drawn on a reply keyboard: it asks for a location or a contact
    (only a reply keyboard has those buttons) and its options need no pages."""
    return not prompt.paged and bool(share_requests(prompt))


def reply_prompt_keyboard(
    catalogue: Catalogue, prompt: Prompt, *, map_url: str | None = None
) -> ReplyKeyboardMarkup:
    """The reply keyboard of a prompt ``on_reply_keyboard``: its share buttons, one per row
    (the map button first, with ``map_url``), then its options, one per row, then its
    commands."""
    rows = _share_rows(catalogue, share_requests(prompt), map_url)
    rows += [[KeyboardButton(_option_label(prompt, i))] for i in range(len(prompt.options))]
    commands = [KeyboardButton(command_label(catalogue, name)) for name in prompt.commands]
    rows += [commands[i : i + COMMANDS_PER_ROW] for i in range(0, len(commands), COMMANDS_PER_ROW)]
    return ReplyKeyboardMarkup(rows, resize_keyboard=True, one_time_keyboard=True)


def reply_answer(catalogue: Catalogue, prompt: Prompt | None, text: str) -> Answer | None:
    """The tap a reply-keyboard button stands for, when ``text`` is the label of one that
    ``prompt`` is drawn with (``reply_prompt_keyboard``); None for anything else, which is
    typed text. Like an inline tap, it names the prompt's step and version."""
    if prompt is None or not on_reply_keyboard(prompt):
        return None
    for index, option in enumerate(prompt.options):
        if text == _option_label(prompt, index):
            return ChoiceAnswer(option=option.id, step=prompt.step, version=prompt.version)
    for name in prompt.commands:
        if text == command_label(catalogue, name):
            return CommandAnswer(name=name, step=prompt.step, version=prompt.version)
    return None


def share_requests(prompt: Prompt | None) -> tuple[ShareRequest, ...]:
    """The reply-keyboard buttons ``prompt`` wants: location and/or contact, in that order."""
    if prompt is None:
        return ()
    return tuple(kind for kind in SHARE_BUTTON_TEXTS if kind in prompt.accepts)


def share_keyboard(
    catalogue: Catalogue, requests: Sequence[ShareRequest], *, map_url: str | None = None
) -> ReplyKeyboardMarkup:
    """A reply keyboard with one request button per row (and the map button, with
    ``map_url``, when a location is asked for)."""
    return ReplyKeyboardMarkup(
        _share_rows(catalogue, requests, map_url), resize_keyboard=True, one_time_keyboard=True
    )


def _share_rows(
    catalogue: Catalogue, requests: Sequence[ShareRequest], map_url: str | None
) -> list[list[KeyboardButton]]:
    rows = [[_share_button(catalogue, kind)] for kind in requests]
    if map_url is not None and "location" in requests:
        # A reply-keyboard button: the pick comes back as a web_app_data message (bot.webapp.picks).
        rows.insert(
            0, [KeyboardButton(catalogue.say("webapp.button"), web_app=WebAppInfo(map_url))]
        )
    return rows


def _said(catalogue: Catalogue, text: str) -> str:
    """The engine's ``text`` in Telegram's words: options and commands are tapped."""
    return for_channel(catalogue, text, BUTTONS)


def _plain(text: str) -> list[OutgoingMessage]:
    return [OutgoingMessage(escape(chunk)) for chunk in split(text)]


def _question(catalogue: Catalogue, prompt: Prompt, page: int) -> str:
    """The prompt's text at ``page``: the question, the shown options' details, the page."""
    start = page * PAGE_SIZE if prompt.paged else 0
    shown = prompt.options[start : start + PAGE_SIZE] if prompt.paged else prompt.options
    lines = [_said(catalogue, prompt.text)]
    details = [f"• {o.label}: {o.detail}" for o in shown if o.detail]
    if details:
        lines += ["", *details]
    if prompt.paged:
        lines += ["", f"Page {page + 1} of {page_count(prompt)}"]
    return "\n".join(lines).strip() or prompt.step


def _first_page(prompt: Prompt) -> int:
    ids = [option.id for option in prompt.options]
    if not prompt.paged or prompt.default not in ids:
        return 0
    return ids.index(prompt.default) // PAGE_SIZE


def _option_label(prompt: Prompt, index: int) -> str:
    option = prompt.options[index]
    mark = DEFAULT_MARK if option.id == prompt.default else ""
    return _cut(mark + option.label)


def _data(prompt: Prompt, index: int, session_id: str | None) -> str:
    return option_data(prompt, index, session_id=session_id)


def _page_button(
    prompt: Prompt, label: str, page: int, session_id: str | None
) -> InlineKeyboardButton:
    return InlineKeyboardButton(label, callback_data=page_data(prompt, page, session_id=session_id))


def _tapped_label(catalogue: Catalogue, prompt: Prompt, answer: Answer | None) -> str | None:
    if isinstance(answer, ChoiceAnswer):
        return next((o.label for o in prompt.options if o.id == answer.option), None)
    if isinstance(answer, CommandAnswer):
        return command_label(catalogue, answer.name)
    return None


def _cut(label: str) -> str:
    """The label within the limit; a saved place's unit at its end stays (``shorten``)."""
    return shorten(label, MAX_BUTTON_LABEL) or ELLIPSIS
