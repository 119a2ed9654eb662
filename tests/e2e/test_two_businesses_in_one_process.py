"""Two businesses in one process, each with its own ``[texts]`` and its own counters.

A French delivery shop (``locale = "fr_FR"``: French words, money written the French way) and
an English one (``en_GB``, with its own wording of a question) run side by side in one Python
process: two real runtimes, each with its Telegram bot, its sandbox and its SQLite store. Their
customers' turns are interleaved one update at a time, so whatever a turn reads of its
business's words, it reads from the business it belongs to, never from whichever was built
last. Every customer's client asks for no language, so each reads their business's default.
The delivery news each business relays, and its ``/metrics`` counters, are its own too.
"""

from __future__ import annotations

import itertools
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

from bot.chat_ref import UserRef
from tests.e2e.conftest import OPERATORS, RECEIVER_PHONE, BotStack, MakeStack, tiny_png
from tests.fakes import SentMessage, TgUser
from tests.metrics.samples import sample

METRICS_ON = {"enabled": True, "token": "metrics-token-0123456789abcdef"}
FRENCH = {"locale": "fr_FR"}
OWN_QUESTION = "What are we carrying for you today?"
ENGLISH = {
    "locale": "en_GB",
    "en": {"flows.pickup_delivery.description_question": OWN_QUESTION},
}
# Customers whose Telegram client sends no language: each reads their business's default.
NGOZI = TgUser(2001, "Ngozi", language_code=None)
TUNDE = TgUser(2002, "Tunde", language_code=None)
EMEKA = TgUser(2003, "Emeka", language_code=None)
CREATED = {"flow": "pickup_delivery", "outcome": "created"}
FEE = 1500.0  # the default scenario's fee for these orders

Step = Callable[[], Awaitable[list[SentMessage]]]


def order_steps(stack: BotStack, user: TgUser, phone: str) -> Iterator[Step]:
    """A whole pickup & delivery as one update per step, its labels in the business's words."""
    words = stack.bot.core.texts.business_catalogue()
    chat = user.id
    yield lambda: stack.command(user, "new")
    yield lambda: stack.tap(stack.prompt(chat), "✓ " + words.say("flows.pickup_delivery.title"))
    yield lambda: stack.location(user, 6.5095, 3.3711)
    yield lambda: stack.text(user, "12 Herbert Macaulay Way, Yaba")
    yield lambda: stack.tap(stack.prompt(chat), "UNILAG Main Gate")
    yield lambda: stack.contact(user, phone)
    yield lambda: stack.text(user, "Bola Ahmed")
    yield lambda: stack.text(user, RECEIVER_PHONE)
    yield lambda: stack.text(user, "A pair of shoes in a box")
    yield lambda: stack.tap(stack.prompt(chat), words.say("steps.size.small"))
    yield lambda: stack.photo(user, tiny_png())
    yield lambda: stack.tap(stack.prompt(chat), words.say("steps.summary.confirm"))


async def interleaved(*orders: Iterator[Step]) -> None:
    """Run the orders' steps in turn: one update of the first, one of the second, ..."""
    for steps in itertools.zip_longest(*orders):
        for step in steps:
            if step is not None:
                await step()


def texts_to(stack: BotStack, user: TgUser) -> list[str]:
    return [message.text for message in stack.tg.sent_messages(user.id)]


