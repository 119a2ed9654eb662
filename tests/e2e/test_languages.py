"""Telegram speaks each customer's language, from their app's ``language_code``."""

from __future__ import annotations

import re

from bot.chat_ref import TELEGRAM, ChatRef, UserRef
from bot.ordering.chats import no_open_order
from conversations import TextAnswer
from conversations.texts.deliveries_texts import short_ref
from tests.conversations.test_flow_languages import english_in
from tests.e2e.conftest import OPERATORS, RECEIVER_PHONE, BotStack, tiny_png
from tests.fakes.telegram_keyboards import buttons
from tests.fakes.telegram_world import TgUser
from tests.support.words import said_in

AMINA = TgUser(1201, "Amina", language_code="fr")
KEMI = TgUser(1202, "Kemi", language_code="yo")  # Yoruba: not shipped
TUNDE = TgUser(1203, "Tunde", language_code=None)
NOBODY = ChatRef(TELEGRAM, 4242)  # a chat that never ordered


async def test_a_french_app_gets_french(stack: BotStack) -> None:
    said = [m.text or "" for m in await stack.command(AMINA, "start")]
    assert said[0].startswith("Bonjour\u00a0! Je prends ici les commandes de livraison")
    (listed,) = await stack.command(AMINA, "deliveries")
    assert listed.text == (
        "Vous n'avez pas encore de livraison. Envoyez /nouveau pour en commander une."
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
    turn = await chats.handle(NOBODY, NOBODY.user(4242), TextAnswer(text="hi"), language="fr")
    assert turn.messages == (
        "Cette conversation est terminée. Commencez une nouvelle commande quand vous voulez.",
    )
    assert turn == no_open_order(chats.catalogues.texts.catalogue_for("fr"))
    english = await chats.handle(NOBODY, NOBODY.user(4242), TextAnswer(text="hi"))
    assert english.messages[0].startswith("This conversation has ended.")


async def test_the_command_menus_are_set_in_every_shipped_language(stack: BotStack) -> None:
    english = {c["command"]: c["description"] for c in stack.tg.commands()}
    french = {c["command"]: c["description"] for c in stack.tg.commands(language_code="fr")}
    assert english["new"] == "Start a new order"
    # The French menu names the French commands (each is answered in either language).
    assert french["nouveau"] == "Commencer une nouvelle commande"
    assert {"statut", "livraisons", "annuler_livraison", "repeter", "aide"} <= french.keys()
    assert len(french) == len(english)
    assert french["return"] == english["return"]  # a flow's own label, as the flow declares it


async def french_order(stack: BotStack, user: TgUser) -> str:
    """A pickup & delivery ordered in Telegram by a user whose app is in French, tapping the
    French labels; the created delivery's id."""
    french = said_in("fr")
    kind, size = french.say("rules.kind.pickup_delivery"), french.say("steps.size.small")
    cash, confirm = french.say("rules.payment.cash_at_pickup"), french.say("steps.summary.confirm")
    chat = user.id
    await stack.command(user, "new")
    await stack.tap(stack.prompt(chat), f"✓ {kind}", user=user)
    await stack.location(user, 6.5095, 3.3711)
    await stack.text(user, "12 Herbert Macaulay Way, Yaba")
    await stack.tap(stack.prompt(chat), "UNILAG Main Gate", user=user)
    await stack.contact(user, "+2348035550000")
    await stack.text(user, "Bola Ahmed")
    await stack.text(user, RECEIVER_PHONE)
    await stack.text(user, "Une paire de chaussures")
    await stack.tap(stack.prompt(chat), size, user=user)
    await stack.photo(user, tiny_png())
    summary = stack.prompt(chat)  # cash in person is pre-set, said in French on the summary
    assert cash in (summary.text or "")
    await stack.tap(summary, confirm, user=user)
    (link,) = await stack.bot.store.deliveries.for_user(UserRef("telegram", user.id), 1)
    return link.delivery_id


async def test_a_french_customers_later_news_is_french_and_the_operators_stays_english(
    stack: BotStack,
) -> None:
    delivery_id = await french_order(stack, AMINA)
    ref = short_ref(delivery_id)
    stack.sandbox.mark_paid(delivery_id)  # the rider was assigned automatically
    await stack.sandbox.drain_webhooks()

    handoff = await stack.tg.wait_for_message(
        AMINA.id, lambda m: re.search(r"\?start=otp_", m.text or "") is not None
    )
    assert f"Le code de remise de la livraison {ref} est prêt." in (handoff.text or "")
    # The bot's own sentence in French: the service's English hint never reaches her.
    await stack.tg.wait_for_message(
        AMINA.id,
        lambda m: f"Livraison {ref}\nNous avons bien reçu votre paiement" in (m.text or ""),
    )
    said = [m.text or "" for m in stack.tg.sent_messages(AMINA.id)]
    assert not any(f"Delivery {ref}" in text or "Good news" in text for text in said)
    await stack.tg.wait_for_message(
        OPERATORS.id,
        lambda m: (
            f"The drop-off code for delivery {ref} is waiting for the receiver to verify "
            "their phone number." in (m.text or "")
        ),
    )


async def test_a_french_customer_reads_no_english_in_telegram(stack: BotStack) -> None:
    """Everything Telegram shows a French customer: the help, the command menu, every message
    and button of an order (the summary's groups and their menu included), and the answers to
    the words typed once the order has ended, in French or in English."""
    help_text = [m.text or "" for m in await stack.command(AMINA, "aide")]  # French command
    assert "/nouveau" in help_text[0] and "/statut" in help_text[0]
    delivery_id = await french_order_through_a_group(stack, AMINA)
    ref = short_ref(delivery_id)
    after: dict[str, str] = {}
    for typed in ("statut", "Où est mon colis ?", "annuler", "status", "where is my parcel?"):
        (reply,) = await stack.text(AMINA, typed)
        after[typed] = reply.text or ""
        assert "terminée" not in after[typed], (typed, after[typed])
    assert ref in after["statut"]
    assert after["statut"] == after["Où est mon colis ?"] == after["status"]
    assert after["where is my parcel?"] == after["statut"]
    assert "/annuler_livraison" in after["annuler"]
    menu = stack.tg.commands(language_code="fr")
    # The menu's entry of a flow's own command (/return) is set once, at start-up, in the
    # business's language (``test_the_command_menus_are_set_in_every_shipped_language``).
    shown = [c["description"] for c in menu if c["command"] != "return"]
    for message in stack.tg.sent_messages(AMINA.id):
        shown.append(re.sub(r"\S+://\S+", "", message.text or ""))
        shown += [button.get("text", "") for button in buttons(message.reply_markup or {})]
    for text in shown:
        assert not english_in(text.replace("Swift Lagos Deliveries", "")), text


async def french_order_through_a_group(stack: BotStack, user: TgUser) -> str:
    """``french_order``, with a look at the summary's "Modifier : personnes" menu first."""
    french = said_in("fr")
    people = french.say("dialogue.change_step", what=french.say("steps.summary.group.people"))
    back = french.say("steps.summary.back_to_summary")
    original_tap = stack.tap

    async def tap(message, label, *, user=None):  # type: ignore[no-untyped-def]
        if label.endswith(say_in_fr("steps.summary.confirm")):
            await original_tap(message, people, user=user)
            menu = stack.prompt(user.id if user else message.chat_id)
            await original_tap(menu, back, user=user)
            message = stack.prompt(user.id if user else message.chat_id)
        return await original_tap(message, label, user=user)

    stack.tap = tap  # type: ignore[method-assign]
    try:
        return await french_order(stack, user)
    finally:
        stack.tap = original_tap  # type: ignore[method-assign]


def say_in_fr(message_id: str) -> str:
    return said_in("fr").say(message_id)
