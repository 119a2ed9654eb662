"""``/mydata`` and ``/forgetme`` in a customer's Telegram chat, through the production runtime
(``stack``, on SQLite and PostgreSQL): the export holds what the customer ordered with; once
they are forgotten no table holds anything of them, the log never did, and the chat starts
afresh; a French customer reads it all in French."""

from __future__ import annotations

import io
import json

from bot.chat_ref import TELEGRAM, UserRef
from bot.privacy.customer_requests import EXPORT_ACTION, FORGET_ACTION
from bot.store.customer_data import is_tombstone
from bot.store.pg_backend import PgBackend
from bot.telegram.command_menus import customer_menu
from tests.e2e.conftest import ADA, ADA_PHONE, RECEIVER_PHONE, BotStack, MakeStack, make_stack
from tests.fakes import TgChat, TgUser
from tests.runtime.test_no_personal_data_in_logs import assert_nothing_personal, every_mode
from tests.store.test_customer_data import Person, _findings
from tests.telegram_adapter.stack_backends import limits, stack

__all__ = ["every_mode", "limits", "make_stack", "stack"]  # fixtures used here

ADA_AS_KEPT = Person(
    UserRef(TELEGRAM, ADA.id),
    "Bola Ahmed",  # the receiver's name: the one name the order carries
    ADA_PHONE,
    RECEIVER_PHONE,
    "Herbert Macaulay",
    "UNILAG",
    "A pair of shoes in a box",
)
AMINATA = TgUser(1700, "Aminata", language_code="fr")
FRIENDS = TgChat.group(-100300, "Friends")


def _document(stack: BotStack, number: int = -1) -> tuple[str, bytes]:
    """The name and bytes of a document the bot sent (the last, by default)."""
    call = stack.tg.calls("sendDocument")[number]
    upload = call.files["document"]
    return upload.filename or "", upload.data


async def test_my_data_then_forget_me_leaves_nothing_of_the_customer(
    every_mode: dict[tuple[str, str], io.StringIO], stack: BotStack
) -> None:
    delivery_id = await stack.order(ADA)
    await stack.command(ADA, "cancel_delivery", f"{delivery_id} changed my mind")

    [export, photo] = await stack.command(ADA, "mydata")

    assert export.method == "sendDocument"
    assert export.text == (
        "Here is everything this bot keeps about you, as one file you can keep or read."
    )
    name, data = _document(stack, 0)
    assert name.startswith("my-data-") and name.endswith(".json")
    document = json.loads(data)
    kept = json.dumps(document, ensure_ascii=False)
    for value in ADA_AS_KEPT.needles:
        assert value in kept, value
    assert [delivery["delivery_id"] for delivery in document["deliveries"]] == [delivery_id]
    assert photo.method == "sendDocument"  # the parcel's photo, as the order kept it
    kept_photo = stack.bot.store.media_dir / document["photos"][0]["file_name"]
    assert _document(stack) == (kept_photo.name, kept_photo.read_bytes())

    [question] = await stack.command(ADA, "forgetme")
    assert question.button_texts == ["Erase my data", "Keep it"]
    [answer] = await stack.tap(question, "Erase my data")

    assert answer.text == (
        "Done: what this bot kept about you is erased. The business keeps your past delivery "
        "for its books, without your name, phone numbers or addresses."
    )
    assert "reply_markup" not in (stack.tg.message(ADA.id, question.message_id) or {})
    store = stack.bot.store
    backend = "postgres" if isinstance(store._backend, PgBackend) else "sqlite"
    assert await _findings(store, backend, ADA_AS_KEPT) == set()
    [kept_delivery] = await store._db.fetch_all(
        "SELECT chat_id, user_id, status FROM deliveries WHERE delivery_id = ?", (delivery_id,)
    )
    assert is_tombstone(kept_delivery[0]) and is_tombstone(kept_delivery[1])
    actions = [entry.action for entry in await store.audit.since(0)]
    assert EXPORT_ACTION in actions and FORGET_ACTION in actions
    assert_nothing_personal(every_mode)

    # Nothing comes back: no open question, nothing to export.
    [reply] = await stack.command(ADA, "mydata")
    assert reply.text == "This bot keeps nothing about you."


async def test_keep_it_erases_nothing_and_a_group_is_told_to_ask_privately(
    stack: BotStack,
) -> None:
    await stack.command(ADA, "new")
    [question] = await stack.command(ADA, "forgetme")
    [answer] = await stack.tap(question, "Keep it")

    assert answer.text == "Nothing was erased."
    assert await stack.bot.store.sessions.get(ADA.chat) is not None
    stack.tg.add_chat(FRIENDS)
    [told] = await stack.command(ADA, "mydata", chat=FRIENDS)
    assert told.text == (
        "Please ask me in a private chat: what I keep about you is not shown in groups."
    )
    assert stack.tg.calls("sendDocument") == []


async def test_the_words_typed_mid_order_answer_as_the_commands_and_leave_the_order_as_it_is(
    stack: BotStack,
) -> None:
    await stack.command(ADA, "new")
    asked = stack.prompt(ADA.id).text
    session = await stack.bot.store.sessions.get(ADA.chat)

    [intro] = await stack.text(ADA, "my data")
    [question] = await stack.text(ADA, "Forget me")
    [answer] = await stack.tap(question, "Keep it")

    assert _document(stack)[0].endswith(".json") and intro.method == "sendDocument"
    assert answer.text == "Nothing was erased."
    assert await stack.bot.store.sessions.get(ADA.chat) == session
    # Not the whole message: an answer to the open question (refused here, asked again).
    [*_, asked_again] = await stack.text(ADA, "my data is wrong")
    assert asked_again.text.endswith(asked) and len(stack.tg.calls("sendDocument")) == 1
    stack.tg.add_chat(FRIENDS)
    assert await stack.text(ADA, "my data", chat=FRIENDS) == []  # groups' chatter is not read


async def test_a_french_customer_reads_it_in_french_and_finds_the_commands_in_the_menu(
    make_stack: MakeStack,
) -> None:
    stack = await make_stack(workers=False)
    stack.tg.add_chat(AMINATA)

    [nothing] = await stack.text(AMINATA, "Mes données")  # asked in her words
    [question] = await stack.command(AMINATA, "forgetme")
    [typed_question] = await stack.text(AMINATA, "oubliez-moi !")
    # Asked again, the file holds the trail's note of her first request, and only that.
    [intro] = await stack.command(AMINATA, "mydata")

    assert nothing.text == "Ce bot ne garde rien sur vous."
    assert question.button_texts[1] == typed_question.button_texts[1] == "Les garder"
    assert (
        intro.text == "Voici tout ce que ce bot garde sur vous, en un fichier à garder ou à lire."
    )
    [request] = json.loads(_document(stack)[1])["audit"]
    assert request["action"] == EXPORT_ACTION and request["actor"] == "customer"
    french = {c["command"]: c["description"] for c in stack.tg.commands(language_code="fr")}
    assert french["mydata"] == "Tout ce que ce bot garde sur vous, dans un fichier"
    assert {"mydata", "forgetme"} <= {command.command for command in customer_menu()}
