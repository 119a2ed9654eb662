"""Keywords in every shipped language: shown in the customer's, understood in all."""

from __future__ import annotations

from bot.turn_speech import current, speaking
from conversations.keywords import after_order, command_words, keyword_named, said_command, shown
from conversations.texts.catalogue import Texts

FRENCH = Texts().catalogue_for("fr")


def test_a_keyword_is_shown_in_the_language_of_the_turn() -> None:
    assert shown(current(), "status") == "status"
    with speaking(FRENCH):
        assert shown(current(), "status") == "statut"
        assert shown(current(), "repeat") == "répéter"


def test_every_languages_words_are_understood_whatever_is_spoken() -> None:
    for typed in ("statut", "STATUS", "/statut", "état", "etat"):
        assert keyword_named(current(), typed) == "status", typed
    with speaking(FRENCH):
        assert keyword_named(current(), "new") == "new"
    assert keyword_named(current(), "bonjour") is None
    assert keyword_named(current(), "") is None


def test_after_an_order_only_status_cancel_and_where_is_my_parcel_are_read() -> None:
    assert after_order(current(), "Où est mon colis ?") == "where_is_my_parcel"
    assert after_order(current(), "où en est ma commande") == "where_is_my_parcel"
    assert after_order(current(), "Where is my parcel?") == "where_is_my_parcel"
    assert after_order(current(), "annuler") == "cancel"
    assert after_order(current(), "statut") == "status"
    assert after_order(current(), "retour") is None  # no order to go back in
    assert after_order(current(), "où est le livreur de mon colis") is None


def test_a_command_name_is_a_word_a_chat_app_takes() -> None:
    assert command_words(current(), "repeat") == ["repeat", "refaire", "repeter"]  # never "répéter"
    assert command_words(current(), "cancel_delivery") == ["cancel_delivery", "annuler_livraison"]
    with speaking(FRENCH):
        assert said_command(current(), "/repeat") == "/repeter"
        assert said_command(current(), "deliveries") == "livraisons"
        assert said_command(current(), "/start") == "/start"  # no keyword: as it is
    assert said_command(current(), "/status") == "/status"
