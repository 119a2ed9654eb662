"""The customer's conversation on WhatsApp: a stored message in, the engine's turn drawn back.

``WhatsAppConversation.handle`` is the channel's ``InboundHandler``: the inbox handling calls it
holding the chat's lock, one message at a time in the order they were stored. It turns what
the customer sent into one ``Answer`` (a tap through ``reply_ids``, typed words through
``words``, a pin, a contact card, a photo re-hosted through ``media``), hands it to the shared
``ChatService`` (blocks, the per-customer limits and the funnel apply there, as for every
channel) and draws the turn it returns (``turn_drawing``), sent through ``WhatsAppSend``. It
never decides what to ask. The words that are not answers go where they go on Telegram: the
customer desk (status, deliveries, cancel a delivery), the quote desk (the fee question),
``bot.handoff`` ("human"), and the menu, which stands for Telegram's command menu. "my data"
and "forget me" go to ``privacy_requests`` before anything else, a hand-off waiting or not.

A chat's open question is remembered in memory (``_View``: the question, its order's session
id and the page of its list shown), read again from the saved session when this process has
not drawn it or another process has moved the order on, as Telegram's ``ChatScreen`` does.
WhatsApp tells no language, so a chat is said in the business's default language (or the one
the conversation is given).

While a hand-off waits for a person, what the customer sends goes to staff instead of the order
(and "new", "repeat" or "cancel" is held, the customer told the order waits), as on Telegram.
``WhatsAppCustomers`` is the hand-off's side of WhatsApp customers: staff's answers, and the
order shown again when the hand-off closes.

A send that WhatsApp refuses for good (``ChatUnreachable``) ends the reply quietly; one to try
again later (``SendFailed``: Meta's limits held it past the sender's retries, the Cloud API not
reached) is raised. The inbox logs it and does not handle the message again: the turn is
saved, and handling it again would read the message as the answer to the next question. The
customer's answer is kept but that reply is not sent again: they see the open question once
they ask for it ("help") or their next message does not answer it.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from dataclasses import dataclass

from bot.chat_ref import WHATSAPP, ChatRef, UserRef
from bot.handoff.bodies import (
    LOCATION,
    PHOTO,
    Body,
    coordinates,
    kind_of,
    location_body,
    photo_body,
    text_body,
    text_of,
)
from bot.handoff.desk import HandoffDesk
from bot.ordering import ChatService, CustomerDesk
from bot.ordering.chats import no_open_order
from bot.ordering.quote_desk import QuoteDesk
from bot.ordering.typed_requests import (
    AnswerQuote,
    AskPerson,
    AskStatus,
    CancelDelivery,
    ListDeliveries,
    NewOrder,
    RepeatLast,
)
from bot.relay.channel_protocol import ChatUnreachable
from bot.store.blocked import BlockedChats
from bot.whatsapp.contracts import CustomerWindows, OtpClaims, StaffReplies, WhatsAppSend
from bot.whatsapp.inbound import (
    ButtonReply,
    Image,
    InboundMessage,
    ListReply,
    Location,
    SharedContact,
    Text,
    Unsupported,
)
from bot.whatsapp.media import PhotoRefused, WhatsAppMedia
from bot.whatsapp.outgoing import ButtonsMessage, Outgoing, ReplyButton
from bot.whatsapp.privacy_requests import WhatsAppPrivacy, read_asked
from bot.whatsapp.reply_ids import (
    MenuWord,
    OwnNumber,
    PageTurn,
    StaleTap,
    TypedId,
    menu_id,
    read_tap,
)
from bot.whatsapp.reply_sending import say_text, send_reply
from bot.whatsapp.turn_drawing import (
    draw_menu,
    draw_prompt,
    draw_turn,
    first_page,
)
from bot.whatsapp.words import (
    Said,
    ShowMenu,
    read_words,
)
from conversations import (
    Answer,
    CommandAnswer,
    ContactAnswer,
    LocationAnswer,
    PhotosAnswer,
    Prompt,
    Turn,
)
from conversations.shortening import cut_end
from conversations.texts.catalogue import Catalogue
from conversations.texts.desk_texts import ChannelWords, other_pages

log = logging.getLogger(__name__)

WHATSAPP_WORDS = ChannelWords(
    new="new",
    status="status",
    deliveries="deliveries",
    cancel_delivery="cancel_delivery",
    share_contact="whatsapp.share_contact",
    share_own_contact="whatsapp.share_own_contact",
)
"""How the texts name WhatsApp's commands (typed words, no slash) and its contact share: the
words to give ``CoreServices.desk`` and ``CoreServices.quotes`` for this channel."""

OFFER_AFTER_FAILURES = 2  # wrong answers at one question before a person is offered
MAX_VIEWS = 10_000  # chats whose open question is remembered; older ones are read again


@dataclass
class _View:
    """What a chat shows: its order's session id, its open question, the page of its list."""

    session_id: str | None
    prompt: Prompt | None
    page: int = 0


