"""``SharedTexts``: businesses whose texts are equal read one ``Texts`` and its catalogues;
a business with overrides of its own keeps its own."""

from __future__ import annotations

import gc

from conversations.texts.business_texts import BusinessTexts, SharedTexts
from conversations.texts.catalogue import Texts

OVERRIDE = {"en": {"command.back": "Go back"}}


def test_businesses_with_equal_texts_read_one_catalogue() -> None:
    shared = SharedTexts()
    first, second = BusinessTexts(Texts(), shared), BusinessTexts(Texts(), shared)
    assert first.texts is second.texts
    assert first.catalogue_for("fr") is second.catalogue_for("fr")
    assert first.business_catalogue() is second.business_catalogue()


def test_a_business_with_its_own_overrides_or_locale_keeps_its_own() -> None:
    shared = SharedTexts()
    plain = BusinessTexts(Texts(), shared)
    own = BusinessTexts(Texts(overrides=OVERRIDE), shared)
    french = BusinessTexts(Texts(locale="fr_FR"), shared)
    assert len({id(plain.texts), id(own.texts), id(french.texts)}) == 3
    assert own.business_catalogue().say("command.back") == "Go back"
    assert plain.business_catalogue().say("command.back") == "Back"
    again = BusinessTexts(Texts(overrides={"en": dict(OVERRIDE["en"])}), shared)
    assert again.texts is own.texts  # equal overrides: shared too


def test_texts_no_business_reads_any_more_are_let_go() -> None:
    shared = SharedTexts()
    gone = BusinessTexts(Texts(locale="fr_FR"), shared)
    held = gone.texts
    del gone, held
    gc.collect()
    fresh = Texts(locale="fr_FR")
    assert BusinessTexts(fresh, shared).texts is fresh