async def test_each_business_speaks_its_own_words_and_counts_its_own_orders(
    make_stack: MakeStack, tmp_path: Path
) -> None:
    stacks = []
    for name, texts in (("french", FRENCH), ("english", ENGLISH)):
        home = tmp_path / name
        home.mkdir()
        stack = await make_stack(metrics=METRICS_ON, texts=texts, home=home)
        for user in (NGOZI, TUNDE, EMEKA):
            stack.tg.add_chat(user)
        stacks.append(stack)
    french, english = stacks
    en_words = english.bot.core.texts.business_catalogue()
    fr_words = french.bot.core.texts.business_catalogue()
    assert fr_words.chosen is None and en_words.chosen is None  # each business's default

    await interleaved(
        order_steps(french, NGOZI, "+2348031234567"),
        order_steps(english, TUNDE, "+2348035550000"),
        order_steps(english, EMEKA, "+2348035550001"),
    )

    # Each business's customers read their business's questions: its language, its wording.
    french_question = fr_words.say("flows.pickup_delivery.description_question")
    assert french_question.startswith("Qu")  # the shipped French question
    assert any(french_question in text for text in texts_to(french, NGOZI))
    assert not any(OWN_QUESTION in text for text in texts_to(french, NGOZI))
    for user in (TUNDE, EMEKA):
        said = texts_to(english, user)
        assert any(OWN_QUESTION in text for text in said), said
        assert not any(french_question in text for text in said)

    # Each business writes the same fee the way its locale does, and confirms in its words.
    fees = {name: words.money(FEE, "NGN") for name, words in (("fr", fr_words), ("en", en_words))}
    assert fees == {"fr": "1\u202f500\xa0NGN", "en": "NGN 1,500"}
    assert fees["fr"] in _summary(french, NGOZI) and fees["en"] not in _summary(french, NGOZI)
    assert fees["en"] in _summary(english, TUNDE) and fees["fr"] not in _summary(english, TUNDE)
    (fr_created,) = await _links(french, NGOZI)
    (en_created,) = await _links(english, TUNDE)
    assert texts_to(french, NGOZI)[-1].startswith(
        fr_words.say("dialogue.created", ref=fr_created[:8].upper())
    )
    assert texts_to(english, TUNDE)[-1].startswith(
        en_words.say("dialogue.created", ref=en_created[:8].upper())
    )

    # The news each business relays later is in its own words, its money in its own locale.
    before = {"fr": len(texts_to(french, NGOZI)), "en": len(texts_to(english, TUNDE))}
    for stack, delivery_id in ((french, fr_created), (english, en_created)):
        stack.sandbox.mark_paid(delivery_id)
        await stack.deliver_events()
    fr_paid = texts_to(french, NGOZI)[before["fr"]]
    en_paid = texts_to(english, TUNDE)[before["en"]]
    assert fr_words.say("delivery.paid_amount", amount=fees["fr"]) in fr_paid
    assert en_words.say("delivery.paid_amount", amount=fees["en"]) in en_paid

    # Each business's operators read the bot's own notes in the business's language.
    for stack, words in ((french, fr_words), (english, en_words)):
        to_staff = [message.text for message in stack.tg.sent_messages(OPERATORS.id)]
        assert any(words.say("delivery.note_tracking_sent") in text for text in to_staff)

    # Each business's counters are its own: one order in one, two in the other.
    assert sample(french.bot.core.metrics, "deliverybot_creates_total", **CREATED) == 1
    assert sample(english.bot.core.metrics, "deliverybot_creates_total", **CREATED) == 2


async def _links(stack: BotStack, user: TgUser) -> list[str]:
    links = await stack.bot.store.deliveries.for_user(UserRef("telegram", user.id), 5)
    return [link.delivery_id for link in links]


def _summary(stack: BotStack, user: TgUser) -> str:
    words = stack.bot.core.texts.business_catalogue()
    confirm = words.say("steps.summary.confirm")
    for message in reversed(stack.tg.sent_messages(user.id)):
        if confirm in _buttons(message):
            return message.text
    raise AssertionError(f"no summary was sent to {user.first_name}")


def _labels(stack: BotStack, user: TgUser) -> list[str]:
    return [label for message in stack.tg.sent_messages(user.id) for label in _buttons(message)]


def _buttons(message: SentMessage) -> list[str]:
    rows = (message.reply_markup or {}).get("inline_keyboard", [])
    return [str(button.get("text")) for row in rows for button in row]
