"""The flows' own questions, titles, option labels and help are said in the turn's language:
a French customer reads no English question between French sentences, an English one reads
exactly what the transcripts show, and what goes to the service stays in the business's."""

from __future__ import annotations

import re

from conversations.diagram import mermaid
from conversations.flows.pickup_delivery import PICKUP_DELIVERY
from conversations.texts.catalogue import Texts
from tests.conversations.conftest import Chat, World

FRENCH = Texts().catalogue_for("fr")
# English words that a French question, label or title must not hold, and the words of the
# English commands and hints (a French screen says "retour · annuler · aide", "Modifier").
_ENGLISH = re.compile(
    r"\b(the|Where|What|Who|How|Please|Your|rider|pick|Yes|No|back|cancel|help|new|repeat|"
    r"status|deliveries|cancel_delivery|done|skip|edit|location|reply|type|number|Change|"
    r"Confirm|default|step|reason|address|answer|parcel|Summary)\b",
    re.IGNORECASE,
)
# Typed as they are in every language: the demo's own ``:`` commands and Telegram's /start.
_LITERAL = re.compile(r"(?<![\w/]):[a-z]+\b|/start\b")


def english_in(text: str) -> list[str]:
    """The English words of ``text``, a screen shown to a French customer."""
    return _ENGLISH.findall(_LITERAL.sub("", text))


def test_the_word_list_catches_english_commands_and_passes_french_ones() -> None:
    assert english_in("(reply: a number · back · cancel · help)")
    assert english_in("Change people")
    assert not english_in("(réponse : un numéro · retour · annuler · aide)")
    assert not english_in("`:help` les liste, `:quit` quitte ; /start reprend la vôtre.")


async def test_a_french_customer_reads_the_pickup_and_delivery_in_french(world: World) -> None:
    chat = world.chat(catalogue=FRENCH)
    await chat.pickup_delivery_to_summary()
    summary = chat.turn.prompt
    assert summary is not None
    assert summary.text.startswith("Veuillez vérifier votre enlèvement et livraison :")
    assert "• Lieu d'enlèvement : " in summary.text
    assert "• Contact à l'enlèvement : Moi" in summary.text
    assert "• Taille : Petit" in summary.text
    assert "Modifier : lieux" in [o.label for o in summary.options]
    assert "Modifier : lieu d'enlèvement" in [o.label for o in summary.changes]
    assert summary.options[0].label == "Confirmer et envoyer"
    for turn in chat.turns:
        if turn.prompt is not None:
            assert not english_in(turn.prompt.text), turn.prompt.text
            for option in (*turn.prompt.options, *turn.prompt.changes):
                assert not english_in(option.label), option.label


async def test_the_same_steps_speak_english_to_the_next_customer(world: World) -> None:
    french = world.chat(catalogue=FRENCH)
    await french.start()
    await french.tap("pickup_delivery")
    assert french.turn.prompt is not None
    assert french.turn.prompt.text.startswith("Où le livreur doit-il enlever le colis ?")
    english = world.chat()
    await english.start()
    await english.tap("pickup_delivery")
    assert english.turn.prompt is not None
    assert english.turn.prompt.text.startswith("Where should the rider pick the package up?")
    sizes = world.chat(catalogue=FRENCH)
    await sizes.pickup_delivery_to_summary()
    await sizes.command("edit", "package_size")
    assert [o.label for o in sizes.prompt.options][:3] == ["Petit", "Moyen", "Grand"]
    assert [o.detail for o in sizes.prompt.options][:1] == ["tient dans un sac"]


async def test_an_override_of_a_flow_question_is_what_the_customer_reads(world: World) -> None:
    texts = Texts(overrides={"en": {"flows.pickup_delivery.fragile_question": "Breakable?"}})
    chat: Chat = world.chat(catalogue=texts.catalogue_for("en"))
    await chat.pickup_delivery_to_summary()
    await chat.command("edit", "fragile")
    assert chat.turn.prompt is not None
    assert chat.turn.prompt.text.startswith("Breakable?")


async def test_the_errand_pickup_text_for_the_service_is_in_the_business_language(
    world: World,
) -> None:
    # an English business, a French customer
    chat = world.chat(catalogue=Texts(locale="en_NG").catalogue_for("fr"))
    await chat.errand_to_summary(mode="link")
    await chat.tap("confirm")
    assert "La référence de votre commande" in chat.said_ever  # the customer reads French
    (request,) = world.creator.requests
    assert request.pickupAddress.startswith("Online order: ")


def test_diagrams_are_drawn_in_english_from_the_source_catalogue() -> None:
    english = mermaid(PICKUP_DELIVERY)  # takes no catalogue: no turn's language reaches it
    assert "Pickup place" in english
    assert "Lieu d'enlèvement" not in english
