"""``WhatsAppNews``: the relay's ``Channel`` for WhatsApp chats, within the 24-hour window.

Inside the customer-service window (``CustomerWindows``) news goes as a plain message, and a
question with choices as reply buttons (``ask``, up to three, else the words to type). Outside
it, only an approved template may go: news goes through ``[whatsapp.templates.news]``
(``{{1}}`` the delivery's reference, ``{{2}}`` the news in one line) and a person's answer to a
hand-off through ``[whatsapp.templates.reply]`` (``{{1}}`` the answer in one line), each in the
customer's language when the template is approved in it, else in its first language.

The window may close between the check and Meta's answer: a refusal then (131047,
``sender.WindowClosed``) sends the template at once, and a message Meta accepted but reports
``failed`` with 131047 later is sent again as the template by ``statuses.StatusFollowUp``
(``resend``). Every message sent is recorded by its id (``store.whatsapp_sent``) with what
it was, so its status finds it.

The relay's text names the delivery it is about (its heading carries the short reference); the
customer's deliveries are looked up to find which, for the template's ``{{1}}`` and for the
language the customer ordered in. A message about none of them (a word from the operators)
goes as the reply template outside the window.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from bot.chat_ref import ChatRef
from bot.config.whatsapp_section import WhatsAppTemplate, WhatsAppTemplates
from bot.relay.asking import Asking, typed_text
from bot.store import Store
from bot.store.whatsapp_sent import SentRecord
from bot.whatsapp.contracts import CustomerWindows, OtpClaims, WhatsAppSend
from bot.whatsapp.outgoing import (
    MAX_BUTTON_TITLE,
    MAX_BUTTONS,
    MAX_INTERACTIVE_BODY,
    MAX_REPLY_ID,
    MAX_TEMPLATE_PARAMETER,
    MAX_TEXT_LENGTH,
    ButtonsMessage,
    Outgoing,
    ReplyButton,
    TemplateMessage,
    TextMessage,
)
from bot.whatsapp.pacing import WhatsAppPacing
from bot.whatsapp.sender import WindowClosed
from conversations.texts.deliveries_texts import short_ref

NEWS: Final = "news"
REPLY: Final = "reply"
TEMPLATE: Final = "template"
_LOOKED_UP: Final = 20  # the customer's latest deliveries a message may be about
_BLANKS: Final = re.compile(r"\s+")


@dataclass(frozen=True)
class About:
    """What a message is about: the delivery (``""``: none), and the customer's language."""

    delivery_id: str
    language: str | None


def one_line(text: str, limit: int = MAX_TEMPLATE_PARAMETER) -> str:
    """``text`` as a template parameter takes it: its lines joined, runs of blanks (newlines,
    tabs, four spaces) made one space, cut to ``limit`` characters with an ellipsis."""
    line = _BLANKS.sub(" ", text).strip()
    return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"


def template_language(template: WhatsAppTemplate, language: str | None) -> str:
    """The template's language for a customer reading ``language``: the same code, else the
    same language in another region (``en`` for ``en_GB``), else the template's first."""
    languages = template.languages
    if language:
        if language in languages:
            return language
        base = language.split("_")[0]
        for code in languages:
            if code.split("_")[0] == base:
                return code
    return languages[0]


def news_template(
    template: WhatsAppTemplate, language: str | None, delivery_id: str, text: str
) -> TemplateMessage:
    """``[whatsapp.templates.news]`` for ``text`` about ``delivery_id``: ``{{1}}`` its short
    reference, ``{{2}}`` the news in one line (its heading, which names the delivery, left out)."""
    ref = short_ref(delivery_id)
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) > 1 and ref in lines[0]:
        lines = lines[1:]
    body = one_line("\n".join(lines) or text)
    return TemplateMessage(template.name, template_language(template, language), (ref, body))


def reply_template(template: WhatsAppTemplate, language: str | None, text: str) -> TemplateMessage:
    """``[whatsapp.templates.reply]`` for ``text``: ``{{1}}`` the answer in one line."""
    return TemplateMessage(
        template.name, template_language(template, language), (one_line(text) or "…",)
    )


def text_pieces(text: str, limit: int = MAX_TEXT_LENGTH) -> list[str]:
    """``text`` in messages of at most ``limit`` characters, cut between lines where it can."""
    pieces: list[str] = []
    rest = text
    while len(rest) > limit:
        cut = rest.rfind("\n", 0, limit)
        cut = cut if cut > 0 else limit
        pieces.append(rest[:cut])
        rest = rest[cut:].lstrip("\n")
    if rest or not pieces:
        pieces.append(rest)
    return pieces


def _buttons(text: str, asking: Asking) -> ButtonsMessage | None:
    """``asking``'s choices as reply buttons under ``text``, when WhatsApp can draw them."""
    choices = asking.choices
    if not 1 <= len(choices) <= MAX_BUTTONS or len(text) > MAX_INTERACTIVE_BODY:
        return None
    if any(len(c.label) > MAX_BUTTON_TITLE or len(c.data) > MAX_REPLY_ID for c in choices):
        return None
    if len({c.label for c in choices}) != len(choices) or not text:
        return None
    return ButtonsMessage(text, [ReplyButton(c.data, c.label) for c in choices])


