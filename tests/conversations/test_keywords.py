"""Keywords in every shipped language: shown in the customer's, understood in all."""

from __future__ import annotations

from conversations.keywords import (
    after_order,
    command_words,
    data_request,
    keyword_named,
    said_command,
    shown,
)
from conversations.texts.catalogue import Texts
from tests.support.words import SHIPPED

FRENCH = Texts().catalogue_for("fr")


def test_a_keyword_is_shown_in_the_language_of_the_turn() -> None:
    assert shown(SHIPPED, "status") == "status"
    assert shown(FRENCH, "status") == "statut"
    assert shown(FRENCH, "repeat") == "répéter"


def test_every_languages_words_are_understood_whatever_is_spoken() -> None:
    for typed in ("statut", "STATUS", "/statut", "état", "etat"):
        assert keyword_named(SHIPPED, typed) == "status", typed
    assert keyword_named(FRENCH, "new") == "new"
    assert keyword_named(SHIPPED, "bonjour") is None
    assert keyword_named(SHIPPED, "") is None


def test_after_an_order_only_status_cancel_and_where_is_my_parcel_are_read() -> None:
    assert after_order(SHIPPED, "Où est mon colis ?") == "where_is_my_parcel"
    assert after_order(SHIPPED, "où en est ma commande") == "where_is_my_parcel"
    assert after_order(SHIPPED, "Where is my parcel?") == "where_is_my_parcel"
    assert after_order(SHIPPED, "annuler") == "cancel"
    assert after_order(SHIPPED, "statut") == "status"
    assert after_order(SHIPPED, "retour") is None  # no order to go back in
    assert after_order(SHIPPED, "où est le livreur de mon colis") is None


def test_a_command_name_is_a_word_a_chat_app_takes() -> None:
    assert command_words(SHIPPED, "repeat") == ["repeat", "refaire", "repeter"]  # never "répéter"
    assert command_words(SHIPPED, "cancel_delivery") == ["cancel_delivery", "annuler_livraison"]
    assert said_command(FRENCH, "/repeat") == "/repeter"
    assert said_command(FRENCH, "deliveries") == "livraisons"
    assert said_command(FRENCH, "/start") == "/start"  # no keyword: as it is
    assert said_command(SHIPPED, "/status") == "/status"


def test_a_data_request_is_a_whole_message_in_either_language() -> None:
    for typed, asked in (
        ("my data", "my_data"),
        ("/MyData", "my_data"),
        ("  Mes  Données ! ", "my_data"),
        ("forget me", "forget_me"),
        ("/forgetme", "forget_me"),
        ("Oubliez-moi", "forget_me"),
    ):
        assert data_request(SHIPPED, typed) == asked, typed
    for typed in ("my data is wrong", "please forget me", "my", "data", ""):
        assert data_request(SHIPPED, typed) is None, typed
    assert keyword_named(SHIPPED, "mydata") is None  # never a first word's command
