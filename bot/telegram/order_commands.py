"""``OrderCommands``: the customer's order commands in Telegram.

``/start`` (a deep link's hand-off or flow, the open order again, or a new order), ``/new``,
``/repeat``, a flow's own command, ``/cancel``, ``/help``, and an order command said in a group.
Each hands its turn to the shared ``ChatService`` and has it drawn by the chat's ``ChatScreen``;
``/help`` at an open question is an answer to it, taken by the conversation (``answer``), and a
plain sentence goes out as the conversation says one (``say``). Each command is said in the
language of its sender's client (``language_of``): the chat service's turn, and Telegram's own
words from that language's catalogue in the business's texts.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable, Sequence

from telegram import BotCommand, Update
from telegram.ext import CommandHandler, ContextTypes, filters

from bot.safety.customer_blocking import blocked_turn
from bot.telegram import otp_receiver as otp
from bot.telegram.application import Handler
from bot.telegram.bot_context import BotContext
from bot.telegram.chat_screen import ChatScreen
from bot.telegram.command_menus import flow_commands
from bot.telegram.human_request import CommandCallback, HumanRequests
from bot.telegram.received_update import language_of
from bot.telegram.refs import telegram_chat, telegram_user, update_ids
from conversations import Answer, CommandAnswer
from conversations.keywords import command_words

Context = ContextTypes.DEFAULT_TYPE
#: The conversation's answer to the chat's order (``Conversation._answer``), its turn drawn:
#: chat id, user id, the answer, and the language code of the customer's client.
AnswerInChat = Callable[[int, int, Answer, str | None], Awaitable[None]]
#: One plain sentence to the chat (``Conversation._say``).
SayInChat = Callable[[int, str], Awaitable[None]]


class OrderCommands:
    """The order commands of ``ctx``'s customers, drawn on ``screen``; ``humans`` is the way
    to a person (offered under ``/help``), ``answer`` and ``say`` the conversation's."""

    def __init__(
        self,
        ctx: BotContext,
        screen: ChatScreen,
        *,
        answer: AnswerInChat,
        say: SayInChat,
        humans: HumanRequests | None = None,
    ) -> None:
        self.ctx = ctx
        self.screen = screen
        self.humans = humans
        self.registry = ctx.chats.engine.registry
        self._answer = answer
        self._say = say

    def handlers(
        self, flow_menu: Sequence[BotCommand], held: Callable[[CommandCallback], CommandCallback]
    ) -> list[Handler]:
        """The order's commands in private chats, each in every shipped language's words
        (/nouveau, /repeter, /annuler, /aide), and in groups the ones that start an order
        (answered with where to order); ``held`` wraps the ones a person's talk holds back."""
        private = filters.ChatType.PRIVATE
        flows = [command.command for command in flow_menu]
        words = functools.partial(command_words, self.ctx.texts.business_catalogue())
        ordering = ["start", *words("new"), *words("repeat"), *flows]
        return [
            CommandHandler("start", held(self.on_start), filters=private),
            CommandHandler(words("new"), held(self.on_new), filters=private),
            CommandHandler(words("repeat"), held(self.on_repeat), filters=private),
            CommandHandler(words("cancel"), held(self.on_cancel), filters=private),
            CommandHandler(words("help"), self.on_help, filters=private),
            *(
                [CommandHandler(flows, held(self.on_flow_command), filters=private)]
                if flows
                else []
            ),
            CommandHandler(ordering, self.on_group_order, filters=~private),
        ]

    async def on_start(self, update: Update, context: Context) -> None:
        """``/start``: a deep link's hand-off (``otp_<token>``) or flow (``t.me/<bot>?start=
        return_parcel``), else the open order again, or a new order."""
        chat_id, user_id = update_ids(update)
        language = language_of(update)
        catalogue = self.ctx.catalogue_for(language)
        await self.screen.forget_if_stale(chat_id)
        payload = (context.args or [""])[0]
        if payload.startswith("otp_"):
            await otp.start_otp_handoff(self.ctx, update, payload.removeprefix("otp_"))
            return
        if payload in self.registry:
            await self._begin(chat_id, user_id, language, greet=True, flow=payload)
            return
        turn = await self.ctx.chats.resume(
            telegram_chat(chat_id), telegram_user(user_id), language=language
        )
        if turn is None:
            await self._begin(chat_id, user_id, language, greet=True)
            return
        if turn == blocked_turn(catalogue):  # one sentence, no welcome
            await self.screen.show(chat_id, turn, language=language)
            return
        welcome = turn.model_copy(
            update={"messages": (catalogue.say("telegram.welcome_back"), *turn.messages)}
        )
        await self.screen.show(chat_id, welcome, language=language)

    async def on_new(self, update: Update, context: Context) -> None:
        """``/new``: a fresh order (over an open one, asked first when answers would be lost)."""
        await self._begin(*update_ids(update), language_of(update))

    async def on_repeat(self, update: Update, context: Context) -> None:
        """``/repeat``: the customer's last delivery, filled in again (an open one is dropped)."""
        chat_id, user_id = update_ids(update)
        language = language_of(update)
        await self.screen.forget_if_stale(chat_id)
        turn = await self.ctx.chats.repeat(
            telegram_chat(chat_id), telegram_user(user_id), language=language
        )
        self.screen.remember(chat_id).session_id = None  # a new session: its buttons get a new tag
        await self.screen.show(chat_id, turn, language=language)

    async def on_flow_command(self, update: Update, context: Context) -> None:
        """A flow's own command (``/return``): a fresh order in that flow (over an open one,
        asked first, as with ``/new``)."""
        message = update.effective_message
        word = (message.text or "") if message is not None else ""
        command = word.split(maxsplit=1)[0].removeprefix("/").split("@", 1)[0].casefold()
        flow = self.registry.by_command(command)
        named = flow.name if flow is not None else None
        await self._begin(*update_ids(update), language_of(update), flow=named)

    async def on_cancel(self, update: Update, context: Context) -> None:
        """``/cancel``: stop the order being filled in (asked to confirm when answers would
        be lost)."""
        chat_id, user_id = update_ids(update)
        language = language_of(update)
        await self.screen.forget_if_stale(chat_id)
        turn = await self.ctx.chats.cancel(
            telegram_chat(chat_id), telegram_user(user_id), language=language
        )
        if turn is None:
            await self._say(chat_id, self.ctx.catalogue_for(language).say("telegram.no_order"))
            return
        cancelled = CommandAnswer(name="cancel")
        await self.screen.show(chat_id, turn, answered=cancelled, language=language)

    async def on_help(self, update: Update, context: Context) -> None:
        """``/help``: about the open question, or about the bot when nothing is open."""
        chat_id, user_id = update_ids(update)
        language = language_of(update)
        if await self.ctx.chats.session(telegram_chat(chat_id)) is None:
            catalogue = self.ctx.catalogue_for(language)
            # The flows' labels in the customer's language (``flow_menu`` is the business's).
            flow_menu = flow_commands(catalogue, self.registry)
            shortcuts = [f"/{command.command}: {command.description}" for command in flow_menu]
            text = "\n\n".join(
                [catalogue.say("telegram.help"), *(["\n".join(shortcuts)] if shortcuts else [])]
            )
            if self.humans is not None:
                # "Talk to a person" under the help.
                await self.humans.offer(chat_id, language, text)
            else:
                await self._say(chat_id, text)
            return
        await self._answer(chat_id, user_id, CommandAnswer(name="help"), language)
        if self.humans is not None:
            await self.humans.offer(chat_id, language)

    async def on_group_order(self, update: Update, context: Context) -> None:
        """An order command in a group: orders carry personal details, so not here."""
        private_only = self.ctx.catalogue_for(language_of(update)).say("telegram.private_only")
        await self._say(update_ids(update)[0], private_only)

    async def _begin(
        self,
        chat_id: int,
        user_id: int,
        language: str | None,
        *,
        greet: bool = False,
        flow: str | None = None,
    ) -> None:
        """A command's new order (``/start``, ``/new``, a flow's command) for a customer whose
        client says ``language``: a stale view is forgotten first
        (``ChatScreen.forget_if_stale``), then as ``_new_order``."""
        await self.screen.forget_if_stale(chat_id)
        await self._new_order(chat_id, user_id, language, greet=greet, flow=flow)

    async def _new_order(
        self,
        chat_id: int,
        user_id: int,
        language: str | None,
        *,
        greet: bool = False,
        flow: str | None = None,
    ) -> None:
        """A new order; ``greet`` says hello first."""
        # Over an open order whose answers would be lost, the turn asks first (yes starts it).
        turn = await self.ctx.chats.new_order(
            telegram_chat(chat_id), telegram_user(user_id), flow=flow, language=language
        )
        self.screen.remember(chat_id).session_id = None  # maybe a new session: read it again
        catalogue = self.ctx.catalogue_for(language)
        if greet and turn != blocked_turn(catalogue):  # blocked: one sentence, no greeting
            opening = catalogue.say("telegram.greeting")
            turn = turn.model_copy(update={"messages": (opening, *turn.messages)})
        await self.screen.show(chat_id, turn, language=language)
