"""Telegram speaks each customer's language, from their app's ``language_code``."""

from __future__ import annotations

from bot.ordering.chats import no_open_order
from conversations import TextAnswer
from conversations.texts.catalogue import speaking_language
from tests.e2e.conftest import BotStack
from tests.fakes.telegram_world import TgUser

AMINA = TgUser(1201, "Amina", language_code="fr")
KEMI = TgUser(1202, "Kemi", language_code="yo")  # Yoruba: not shipped
TUNDE = TgUser(1203, "Tunde", language_code=None)


async def test_a_french_app_gets_french(stack: BotStack) -> None:
    said = [m.text or "" for m in await stack.command(AMINA, "start")]
    assert said[0].startswith("Bonjour\u00a0! Je prends ici les commandes de livraison")
    (listed,) = await stack.command(AMINA, "deliveries")
    assert listed.text == (
        "Vous n'avez pas encore de livraison. Envoyez /new pour en commander une."
    )
    (cancelled,) = await stack.command(AMINA, "cancel")  # nothing given yet: ends at once
    assert cancelled.text == "Annulé. Rien n'a été commandé."


async def test_other_languages_and_none_get_the_business_default(stack: BotStack) -> None:
    for user in (KEMI, TUNDE):
        said = [m.text or "" for m in await stack.command(user, "start")]
        assert said[0].startswith("Hello! I take delivery orders here")
        (listed,) = await stack.command(user, "deliveries")
        assert listed.text == "You have no deliveries yet. Send /new to order one."


async def test_the_chat_service_takes_the_language_as_a_plain_parameter(stack: BotStack) -> None:
    chats = stack.bot.ctx.chats
    turn = await chats.handle(4242, 4242, TextAnswer(text="hi"), language="fr")
    assert turn.messages == (
        "Cette conversation est terminée. Commencez une nouvelle commande quand vous voulez.",
    )
    with speaking_language("fr"):
        assert turn == no_open_order()
    english = await chats.handle(4242, 4242, TextAnswer(text="hi"))
    assert english.messages[0].startswith("This conversation has ended.")


async def test_the_command_menus_are_set_in_every_shipped_language(stack: BotStack) -> None:
    english = {c["command"]: c["description"] for c in stack.tg.commands()}
    french = {c["command"]: c["description"] for c in stack.tg.commands(language_code="fr")}
    assert english["new"] == "Start a new order"
    assert french["new"] == "Commencer une nouvelle commande"
    assert french.keys() == english.keys()
    assert french["return"] == english["return"]  # a flow's own label, as the flow declares it
