"""``ConsoleChat``: one customer's chat in the terminal, over the shared ``ChatService`` and
``CustomerDesk``.

It reads a typed line (``parse_line``), hosts photo files in ``store.media``, hands the answer
to the chat service and draws the turn it gets back. ``status``, ``deliveries`` and
``cancel_delivery`` go to the desk, as Telegram's ``/status``, ``/deliveries`` and
``/cancel_delivery`` do, and so does a drop-off code link typed in (``/start otp_<token>``):
while the desk waits for the receiver's own contact, the next ``contact <phone>`` is taken as
the typist's own. ``/mydata`` and ``/forgetme`` are ``console_privacy``'s. Like the Telegram
adapter, it never decides what to ask or what to answer.
Each typed line is said from one catalogue, the business's in the typist's language, picked
when the line is read and passed to the parser, the drawing and the desks; the chat service
and the hand-off desk are given the typist's language code to pick the same one.
"""

from __future__ import annotations

from pathlib import Path

from bot.chat_ref import CONSOLE, ChatRef, UserRef
from bot.console.console_privacy import ConsolePrivacy
from bot.console.console_render import render_prompt, render_turn, said
from bot.console.console_screen import Screen
from bot.console.parse import (
    OpenHandoff,
    PhotoFiles,
    Unclear,
    parse_line,
)
from bot.console.photo_files import PhotoProblem, host_photos
from bot.handoff.bodies import text_body
from bot.handoff.desk import HandoffDesk
from bot.ordering import ChatService, CustomerDesk, HandoffReply
from bot.ordering.quote_desk import QuoteDesk
from bot.ordering.typed_requests import (
    AnswerQuote,
    AskPerson,
    AskStatus,
    CancelDelivery,
    DeskRequest,
    ListDeliveries,
    NewOrder,
    RepeatLast,
)
from conversations import (
    CommandAnswer,
    ContactAnswer,
    PhotosAnswer,
    Prompt,
    SessionStatus,
    TextAnswer,
    Turn,
)
from conversations.texts import dialogue
from conversations.texts.business_texts import BusinessTexts
from conversations.texts.catalogue import Catalogue
from conversations.texts.desk_texts import ChannelWords, other_pages
from conversations.texts.said import Words

CONSOLE_WORDS = ChannelWords(
    new="new",
    status="status",
    deliveries="deliveries",
    cancel_delivery="cancel_delivery",
    share_contact="console.share_contact",
    share_own_contact="console.share_contact",
)
"""How the texts name the console's commands (typed without a slash) and its contact line."""