class WhatsAppConversation:
    """WhatsApp's customers over the core: ``handle`` answers each message (see the module).

    ``chats`` is the core's chat service; ``desk`` and ``quotes`` the core's customer desk and
    quote desk made with ``WHATSAPP_WORDS`` (``core.desk(WHATSAPP_WORDS)``,
    ``core.quotes(WHATSAPP_WORDS)``); ``send`` the paced sender; ``media`` takes photos;
    ``windows`` hears each message (the customer-service window reopens); ``handoffs`` is the
    core's hand-off desk (None: "human" says nobody can be reached); ``otp`` answers a
    receiver's drop-off code claim before anything else; ``language`` is the language code the
    chats are said in (None: the business's default); ``blocked`` is the store's chats that
    could not be messaged (a customer who writes again can be: they are cleared from it);
    ``privacy`` answers "my data" and "forget me" (by default over the chat service's store,
    sent through ``send``).
    """

    def __init__(
        self,
        chats: ChatService,
        desk: CustomerDesk,
        send: WhatsAppSend,
        media: WhatsAppMedia,
        windows: CustomerWindows,
        *,
        quotes: QuoteDesk | None = None,
        handoffs: HandoffDesk | None = None,
        otp: OtpClaims | None = None,
        language: str | None = None,
        blocked: BlockedChats | None = None,
        privacy: WhatsAppPrivacy | None = None,
    ) -> None:
        self.chats = chats
        self.desk = desk
        self.quotes = quotes or QuoteDesk(desk)
        self.send = send
        self.media = media
        self.windows = windows
        self.handoffs = handoffs
        self.otp = otp
        self.language = language
        self.blocked = blocked
        self.privacy = privacy or WhatsAppPrivacy(chats.store, send)
        self._views: OrderedDict[ChatRef, _View] = OrderedDict()

    @property
    def catalogue(self) -> Catalogue:
        """What the chats are said from: the business's texts in ``language``."""
        return self.desk.texts.catalogue_for(self.language)

    def customers(self, replies: StaffReplies) -> WhatsAppCustomers:
        """The hand-off's side of WhatsApp customers (``HandoffDesk.serve("whatsapp", ...)``),
        staff's answers sent through ``replies``."""
        return WhatsAppCustomers(self, replies)

    # --- a message in -----------------------------------------------------------------------

    async def handle(self, message: InboundMessage) -> None:
        """Take ``message`` to the core and answer it (``InboundHandler``)."""
        if not message.wa_id.isdigit():
            log.warning("a message from a sender that is no number was dropped")
            return
        chat = ChatRef(WHATSAPP, int(message.wa_id))
        user = chat.user(int(message.wa_id))
        await self.windows.customer_wrote(chat, float(message.timestamp))
        # Only the customer's own message proves their number can be messaged again (the news
        # to a number Meta called unreachable, 131026, stopped until then).
        if self.blocked is not None and await self.blocked.clear(chat):
            log.info("chat %s writes again; no longer marked blocked", chat.for_log)
        if self.otp is not None and await self.otp.claim(message):
            return
        catalogue = self.catalogue
        content = message.content
        if isinstance(content, Unsupported):
            await self._say(chat, catalogue.say("whatsapp.unsupported"))
            return
        asked = read_asked(catalogue, content)
        if asked is not None:  # the customer's right, whatever the chat waits for
            await self.privacy.answer(chat, user, catalogue, asked, forget_view=self._forget)
            return
        if await self._to_person(chat, catalogue, message):
            return
        view = await self._view(chat, user)
        meant = await self._meaning(chat, catalogue, message, view)
        if meant is None:
            return
        await self._act(chat, user, catalogue, message, meant)

    async def _meaning(
        self, chat: ChatRef, catalogue: Catalogue, message: InboundMessage, view: _View
    ) -> Said | Answer | None:
        """What the message says at the chat's open question; None when it is answered here
        already (a page turned, a photo refused)."""
        content, prompt = message.content, view.prompt
        if isinstance(content, Text):
            return read_words(catalogue, content.body, prompt)
        if isinstance(content, ButtonReply | ListReply):
            tapped = read_tap(content.reply_id, prompt, view.session_id)
            if isinstance(tapped, TypedId):
                return read_words(catalogue, tapped.words, prompt)
            if isinstance(tapped, PageTurn):
                assert prompt is not None  # a page turn is read only against an open question
                view.page = tapped.page
                own = _own_phone(message)
                drawn = draw_prompt(
                    catalogue, prompt, session_id=view.session_id, own_phone=own, page=tapped.page
                )
                await self._send_all(chat, drawn)
                return None
            if isinstance(tapped, OwnNumber):
                assert prompt is not None
                return ContactAnswer(
                    phone=f"+{message.wa_id}",
                    first_name=message.profile_name,
                    user_id=int(message.wa_id),
                    step=prompt.step,
                    version=prompt.version,
                )
            if isinstance(tapped, MenuWord):
                return _MENU[tapped.word]
            if isinstance(tapped, StaleTap):
                return tapped.answer
            return tapped
        if isinstance(content, Location):
            address = _place_name(content.name, content.address)
            return LocationAnswer(
                lat=content.latitude, lng=content.longitude, address=address or None
            )
        if isinstance(content, SharedContact):
            contact = _contact_answer(message, content)
            if contact is None:  # a card without a number answers nothing
                await self._say(chat, catalogue.say("whatsapp.unsupported"))
            return contact
        if isinstance(content, Image):
            return await self._photo(chat, catalogue, content, prompt)
        return None

    async def _photo(
        self, chat: ChatRef, catalogue: Catalogue, image: Image, prompt: Prompt | None
    ) -> PhotosAnswer | None:
        if prompt is None:
            return PhotosAnswer(urls=[])  # nothing to download for: the engine says no order
        # At any question of an open order: the photo step is answered by it, and a photo
        # sent after that step is added to it (or the engine says what it wants).
        have = prompt.photos.have if prompt.photos is not None else 0
        received = await self.media.receive(image, chat=chat, already=have)
        if isinstance(received, PhotoRefused):
            await self._say(chat, received.said(catalogue))
            return None
        return PhotosAnswer(urls=[received.url])

    async def _act(
        self,
        chat: ChatRef,
        user: UserRef,
        catalogue: Catalogue,
        message: InboundMessage,
        meant: Said | Answer,
    ) -> None:
        language = self.language
        if isinstance(meant, ShowMenu):
            await self._send_all(chat, [draw_menu(catalogue)])
        elif isinstance(meant, NewOrder):
            turn = await self.chats.new_order(chat, user, language=language)
            await self._show(chat, catalogue, turn, message.wa_id)
        elif isinstance(meant, RepeatLast):
            turn = await self.chats.repeat(chat, user, language=language)
            await self._show(chat, catalogue, turn, message.wa_id)
        elif isinstance(meant, AskPerson):
            await self._ask_person(chat, user, catalogue, message.profile_name)
        elif isinstance(meant, AskStatus):
            reply = await self.desk.status(catalogue, user, meant.ref)
            await self._say(chat, reply.text)
        elif isinstance(meant, ListDeliveries):
            page = await self.desk.deliveries(catalogue, user, meant.page - 1)
            more = other_pages(catalogue, page.page, page.pages, self.desk.words)
            await self._say(chat, page.text + (f"\n{more}" if more else ""))
        elif isinstance(meant, CancelDelivery):
            cancelled = await self.desk.cancel(catalogue, user, meant.ref, meant.reason)
            await self._say(chat, cancelled.text)
        elif isinstance(meant, AnswerQuote):
            answered = await self.quotes.answer(catalogue, user, meant.ref, meant.choice)
            await self._say(chat, answered.text)
        else:
            await self._answer(chat, user, catalogue, message, meant)

    async def _answer(
        self,
        chat: ChatRef,
        user: UserRef,
        catalogue: Catalogue,
        message: InboundMessage,
        answer: Answer,
    ) -> None:
        before = self._views[chat].prompt if chat in self._views else None
        turn = await self.chats.handle(chat, user, answer, language=self.language)
        if turn == no_open_order(catalogue):
            # The engine's "has ended" reads oddly to someone just saying hello, which is how
            # a WhatsApp chat begins: a new order, or the menu, one tap away.
            self._forget(chat)
            hello = ButtonsMessage(
                catalogue.say("whatsapp.no_order"),
                [
                    ReplyButton(menu_id("new"), catalogue.say("whatsapp.menu.new")),
                    ReplyButton(menu_id("menu"), catalogue.say("whatsapp.menu_button")),
                ],
            )
            await self._send_all(chat, [hello])
            return
        await self._show(chat, catalogue, turn, message.wa_id)
        if isinstance(answer, CommandAnswer) and answer.name == "help":
            await self._send_all(chat, [draw_menu(catalogue)])
        elif self.handoffs is not None and _stuck(before, turn):
            offer = ButtonsMessage(
                catalogue.say("human.offer"),
                [ReplyButton(menu_id("human"), catalogue.say("whatsapp.human_button"))],
            )
            await self._send_all(chat, [offer])

    # --- a person -----------------------------------------------------------------------------

    async def _ask_person(
        self, chat: ChatRef, user: UserRef, catalogue: Catalogue, name: str
    ) -> None:
        if self.handoffs is None:
            await self._say(chat, catalogue.say("human.unavailable"))
            return
        asked = await self.handoffs.ask(chat, user, name=name, language=self.language)
        await self._say(chat, asked.reply)

    async def _to_person(
        self, chat: ChatRef, catalogue: Catalogue, message: InboundMessage
    ) -> bool:
        """Pass the message to staff when the chat waits for a person; True when it did (the
        order does not see it)."""
        if self.handoffs is None:
            return False
        handoff = await self.handoffs.waiting_for(chat)
        if handoff is None:
            return False
        content = message.content
        said = None
        if isinstance(content, Text):
            said = read_words(catalogue, content.body, None)
        elif isinstance(content, ButtonReply | ListReply):
            tapped = read_tap(content.reply_id, None, None)
            said = _MENU.get(tapped.word) if isinstance(tapped, MenuWord) else None
        if isinstance(said, AskPerson):
            await self._say(chat, catalogue.say("human.waiting"))
            return True
        body = await self._body(chat, content)
        if body is None:
            return True  # a contact card: neither for staff nor for the order now
        told = await self.handoffs.from_customer(handoff, body)
        if told is None and _moves_the_order(said):
            # The order waits exactly as staff see it while a person answers.
            told = catalogue.say("human.order_waits", command=text_of(body))
        if told is not None:
            await self._say(chat, told)
        return True

    async def _body(self, chat: ChatRef, content: object) -> Body | None:
        """What a message passes through a hand-off: its text (a tap's title), its location,
        or its photo, re-hosted (staff's Telegram takes the URL); None for anything else."""
        if isinstance(content, Text):
            return text_body(content.body)
        if isinstance(content, ButtonReply | ListReply):
            return text_body(content.title)
        if isinstance(content, Location):
            return location_body(content.latitude, content.longitude)
        if isinstance(content, Image):
            received = await self.media.receive(content, chat=chat, already=0)
            if isinstance(received, PhotoRefused):
                return text_body(content.caption) if content.caption else None
            return photo_body(received.url, content.caption or None)
        return None

    # --- turns out ----------------------------------------------------------------------------

    async def deliver_later(self, chat: ChatRef, turn: Turn) -> None:
        """Show a turn that happened without a message (a create re-sent after a rate limit),
        as ``ChannelRegistration.deliver_later``."""
        await self.show(chat, turn, language=self.language)

    async def show(self, chat: ChatRef, turn: Turn, *, language: str | None) -> None:
        """Show ``turn`` in ``chat`` in ``language``'s words (a hand-off closed, staff's
        answer taken: the order's question again)."""
        catalogue = self.desk.texts.catalogue_for(language)
        await self._show(chat, catalogue, turn, str(chat.id))

    async def _show(self, chat: ChatRef, catalogue: Catalogue, turn: Turn, wa_id: str) -> None:
        session = await self.chats.session(chat) if turn.prompt is not None else None
        session_id = session.id if session is not None else None
        own_phone = f"+{wa_id}"
        drawn = draw_turn(catalogue, turn, session_id=session_id, own_phone=own_phone)
        if turn.prompt is not None:
            extras = _extras_count(turn.prompt, own_phone)
            self._remember(chat, _View(session_id, turn.prompt, first_page(turn.prompt, extras)))
        elif turn.finished:
            self._forget(chat)
        await self._send_all(chat, drawn)

    async def _view(self, chat: ChatRef, user: UserRef) -> _View:
        """The chat's open question: remembered, or read again from its saved session when
        this process has not drawn it or the order moved on elsewhere."""
        session = await self.chats.session(chat)
        if session is None:
            self._forget(chat)
            return _View(None, None)
        view = self._views.get(chat)
        if (
            view is not None
            and view.session_id == session.id
            and view.prompt is not None
            and view.prompt.version == session.prompt_version
        ):
            self._views.move_to_end(chat)
            return view
        turn = await self.chats.resume(chat, user, language=self.language)
        if turn is None or turn.prompt is None:
            return _View(session.id, None)
        if turn.messages:  # the order form changed meanwhile: say so first
            await self._show(chat, self.catalogue, turn, str(chat.id))
            return self._views.get(chat) or _View(session.id, turn.prompt)
        extras = _extras_count(turn.prompt, f"+{chat.id}")
        view = _View(session.id, turn.prompt, first_page(turn.prompt, extras))
        self._remember(chat, view)
        return view

    def _remember(self, chat: ChatRef, view: _View) -> None:
        self._views[chat] = view
        self._views.move_to_end(chat)
        while len(self._views) > MAX_VIEWS:
            self._views.popitem(last=False)

    def _forget(self, chat: ChatRef) -> None:
        self._views.pop(chat, None)

    async def _say(self, chat: ChatRef, text: str) -> None:
        await say_text(self.send, chat, text)

    async def _send_all(self, chat: ChatRef, messages: list[Outgoing]) -> None:
        await send_reply(self.send, chat, messages)


