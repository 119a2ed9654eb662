"""``ConsoleChat``: one customer's chat in the terminal, over the shared ``ChatService`` and
``CustomerDesk``.

It reads a typed line (``parse_line``), hosts photo files in ``store.media``, hands the answer
to the chat service and draws the turn it gets back. ``status``, ``deliveries`` and
``cancel_delivery`` go to the desk, as Telegram's ``/status``, ``/deliveries`` and
``/cancel_delivery`` do, and so does a drop-off code link typed in (``/start otp_<token>``):
while the desk waits for the receiver's own contact, the next ``contact <phone>`` is taken as
the typist's own. Like the Telegram adapter, it never decides what to ask or what to answer.
"""

from __future__ import annotations

from pathlib import Path

from bot.chat_ref import CONSOLE, ChatRef, UserRef
from bot.console.console_render import render_prompt, render_turn, said
from bot.console.console_screen import Screen
from bot.console.parse import (
    AnswerQuote,
    AskPerson,
    AskStatus,
    CancelDelivery,
    DeskRequest,
    ListDeliveries,
    NewOrder,
    OpenHandoff,
    PhotoFiles,
    RepeatLast,
    Unclear,
    parse_line,
)
from bot.console.photo_files import PhotoProblem, host_photos
from bot.handoff.bodies import text_body
from bot.handoff.desk import HandoffDesk
from bot.ordering import ChatService, CustomerDesk, HandoffReply
from bot.ordering.quote_desk import QuoteDesk
from bot.turn_speech import current, say, speaking_language
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
    ``language`` is the typist's language code (``fr``): what the bot says in this chat is in
    that shipped language, or in the business default. ``handoffs``: ``human`` asks for a
    person, and while one is awaited what is typed goes to them, not to the order.
    ``quotes`` answers ``quote keep|cancel <ref>`` (and tells operators the choice).
    """

    def __init__(
        self,
        chats: ChatService,
        desk: CustomerDesk,
        screen: Screen,
        *,
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

    async def open(self) -> None:
        """Show the open question again (after a restart), or start a new order."""
        with speaking_language(self.language):
            await self._open()

    async def send(self, line: str) -> None:
        """One typed line, answered on the screen, in the typist's ``language``."""
        with speaking_language(self.language):
            await self._send(line)

    async def _open(self) -> None:
        turn = await self.chats.resume(self.chat, self.user)
        if turn is None:
            turn = await self.chats.start(self.chat, self.user, flow=self.first_flow)
        else:
            self.screen.write(said(say("console.welcome_back")))
        self.show(turn)

    async def _send(self, line: str) -> None:
        parsed = parse_line(line, self.prompt, base_dir=self.base_dir)
        if self.handoffs is not None and await self._to_person(line, parsed):
            return
        if isinstance(parsed, AskPerson):  # no staff in this console
            self.screen.write(said(say("human.unavailable")))
            return
        if parsed is None:
            if self.prompt is not None:
                # An empty line answers nothing: say so before asking again.
                self.screen.write(said(say("dialogue.empty_answer")))
                self.screen.write(render_prompt(self.prompt, typed_places=self.typed_places))
            return
        if isinstance(parsed, Unclear):
            self.screen.write(said(parsed.message))
            return
        if isinstance(parsed, NewOrder):
            if parsed.flow is not None and parsed.flow not in self.chats.engine.registry:
                if self.prompt is not None and self.prompt.input in ("text", "place"):
                    # "new shoes" typed where words are asked is an answer, not a flow's name.
                    typed = TextAnswer(text=line.strip())
                    self.show(await self.chats.handle(self.chat, self.user, typed))
                    return
                names = self.chats.engine.registry.names
                self.screen.write(said(dialogue.no_such_flow(current(), parsed.flow, names)))
                return
            # Over an open order whose answers would be lost, the turn asks first.
            self.show(await self.chats.new_order(self.chat, self.user, flow=parsed.flow))
            return
        if isinstance(parsed, RepeatLast):
            self.show(await self.chats.repeat(self.chat, self.user))
            return
        if isinstance(parsed, AnswerQuote):
            await self.answer_quote(parsed)
            return
        if isinstance(parsed, AskStatus | ListDeliveries | CancelDelivery):
            await self.ask_desk(parsed)
            return
        if isinstance(parsed, OpenHandoff):
            opened = await self.desk.open_handoff(current(), self.chat, self.user, parsed.token)
            await self.hand_over(opened)
            return
        if isinstance(parsed, ContactAnswer):
            own = self.user if self.own_contact_wanted else None
            reply = await self.desk.share_contact(
                current(), self.chat, self.user, parsed.phone, contact_user=own
            )
            await self.hand_over(reply)
            if reply.answered:
                return
        if isinstance(parsed, PhotoFiles):
            try:
                urls = await host_photos(
                    parsed.paths,
                    self.chats.store,
                    chat=self.chat,
                    public_base_url=self.public_base_url,
                )
            except PhotoProblem as problem:
                self.screen.write(said(say("console.photos_refused", problems=str(problem))))
                return
            answer = PhotosAnswer(urls=urls)
            self.show(await self.chats.handle(self.chat, self.user, answer))
            return
        self.show(await self.chats.handle(self.chat, self.user, parsed))

    async def _to_person(self, line: str, parsed: object) -> bool:
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
            told = say("human.order_waits", command=word)
        if told is not None:
            self.screen.write(said(told))
        return True

    async def ask_desk(self, request: DeskRequest) -> None:
        """``status``, ``deliveries`` or ``cancel_delivery``, answered by the desk."""
        if isinstance(request, AskStatus):
            reply = await self.desk.status(current(), self.user, request.ref)
            self.screen.write(said(reply.text))
        elif isinstance(request, ListDeliveries):
            page = await self.desk.deliveries(current(), self.user, request.page - 1)
            more = other_pages(current(), page.page, page.pages, self.desk.words)
            self.screen.write(said(page.text + (f"\n{more}" if more else "")))
        else:
            cancelled = await self.desk.cancel(current(), self.user, request.ref, request.reason)
            self.screen.write(said(cancelled.text))

    async def answer_quote(self, request: AnswerQuote) -> None:
        """``quote keep|cancel <ref>``, answered by the quote desk (the desk's own
        ``QuoteDesk`` when the console was given none)."""
        quotes = self.quotes or QuoteDesk(self.desk)
        reply = await quotes.answer(current(), self.user, request.ref, request.choice)
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
        self.screen.write(render_turn(turn, typed_places=self.typed_places))
        if turn.prompt is not None or turn.finished:
            self.prompt = turn.prompt
        self.status = turn.status
        if turn.finished:
            self.screen.write([say("console.order_again")])


def _moves_the_order(parsed: object) -> bool:
    """Whether a typed line would start, repeat or cancel the order (held while staff answer)."""
    if isinstance(parsed, NewOrder | RepeatLast):
        return True
    return isinstance(parsed, CommandAnswer) and parsed.name == "cancel"