class WhatsAppNews:
    """The relay's ``Channel`` (also ``AskingChannel`` and ``PacedChannel``) for WhatsApp:
    ``WhatsAppNews(sender, windows, templates, store, otp, pacing)``; see the module
    docstring. ``reply`` sends a person's answer to a hand-off (the channel's hand-off side
    calls it), ``resend`` a message reported failed."""

    def __init__(
        self,
        sender: WhatsAppSend,
        windows: CustomerWindows,
        templates: WhatsAppTemplates,
        store: Store,
        otp: OtpClaims,
        pacing: WhatsAppPacing,
    ) -> None:
        self._sender = sender
        self._windows = windows
        self._templates = templates
        self._store = store
        self._otp = otp
        self._pacing = pacing

    # --- the relay's Channel -----------------------------------------------------------------

    async def send(self, chat: ChatRef, text: str) -> int | None:
        """Send the relay's ``text`` to ``chat``: plainly inside the window, as the news
        template outside it. WhatsApp's ids are not numbers: None."""
        about = await self.about(chat, text)
        await self._deliver(chat, text, about, [TextMessage(piece) for piece in text_pieces(text)])
        return None

    async def ask(self, chat: ChatRef, text: str, asking: Asking) -> int | None:
        """``text`` with ``asking``'s choices as reply buttons (more than three, or too long
        for a button: the words to type), or the template outside the window."""
        about = await self.about(chat, text)
        drawn = _buttons(text, asking)
        typed = typed_text(text, asking)
        plain: list[Outgoing] = [TextMessage(p) for p in text_pieces(typed)]
        await self._deliver(chat, typed, about, [drawn] if drawn is not None else plain)
        return None

    def otp_link(self, token: str) -> str:
        """The ``wa.me`` link a receiver opens to claim a drop-off code (``OtpClaims.link``)."""
        return self._otp.link(token)

    def send_delay(self, chat: ChatRef) -> float:
        """Seconds a message to ``chat`` would wait for WhatsApp's limits if sent now."""
        return self._pacing.send_delay(chat)

    # --- a person's answer, and the follow-up of a failed message ---------------------------

    async def reply(self, chat: ChatRef, text: str, *, language: str | None = None) -> str:
        """A person's answer to a hand-off: plainly inside the window, the reply template
        outside it (in ``language``, else the one the customer last ordered in); the id of the
        last message sent."""
        if language is None:
            language = (await self.about(chat, "")).language
        return await self._deliver(
            chat, text, About("", language), [TextMessage(p) for p in text_pieces(text)]
        )

    async def resend(self, record: SentRecord, *, as_template: bool) -> str | None:
        """Send a message reported failed again (its text kept in ``record``): as the
        template (``as_template``: the window had closed) or as it was, counted one attempt
        more; None when its text is gone."""
        if record.body is None:
            return None
        chat = ChatRef("whatsapp", record.wa_id)
        about = await self._about_delivery(chat, record.reference)
        if as_template:
            return await self._template(chat, record.body, about, attempts=record.attempts + 1)
        return await self._deliver(
            chat,
            record.body,
            about,
            [TextMessage(p) for p in text_pieces(record.body)],
            attempts=record.attempts + 1,
        )

    async def about(self, chat: ChatRef, text: str) -> About:
        """The customer's delivery ``text`` names (by its short reference), and the language
        the customer ordered in (their latest delivery's when none is named)."""
        links = await self._store.deliveries.for_user(chat.user(chat.id), _LOOKED_UP)
        for link in links:
            if short_ref(link.delivery_id) in text or link.delivery_id in text:
                return About(link.delivery_id, link.language)
        return About("", links[0].language if links else None)

    # --- sending -----------------------------------------------------------------------------

    async def _deliver(
        self,
        chat: ChatRef,
        text: str,
        about: About,
        messages: Sequence[Outgoing],
        *,
        attempts: int = 1,
    ) -> str:
        """``messages`` inside the window, else (or when Meta says it closed) the template
        for ``text``; each recorded. The last message's id."""
        if not await self._windows.is_open(chat):
            return await self._template(chat, text, about, attempts=attempts)
        kind = NEWS if about.delivery_id else REPLY
        message_id = ""
        for number, message in enumerate(messages):
            try:
                message_id = await self._sender.send(chat, message)
            except WindowClosed:
                # Closed since the check (a part may have gone: the template says it whole).
                return await self._template(chat, text, about, attempts=attempts)
            await self._store.whatsapp_sent.record(
                message_id,
                chat.id,
                kind=kind,
                reference=about.delivery_id,
                # The last part carries the whole text, should it have to go again.
                body=text if number == len(messages) - 1 else None,
                attempts=attempts,
            )
        return message_id

    async def _template(self, chat: ChatRef, text: str, about: About, *, attempts: int) -> str:
        if about.delivery_id:
            message = news_template(self._templates.news, about.language, about.delivery_id, text)
        else:
            message = reply_template(self._templates.reply, about.language, text)
        message_id = await self._sender.send(chat, message)
        await self._store.whatsapp_sent.record(
            message_id, chat.id, kind=TEMPLATE, reference=about.delivery_id, attempts=attempts
        )
        return message_id

    async def _about_delivery(self, chat: ChatRef, delivery_id: str) -> About:
        if delivery_id:
            link = await self._store.deliveries.get(delivery_id)
            if link is not None:
                return About(delivery_id, link.language)
        return await self.about(chat, "")