class WhatsAppCustomers:
    """WhatsApp customers as the hand-off desk reaches them (``bot.handoff.sides``'s
    ``CustomerSide``): staff's words through ``replies`` (plainly inside the window, the reply
    template outside it, so an answer given the next day still arrives), a shared place as a
    map link, a photo as its caption (WhatsApp cannot show staff's Telegram photo)."""

    def __init__(self, conversation: WhatsAppConversation, replies: StaffReplies) -> None:
        self._conversation = conversation
        self._replies = replies

    async def send(self, chat: ChatRef, body: Body) -> bool:
        """Send ``body`` to the customer; False for a number that cannot be messaged.
        ``SendFailed`` (try again later) is raised."""
        catalogue = self._conversation.catalogue
        if kind_of(body) == PHOTO:
            text = catalogue.say("whatsapp.staff_photo", caption=text_of(body)).strip()
        elif kind_of(body) == LOCATION:
            lat, lng = coordinates(body)
            link = f"https://maps.google.com/?q={lat:.6f},{lng:.6f}"
            text = catalogue.say("whatsapp.staff_location", link=link)
        else:
            text = text_of(body)
        try:
            await self._replies.reply(chat, text, language=self._conversation.language)
        except ChatUnreachable:
            return False
        return True

    async def show(self, chat: ChatRef, turn: Turn, *, language: str | None) -> None:
        """Show the turn in the customer's chat, as the conversation draws it, in
        ``language``'s words (the hand-off's)."""
        await self._conversation.show(chat, turn, language=language)

    async def answered(self, chat: ChatRef, turn: Turn) -> None:
        """Nothing now: the chat shows its order again, at the question after staff's
        answer, when the hand-off closes."""


