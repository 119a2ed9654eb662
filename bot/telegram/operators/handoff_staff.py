"""Staff's side of a hand-off in the operators' chat: "I'll answer", "Done" (or ``/done REF``),
and replies that reach the customer (``bot.handoff``).

Only the chats listed in ``[operators]`` are heard here. A reply counts when it answers the
hand-off's card or a message the bot tagged with its ``#REF`` (``handoff_sides``); in a forum
group, any message written in the hand-off's own topic counts, reply or not; its text,
photo or location goes to the customer as the business's. A reply to a hand-off nobody took
takes it for whoever replied; one somebody else took is not sent (two people must not answer
at once): the replier is told who has it. The console is another door onto the same acts
(``bot.handoff.staff_acts``): whoever takes a hand-off first, here or there, owns it. A reply
to the hand-off of a blocked customer is not sent, and the replier is told why
(``HandoffDesk.refused_for_block``). A location shared
while the customer's order is at a place question answers that question for them, through its
own step: a refused place is told to staff, never to the customer.
"""

from __future__ import annotations

import re

from telegram import Message, Update, User
from telegram.ext import CallbackQueryHandler, CommandHandler, ContextTypes, MessageHandler, filters

from bot.chat_ref import TELEGRAM, ChatRef, UserRef
from bot.handoff import staff_acts
from bot.handoff.desk import HandoffDesk
from bot.telegram.application import Handler
from bot.telegram.handoff_sides import BUTTON_PATTERN, tagged_ref
from bot.telegram.human_request import message_body
from bot.telegram.message_sender import TelegramSender, answer_tap
from bot.telegram.received_update import language_of
from conversations.texts.business_texts import BusinessTexts
from conversations.texts.catalogue import Catalogue

Context = ContextTypes.DEFAULT_TYPE


class HandoffStaff:
    """The operators' chat handlers of hand-offs, over ``desk``; their replies are said from
    the business's ``texts`` in the language of the operator's client, as every reply to an
    update is (the cards themselves are in the business's language: ``handoff_sides``)."""

    def __init__(
        self,
        desk: HandoffDesk,
        sender: TelegramSender,
        texts: BusinessTexts,
        operators: frozenset[int],
    ):
        self.desk = desk
        self.sender = sender
        self.texts = texts
        self.operators = operators

    def _words(self, update: Update) -> Catalogue:
        return self.texts.catalogue_for(language_of(update))

    def handlers(self) -> list[Handler]:
        """The buttons, ``/done REF`` and replies (or messages in a hand-off's topic), heard
        in operator chats only."""
        in_operator_chat = filters.Chat(chat_id=sorted(self.operators))
        to_a_handoff = (filters.REPLY | filters.IS_TOPIC_MESSAGE) & (
            (filters.TEXT & ~filters.COMMAND) | filters.PHOTO | filters.LOCATION
        )
        return [
            CallbackQueryHandler(self.on_button, pattern=BUTTON_PATTERN),
            CommandHandler("done", self.on_done, filters=in_operator_chat),
            MessageHandler(in_operator_chat & to_a_handoff, self.on_reply),
        ]

    async def on_button(self, update: Update, context: Context) -> None:
        """ "I'll answer" (one owner, whichever door took it first: the others are told who
        has it) or "Done"."""
        query = update.callback_query
        if query is None or query.message is None or query.data is None:
            return
        words = self._words(update)
        found = re.match(BUTTON_PATTERN, query.data)
        if query.message.chat.id not in self.operators or found is None:
            await answer_tap(query, words.say("ops.refused"))
            return
        action, ref = found.group(1), found.group(2)
        operator = _operator(query.from_user)
        act = await (
            staff_acts.close(self.desk, ref, operator)
            if action == "done"
            else staff_acts.take(self.desk, ref, operator)
        )
        await answer_tap(query, act.said(words))

    async def on_done(self, update: Update, context: Context) -> None:
        """``/done REF`` (or ``/done`` replying to the hand-off, or in its topic)."""
        message = update.effective_message
        if message is None or message.from_user is None:
            return
        words = self._words(update)
        args = context.args or []
        ref = args[0].lstrip("#") if len(args) == 1 else await self._addressed_ref(message)
        if ref is None:
            await self._say(message, words.say("staff.done_usage"))
            return
        act = await staff_acts.close(self.desk, ref, _operator(message.from_user))
        await self._say_act(message, words, act)

    async def on_reply(self, update: Update, context: Context) -> None:
        """A reply to a hand-off (or a message in its topic): to the customer (or, a shared
        place, their answer)."""
        message = update.message
        if message is None or message.from_user is None:
            return
        ref = await self._addressed_ref(message)
        body = message_body(message)
        if ref is None or body is None:
            return
        act = await staff_acts.answer(self.desk, ref, _operator(message.from_user), body)
        if act.kind not in staff_acts.TOLD_BY_DESK:
            await self._say_act(message, self._words(update), act)

    async def _say_act(self, message: Message, words: Catalogue, act: staff_acts.Act) -> None:
        said = act.said(words)
        if said is not None:
            await self._say(message, said)

    async def _addressed_ref(self, message: Message) -> str | None:
        """The hand-off the message is about: the one it replies to, else the one whose
        topic it is written in; None when neither (another topic, the general chat)."""
        ref = _replied_ref(message)
        if ref is not None or not message.is_topic_message or message.message_thread_id is None:
            return ref
        chat = ChatRef(TELEGRAM, message.chat_id)
        handoff = await self.desk.in_topic(chat, message.message_thread_id)
        return handoff.ref if handoff is not None else None

    async def _say(self, message: Message, text: str) -> None:
        params: dict[str, object] = {"text": text}
        if message.is_topic_message and message.message_thread_id is not None:
            params["message_thread_id"] = message.message_thread_id  # answered where asked
        await self.sender.call(message.chat_id, "sendMessage", params)


def _replied_ref(message: Message) -> str | None:
    """The hand-off the message replies to: the card's or a tagged message's reference."""
    replied = message.reply_to_message
    if replied is None or replied.from_user is None or not replied.from_user.is_bot:
        return None
    return tagged_ref(replied.text or replied.caption)


def _operator(user: User) -> staff_acts.Operator:
    """A Telegram operator: owner by their account, shown by their full name, replies signed
    with their first name, in the audit trail as ``telegram:<id>``."""
    account = UserRef(TELEGRAM, user.id)
    return staff_acts.Operator(
        account, user.full_name or str(user.id), user.first_name, str(account)
    )
