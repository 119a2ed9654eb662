"""Keywords in every shipped language: shown in the customer's, understood in all."""

from __future__ import annotations

from conversations.keywords import after_order, command_words, keyword_named, said_command, shown
from conversations.texts.catalogue import Texts, speaking

FRENCH = Texts().catalogue_for("fr")


def test_a_keyword_is_shown_in_the_language_of_the_turn() -> None:
    assert shown("status") == "status"
    with speaking(FRENCH):
        assert shown("status") == "statut"
        assert shown("repeat") == "répéter"


def test_every_languages_words_are_understood_whatever_is_spoken() -> None:
    for typed in ("statut", "STATUS", "/statut", "état", "etat"):
        assert keyword_named(typed) == "status", typed
    with speaking(FRENCH):
        assert keyword_named("new") == "new"
    assert keyword_named("bonjour") is None
    assert keyword_named("") is None


def test_after_an_order_only_status_cancel_and_where_is_my_parcel_are_read() -> None:
    assert after_order("Où est mon colis ?") == "where_is_my_parcel"
    assert after_order("où en est ma commande") == "where_is_my_parcel"
    assert after_order("Where is my parcel?") == "where_is_my_parcel"
    assert after_order("annuler") == "cancel"
    assert after_order("statut") == "status"
    assert after_order("retour") is None  # no order to go back in
    assert after_order("où est le livreur de mon colis") is None


def test_a_command_name_is_a_word_a_chat_app_takes() -> None:
    assert command_words("repeat") == ["repeat", "refaire", "repeter"]  # never "répéter"
    assert command_words("cancel_delivery") == ["cancel_delivery", "annuler_livraison"]
    with speaking(FRENCH):
        assert said_command("/repeat") == "/repeter"
        assert said_command("deliveries") == "livraisons"
        assert said_command("/start") == "/start"  # no keyword: as it is
    assert said_command("/status") == "/status"