_MENU: dict[str, Said] = {
    "new": NewOrder(),
    "repeat": RepeatLast(),
    "status": AskStatus(),
    "deliveries": ListDeliveries(),
    "cancel_delivery": CancelDelivery("", ""),
    "human": AskPerson(),
    "menu": ShowMenu(),
}


def _moves_the_order(said: Said | None) -> bool:
    """Whether ``said`` would start, repeat or cancel the order (held while staff answer)."""
    if isinstance(said, NewOrder | RepeatLast):
        return True
    return isinstance(said, CommandAnswer) and said.name == "cancel"


def _own_phone(message: InboundMessage) -> str:
    return f"+{message.wa_id}"


def _extras_count(prompt: Prompt, own_phone: str | None) -> int:
    """The rows beside the options ``turn_drawing`` draws for ``prompt``."""
    return len(prompt.commands) + (1 if own_phone and "contact" in prompt.accepts else 0)


def _contact_answer(message: InboundMessage, card: SharedContact) -> ContactAnswer | None:
    """A shared contact card as an answer: its first number; the customer's own card (its
    WhatsApp id is the sender's) proves the sender's phone, like "Use my number"."""
    if not card.phones:
        return None
    first, _, last = card.name.strip().partition(" ")
    own = message.wa_id in card.wa_ids
    return ContactAnswer(
        phone=card.phones[0],
        first_name=cut_end(first, 64),
        last_name=cut_end(last.strip(), 64),
        user_id=int(message.wa_id) if own else None,
    )


def _place_name(name: str, address: str) -> str:
    """A shared place as one address line: its name first when the address does not say it."""
    name, address = " ".join(name.split()), " ".join(address.split())
    if not name or name.casefold() in address.casefold():
        return address
    return f"{name}, {address}" if address else name


def _stuck(before: Prompt | None, turn: Turn) -> bool:
    """Whether ``turn`` asks ``before``'s question again, with a reason, after at least
    ``OFFER_AFTER_FAILURES`` wrong answers to it in a row."""
    return (
        before is not None
        and turn.prompt is not None
        and turn.prompt.step == before.step
        and bool(turn.messages)
        and turn.failures >= OFFER_AFTER_FAILURES
    )