class ConsoleChat:
    """The console's chat ``chat_id`` of user ``user_id``, drawn on ``screen``; the core knows
    them as ``chat`` and ``user`` (refs of the ``console`` channel).

    ``public_base_url`` is where the bot's web app serves hosted photos; relative photo paths
    are read from ``base_dir`` (default: the working directory). ``first_flow`` is the flow
    the first order starts in (the entry flow when None), as a deep link would choose.
    ``typed_places`` is said beside "type the address" (the demo: where its addresses are).
    ``texts`` are the business's (``BotCore.texts``) and ``language`` is the typist's language
    code (``fr``): what the bot says in this chat is in that shipped language, or in the
    business default. ``handoffs``: ``human`` asks for a
    person, and while one is awaited what is typed goes to them, not to the order.
    ``quotes`` answers ``quote keep|cancel <ref>`` (and tells operators the choice).
    """

    def __init__(
        self,
        chats: ChatService,
        desk: CustomerDesk,
        screen: Screen,
        *,
        texts: BusinessTexts,
        chat_id: int,
        user_id: int,
        public_base_url: str,
        base_dir: Path | None = None,
        first_flow: str | None = None,
        typed_places: Words | None = None,
        language: str | None = None,
        handoffs: HandoffDesk | None = None,
        quotes: QuoteDesk | None = None,
    ) -> None:
        self.handoffs = handoffs
        self.quotes = quotes
        self.chats = chats
        self.desk = desk
        self.screen = screen
        self.texts = texts
        self.chat = ChatRef(CONSOLE, chat_id)
        self.user = UserRef(CONSOLE, user_id)
        self.public_base_url = public_base_url
        self.base_dir = base_dir
        self.first_flow = first_flow
        self.typed_places = typed_places
        self.language = language
        self.prompt: Prompt | None = None
        self.status: SessionStatus | None = None
        # The desk asked for the typist's own contact (a drop-off code link was opened).
        self.own_contact_wanted = False
        self.privacy = ConsolePrivacy(chats.store, screen, self.user, self._forgotten)

    @property
    def catalogue(self) -> Catalogue:
        """What this chat is said from: the business's texts (as registered so far) in the
        typist's ``language``, or in the business default."""
        return self.texts.catalogue_for(self.language)

    async def open(self) -> None:
        """Show the open question again (after a restart), or start a new order."""
        catalogue, language = self.catalogue, self.language
        turn = await self.chats.resume(self.chat, self.user, language=language)
        if turn is None:
            flow = self.first_flow
            turn = await self.chats.start(self.chat, self.user, flow=flow, language=language)
        else:
            self.screen.write(said(catalogue.say("console.welcome_back")))
        self._show(catalogue, turn)

    async def send(self, line: str) -> None:
        """One typed line, answered on the screen, in the typist's ``language``."""
        catalogue, language = self.catalogue, self.language
        if await self.privacy.answer(catalogue, line):  # /mydata, /forgetme and its answer
            return
        parsed = parse_line(catalogue, line, self.prompt, base_dir=self.base_dir)
        if self.handoffs is not None and await self._to_person(catalogue, line, parsed):
            return
        if isinstance(parsed, AskPerson):  # no staff in this console
            self.screen.write(said(catalogue.say("human.unavailable")))
            return
        if parsed is None:
            if self.prompt is not None:
                # An empty line answers nothing: say so before asking again.
                self.screen.write(said(catalogue.say("dialogue.empty_answer")))
                drawn = render_prompt(catalogue, self.prompt, typed_places=self.typed_places)
                self.screen.write(drawn)
            return
        if isinstance(parsed, Unclear):
            self.screen.write(said(parsed.message))
            return
        if isinstance(parsed, NewOrder):
            if parsed.flow is not None and parsed.flow not in self.chats.engine.registry:
                if self.prompt is not None and self.prompt.input in ("text", "place"):
                    # "new shoes" typed where words are asked is an answer, not a flow's name.
                    typed = TextAnswer(text=line.strip())
                    turn = await self.chats.handle(self.chat, self.user, typed, language=language)
                    self._show(catalogue, turn)
                    return
                names = self.chats.engine.registry.names
                self.screen.write(said(dialogue.no_such_flow(catalogue, parsed.flow, names)))
                return
            # Over an open order whose answers would be lost, the turn asks first.
            flow = parsed.flow
            turn = await self.chats.new_order(self.chat, self.user, flow=flow, language=language)
            self._show(catalogue, turn)
            return
        if isinstance(parsed, RepeatLast):
            self._show(catalogue, await self.chats.repeat(self.chat, self.user, language=language))
            return
        if isinstance(parsed, AnswerQuote):
            await self.answer_quote(catalogue, parsed)
            return
        if isinstance(parsed, AskStatus | ListDeliveries | CancelDelivery):
            await self.ask_desk(catalogue, parsed)
            return
        if isinstance(parsed, OpenHandoff):
            opened = await self.desk.open_handoff(catalogue, self.chat, self.user, parsed.token)
            await self.hand_over(opened)
            return
        if isinstance(parsed, ContactAnswer):
            own = self.user if self.own_contact_wanted else None
            reply = await self.desk.share_contact(
                catalogue, self.chat, self.user, parsed.phone, contact_user=own
            )
            await self.hand_over(reply)
            if reply.answered:
                return
        if isinstance(parsed, PhotoFiles):
            try:
                urls = await host_photos(
                    catalogue,
                    parsed.paths,
                    self.chats.store,
                    chat=self.chat,
                    public_base_url=self.public_base_url,
                )
            except PhotoProblem as problem:
                refused = catalogue.say("console.photos_refused", problems=str(problem))
                self.screen.write(said(refused))
                return
            answer = PhotosAnswer(urls=urls)
            turn = await self.chats.handle(self.chat, self.user, answer, language=language)
            self._show(catalogue, turn)
            return
        turn = await self.chats.handle(self.chat, self.user, parsed, language=language)
        self._show(catalogue, turn)

    async def _to_person(self, catalogue: Catalogue, line: str, parsed: object) -> bool:
        """``human``, or a line typed while a person is awaited (to them); True if it was."""
        assert self.handoffs is not None
        chat = self.chat
        if isinstance(parsed, AskPerson):
            asked = await self.handoffs.ask(chat, self.user, name="Console", language=self.language)
            self.screen.write(said(asked.reply))
            return True
        handoff = await self.handoffs.waiting_for(chat)
        if handoff is None or not line.strip():
            return False
        told = await self.handoffs.from_customer(handoff, text_body(line.strip()))
        word = line.split(maxsplit=1)[0]
        if told is None and _moves_the_order(parsed):
            # As in Telegram: the order waits exactly as it is while a person answers.
            told = catalogue.say("human.order_waits", command=word)
        if told is not None:
            self.screen.write(said(told))
        return True

    async def ask_desk(self, catalogue: Catalogue, request: DeskRequest) -> None:
        """``status``, ``deliveries`` or ``cancel_delivery``, answered by the desk from
        ``catalogue`` (the typist's)."""
        if isinstance(request, AskStatus):
            reply = await self.desk.status(catalogue, self.user, request.ref)
            self.screen.write(said(reply.text))
        elif isinstance(request, ListDeliveries):
            page = await self.desk.deliveries(catalogue, self.user, request.page - 1)
            more = other_pages(catalogue, page.page, page.pages, self.desk.words)
            self.screen.write(said(page.text + (f"\n{more}" if more else "")))
        else:
            cancelled = await self.desk.cancel(catalogue, self.user, request.ref, request.reason)
            self.screen.write(said(cancelled.text))

    async def answer_quote(self, catalogue: Catalogue, request: AnswerQuote) -> None:
        """``quote keep|cancel <ref>``, answered by the quote desk (the desk's own
        ``QuoteDesk`` when the console was given none); a reference it does not know is
        said from ``catalogue`` (the typist's)."""
        quotes = self.quotes or QuoteDesk(self.desk)
        reply = await quotes.answer(catalogue, self.user, request.ref, request.choice)
        self.screen.write(said(reply.text))

    async def hand_over(self, reply: HandoffReply) -> None:
        """Show the hand-off's codes and its answer; each code shown is erased by the desk."""
        for code in reply.codes:
            self.screen.write(said(code.text))
            await self.desk.code_handed_over(self.chat, code)
        if reply.text is not None:
            self.screen.write(said(reply.text))
        self.own_contact_wanted = reply.wants_contact

    async def deliver_later(self, chat: ChatRef, turn: Turn) -> None:
        """A turn that happened without a typed line (the create re-sent after a rate limit)."""
        if chat == self.chat:
            self.show(turn)

    def show(self, turn: Turn) -> None:
        """Draw ``turn`` in the typist's language (a turn the hand-off desk or a re-sent
        create brings, between typed lines)."""
        self._show(self.catalogue, turn)

    def _show(self, catalogue: Catalogue, turn: Turn) -> None:
        self.screen.write(render_turn(catalogue, turn, typed_places=self.typed_places))
        if turn.prompt is not None or turn.finished:
            self.prompt = turn.prompt
        self.status = turn.status
        if turn.finished:
            self.screen.write([catalogue.say("console.order_again")])

    def _forgotten(self) -> None:
        """The customer was erased: the question shown belongs to an order that is gone."""
        self.prompt, self.status = None, None


def _moves_the_order(parsed: object) -> bool:
    """Whether a typed line would start, repeat or cancel the order (held while staff answer)."""
    if isinstance(parsed, NewOrder | RepeatLast):
        return True
    return isinstance(parsed, CommandAnswer) and parsed.name == "cancel"
