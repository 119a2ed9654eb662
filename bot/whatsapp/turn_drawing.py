"""A ``Turn`` drawn as WhatsApp messages (``Outgoing`` values), within the Cloud API's limits.

The turn's notices and its question go in as few messages as fit: one interactive message
when its body (at most 1024 characters) holds both, else the notices first as text. The
question's choices (its options, "Use my number" where a contact is asked, and its navigation
commands: back, skip, done) are drawn by how many there are:

* up to 3: reply buttons (titles at most 20 characters, shortened and kept unique);
* 4 to 10: one list (rows' titles at most 24 characters; the description, at most 72, carries
  the option's detail or the longer label);
* more (81 hostel rooms, many saved places): a page of the list at a time, with "More…" and
  "‹ Previous" rows that redraw the list at the next page, and the body saying the page and that
  an option's number, its name, or a room as it is written, may be typed instead.

A place question adds WhatsApp's location request message ("Send location"), and says an
address may be typed. The pre-selected option is marked "✓ " and, when the list is paged,
shown on the first page drawn. Where the engine's sentences ask to choose
(``conversations.texts.taps``), WhatsApp says "tap", like Telegram: its options are buttons.
Every id is made by ``reply_ids``, so a tap carries the question's step and version.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from bot.whatsapp.outgoing import (
    MAX_BUTTON_TITLE,
    MAX_BUTTONS,
    MAX_INTERACTIVE_BODY,
    MAX_LIST_ROWS,
    MAX_ROW_DESCRIPTION,
    MAX_ROW_TITLE,
    MAX_TEXT_LENGTH,
    ButtonsMessage,
    ListMessage,
    ListRow,
    ListSection,
    LocationRequest,
    Outgoing,
    ReplyButton,
    TextMessage,
)
from bot.whatsapp.reply_ids import (
    MENU_WORDS,
    command_id,
    menu_id,
    option_id,
    own_number_id,
    page_id,
)
from conversations import Prompt, Turn
from conversations.shortening import ELLIPSIS, cut_end, shorten
from conversations.texts.catalogue import Catalogue
from conversations.texts.taps import BUTTONS, for_channel

DEFAULT_MARK: Final = "✓ "
PAGE_ROWS: Final = 2  # "‹ Previous" and "More…"


@dataclass(frozen=True)
class Choice:
    """One tappable choice: the id it carries back, its label and an optional detail."""

    reply_id: str
    label: str
    detail: str = ""


def draw_turn(
    catalogue: Catalogue,
    turn: Turn,
    *,
    session_id: str | None,
    own_phone: str | None = None,
) -> list[Outgoing]:
    """The messages of ``turn``, said from ``catalogue`` (the customer's), its ids tagged with
    ``session_id`` (the order's); ``own_phone`` is the customer's number ("+234..."), offered
    as "Use my number" where a contact is asked."""
    notices = "\n\n".join(
        said(catalogue, text, turn.prompt).strip() for text in turn.messages if text.strip()
    )
    if turn.prompt is None:
        return [TextMessage(chunk) for chunk in split_text(notices)]
    return draw_prompt(
        catalogue, turn.prompt, session_id=session_id, own_phone=own_phone, notices=notices
    )


def draw_prompt(
    catalogue: Catalogue,
    prompt: Prompt,
    *,
    session_id: str | None,
    own_phone: str | None = None,
    page: int | None = None,
    notices: str = "",
) -> list[Outgoing]:
    """The question ``prompt`` at ``page`` of its list (default: the page with the
    pre-selected option), after ``notices``. IndexError for a page it does not have."""
    extras = _extras(catalogue, prompt, session_id, own_phone)
    pages = page_count(prompt, len(extras))
    shown = first_page(prompt, len(extras)) if page is None else page
    if not 0 <= shown < pages:
        raise IndexError(f"{prompt.step} has no page {shown}")
    choices = _choices(catalogue, prompt, session_id, extras, shown, pages)
    question = _question(catalogue, prompt, shown, pages, buttons=len(choices) <= MAX_BUTTONS)
    location = "location" in prompt.accepts
    if not choices and not location:
        whole = f"{notices}\n\n{question}" if notices else question
        return [TextMessage(chunk) for chunk in split_text(whole)]
    messages: list[Outgoing] = []
    body = f"{notices}\n\n{question}" if notices else question
    if len(body) > MAX_INTERACTIVE_BODY:
        messages += [TextMessage(chunk) for chunk in split_text(notices)] if notices else []
        body = question
    if len(body) > MAX_INTERACTIVE_BODY:
        messages += [TextMessage(chunk) for chunk in split_text(question)]
        body = catalogue.say("whatsapp.choose_below")
    if choices:
        messages.append(_interactive(catalogue, body, choices))
        if location:
            messages.append(LocationRequest(catalogue.say("whatsapp.send_location")))
    else:
        messages.append(LocationRequest(f"{body}\n\n{catalogue.say('whatsapp.send_location')}"))
    return messages


def draw_menu(catalogue: Catalogue) -> ListMessage:
    """The menu: the words a customer may type, and a list of the menu's rows to tap."""
    rows = [
        ListRow(menu_id(word), shorten(catalogue.say(f"whatsapp.menu.{word}"), MAX_ROW_TITLE))
        for word in MENU_WORDS
        if word != "menu"
    ]
    return ListMessage(
        body=_cut(catalogue.say("whatsapp.menu"), MAX_INTERACTIVE_BODY),
        button=_cut(catalogue.say("whatsapp.menu_button"), MAX_BUTTON_TITLE),
        sections=(ListSection("", rows),),
    )


def said(catalogue: Catalogue, text: str, prompt: Prompt | None = None) -> str:
    """The engine's ``text`` in WhatsApp's words: options and commands are tapped."""
    labels = [option.label for option in prompt.options] if prompt is not None else []
    return for_channel(catalogue, text, BUTTONS, labels)


def split_text(text: str, limit: int = MAX_TEXT_LENGTH) -> list[str]:
    """``text`` as messages of at most ``limit`` characters, cut between paragraphs or lines
    where it can be; nothing for blank text."""
    text = text.strip()
    chunks: list[str] = []
    while len(text) > limit:
        cut = max(text.rfind("\n\n", 0, limit), text.rfind("\n", 0, limit))
        cut = cut if cut > 0 else limit
        chunks.append(text[:cut].rstrip())
        text = text[cut:].strip()
    return [*chunks, text] if text else chunks


def page_count(prompt: Prompt, extras: int) -> int:
    """How many pages the list of ``prompt``'s options takes beside ``extras`` other rows."""
    if len(prompt.options) + extras <= MAX_LIST_ROWS:
        return 1
    per_page = page_size(extras)
    return -(-len(prompt.options) // per_page)


def page_size(extras: int) -> int:
    """Options on one page of a paged list that also has ``extras`` other rows."""
    return max(1, MAX_LIST_ROWS - extras - PAGE_ROWS)


def first_page(prompt: Prompt, extras: int) -> int:
    """The page drawn first: the one holding the pre-selected option (else the first)."""
    ids = [option.id for option in prompt.options]
    if page_count(prompt, extras) == 1 or prompt.default not in ids:
        return 0
    return ids.index(prompt.default) // page_size(extras)


def _extras(
    catalogue: Catalogue, prompt: Prompt, session_id: str | None, own_phone: str | None
) -> list[Choice]:
    """The choices beside the options: "Use my number" first, the commands after them."""
    extras: list[Choice] = []
    if own_phone and "contact" in prompt.accepts:
        label = catalogue.say("whatsapp.use_number", phone=own_phone)
        if len(label) > MAX_BUTTON_TITLE:  # a number cut short would read as another one
            label = catalogue.say("whatsapp.use_my_number")
        detail = catalogue.say("whatsapp.use_number_detail")
        extras.append(Choice(own_number_id(prompt, session_id), label, detail))
    extras += [
        Choice(command_id(prompt, name, session_id), catalogue.say(f"command.{name}"))
        for name in prompt.commands
    ]
    return extras


def _choices(
    catalogue: Catalogue,
    prompt: Prompt,
    session_id: str | None,
    extras: list[Choice],
    page: int,
    pages: int,
) -> list[Choice]:
    own = [extra for extra in extras if extra.reply_id.startswith("w1:me:")]
    commands = [extra for extra in extras if extra not in own]
    if pages == 1:
        shown = range(len(prompt.options))
    else:
        per_page = page_size(len(extras))
        shown = range(page * per_page, min((page + 1) * per_page, len(prompt.options)))
    numbered = pages > 1 and not prompt.numbers_are_values
    options = [_option(prompt, index, session_id, numbered=numbered) for index in shown]
    paging: list[Choice] = []
    if page > 0:
        paging.append(
            Choice(page_id(prompt, page - 1, session_id), catalogue.say("whatsapp.previous"))
        )
    if page + 1 < pages:
        first, last = shown.stop + 1, min(shown.stop + page_size(len(extras)), len(prompt.options))
        detail = catalogue.say(
            "whatsapp.more_detail", first=first, last=last, count=len(prompt.options)
        )
        more = catalogue.say("whatsapp.more")
        paging.append(Choice(page_id(prompt, page + 1, session_id), more, detail))
    return [*own, *options, *paging, *commands]


def _option(prompt: Prompt, index: int, session_id: str | None, *, numbered: bool) -> Choice:
    option = prompt.options[index]
    mark = DEFAULT_MARK if option.id == prompt.default else ""
    number = f"{index + 1}. " if numbered else ""
    return Choice(
        option_id(prompt, index, session_id), f"{mark}{number}{option.label}", option.detail or ""
    )


def _question(catalogue: Catalogue, prompt: Prompt, page: int, pages: int, *, buttons: bool) -> str:
    """The question's text, the shown options' details where buttons cannot carry them, and
    on a paged list the page and what may be typed instead."""
    lines = [said(catalogue, prompt.text, prompt)]
    if buttons:
        details = [f"• {o.label}: {o.detail}" for o in prompt.options if o.detail]
        if details:
            lines += ["", *details]
    if pages > 1:
        typed = "whatsapp.type_it" if prompt.numbers_are_values else "whatsapp.type_a_number"
        page_line = catalogue.say("whatsapp.page", page=page + 1, pages=pages)
        lines += ["", f"{page_line} {catalogue.say(typed)}"]
    return "\n".join(lines).strip() or prompt.step


def _interactive(catalogue: Catalogue, body: str, choices: Sequence[Choice]) -> Outgoing:
    if len(choices) <= MAX_BUTTONS:
        titles = unique_titles([choice.label for choice in choices], MAX_BUTTON_TITLE)
        buttons = [ReplyButton(c.reply_id, t) for c, t in zip(choices, titles, strict=True)]
        return ButtonsMessage(body, buttons)
    titles = unique_titles([choice.label for choice in choices], MAX_ROW_TITLE)
    rows = [
        ListRow(choice.reply_id, title, _description(choice, title))
        for choice, title in zip(choices, titles, strict=True)
    ]
    button = _cut(catalogue.say("whatsapp.list_button"), MAX_BUTTON_TITLE)
    return ListMessage(body, button, (ListSection("", rows),))


def _description(choice: Choice, title: str) -> str:
    """A row's description: the option's detail, and its whole label when the title is cut."""
    parts = [choice.label] if title != choice.label else []
    parts += [choice.detail] if choice.detail else []
    return shorten(" · ".join(parts), MAX_ROW_DESCRIPTION)


def unique_titles(labels: Sequence[str], limit: int) -> list[str]:
    """``labels`` within ``limit`` characters each (``shorten``: a unit at the end stays), and
    told apart where shortening made two alike: the later ones end with their position."""
    titles = [shorten(label, limit) or ELLIPSIS for label in labels]
    seen: set[str] = set()
    for index, title in enumerate(titles):
        if title in seen:
            suffix = f" {index + 1}"
            title = shorten(labels[index], limit - len(suffix)).rstrip() + suffix
        seen.add(title)
        titles[index] = title
    return titles


def _cut(text: str, limit: int) -> str:
    """``text`` (a business's override may be long) within ``limit``, its lines kept."""
    return cut_end(text, limit)
