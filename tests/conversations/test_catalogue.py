"""The message catalogue: shipped languages agree, money is Babel's, overrides are checked.

The catalogue checked is the whole one a bot ships: the core's messages and every channel's own
words (``bot.channel_texts``), so a channel's words are held to the same rules.
"""

from __future__ import annotations

import re
from datetime import date

import pytest

from bot.channel_texts import shipped_channel_texts
from conversations.phones import example_phone
from conversations.texts import dialogue, money_texts
from conversations.texts.business_texts import BusinessTexts
from conversations.texts.catalogue import (
    SHIPPED,
    SOURCE_LANGUAGE,
    ChannelTexts,
    Texts,
    placeholders,
    problems_with,
    shipped_messages,
)

CHANNELS = shipped_channel_texts()
WHOLE = {language: shipped_messages(language, CHANNELS) for language in SHIPPED}
_MARK = re.compile(r"\[\[(?:tap|Tap|way):[^\]]+\]\]")


@pytest.mark.parametrize("language", sorted(set(SHIPPED) - {SOURCE_LANGUAGE}))
def test_every_language_has_the_source_ids_placeholders_and_marks(language: str) -> None:
    source, translated = WHOLE[SOURCE_LANGUAGE], WHOLE[language]
    assert sorted(translated) == sorted(source)
    for message_id, template in source.items():
        assert placeholders(translated[message_id]) == placeholders(template), message_id
        # The same choices named: a mark's capital only follows where the sentence starts,
        # which differs between languages ("Please tap ..." / "Touchez ..., s'il vous plaît").
        marks = sorted(mark.lower() for mark in _MARK.findall(template))
        translated_marks = sorted(mark.lower() for mark in _MARK.findall(translated[message_id]))
        assert translated_marks == marks, message_id


@pytest.mark.parametrize("language", sorted(SHIPPED))
def test_every_message_renders_with_its_placeholders(language: str) -> None:
    catalogue = Texts(channels=CHANNELS).catalogue_for(language)
    assert set(catalogue.messages) == set(WHOLE[language])
    for message_id, names in catalogue.fields.items():
        rendered = catalogue.say(message_id, **{name: f"<{name}>" for name in names})
        assert "{" not in rendered and "}" not in rendered, message_id


def test_money_carries_the_currency_in_the_locale_of_the_catalogue() -> None:
    english, french = Texts().catalogue_for(None), Texts().catalogue_for("fr")
    assert english.money(1500, "NGN") == "NGN 1,500"
    assert english.money(1500.5, "KES") == "KES 1,500.50"
    assert money_texts.format_money(english, 2_000_000, "NGN") == "NGN 2,000,000"
    assert french.money(1500, "NGN") == "1\u202f500\xa0NGN"
    assert french.money(1500.5, "NGN") == "1\u202f500,50\xa0NGN"
    assert french.number(2.5) == "2,5"
    assert french.day(date(2027, 1, 7)) == "07 janv. 2027"
    assert english.day(date(2027, 1, 7)) == "07 Jan 2027"


def test_the_language_comes_from_the_customer_with_the_business_default_as_fallback() -> None:
    texts = Texts(locale="en_NG")
    assert texts.catalogue_for("fr").language == "fr"
    assert texts.catalogue_for("fr-CA").language == "fr"
    assert texts.catalogue_for("yo").language == "en"  # Yoruba is not shipped
    assert texts.catalogue_for(None).language == "en"
    assert Texts(locale="fr_CM").catalogue_for("").language == "fr"
    french = texts.catalogue_for("fr")
    assert dialogue.CLOSED.render(french).startswith("Cette conversation est terminée")
    assert dialogue.CLOSED.render(texts.business_catalogue()).startswith(
        "This conversation has ended"
    )


def test_the_language_kept_for_later_is_the_one_the_customer_asked_for_or_none() -> None:
    """What a delivery keeps (``Catalogue.chosen``): None stands for the business default, so
    a customer who named no shipped language follows the business, should its locale change."""
    texts = Texts(locale="en_NG")
    assert texts.business_catalogue().chosen is None  # outside any turn
    assert texts.catalogue_for("fr-CA").chosen == "fr"
    assert texts.catalogue_for("yo").chosen is None  # Yoruba is not shipped
    assert texts.catalogue_for(None).chosen is None
    assert texts.catalogue_for("en").chosen == "en"  # asked for, even where English is default


def test_the_business_speaks_its_own_language_whoever_the_customer_is() -> None:
    """Words for the business's staff and riders (an errand's pickup text) are said in its
    default language from any customer's catalogue."""
    texts = Texts(locale="fr_CM")
    english = texts.catalogue_for("en")
    assert english.language == "en"
    assert english.for_business().language == "fr"
    assert english.for_business() is texts.business_catalogue()
    assert texts.business_catalogue().for_business() is texts.business_catalogue()


def test_a_business_gains_its_channels_words_on_its_own_object() -> None:
    """Each business holds its own ``BusinessTexts``: a channel registered on one adds its
    words there and nowhere else."""
    words = ChannelTexts(
        "pager", {"en": {"pager.hi": "Hi {name}"}, "fr": {"pager.hi": "Salut {name}"}}
    )
    one, other = BusinessTexts(Texts()), BusinessTexts(Texts(locale="fr_FR"))
    one.add_channels(words)
    assert one.catalogue_for("fr").say("pager.hi", name="Ada") == "Salut Ada"
    assert one.texts.channels == (words,)
    assert "pager.hi" not in other.business_catalogue().messages
    assert other.business_catalogue().money(1500, "EUR") == "1\u202f500\xa0EUR"


def test_an_override_replaces_a_message_for_that_language_only() -> None:
    texts = Texts(overrides={"en": {"desk.cancelled": "Order {ref} is off."}})
    english, french = texts.catalogue_for("en"), texts.catalogue_for("fr")
    assert english.say("desk.cancelled", ref="3F2A9C1E") == "Order 3F2A9C1E is off."
    assert french.say("desk.cancelled", ref="3F2A9C1E") == "La livraison 3F2A9C1E est annulée."


def test_wrong_overrides_are_named_with_what_is_wrong() -> None:
    found = problems_with(
        {
            "desk.nope": "Hi",
            "desk.cancelled": "Order {reference} is off.",
            "desk.none_yet": "Nothing yet.",
            "delivery.tracking": "Track {url",
        }
    )
    assert found == [
        ("desk.nope", "no such message id"),
        ("desk.cancelled", "unknown placeholder {reference} (the message has {ref})"),
        ("desk.cancelled", "drops the placeholder {ref} (the message has {ref})"),
        ("desk.none_yet", "drops the placeholder {new} (the message has {new})"),
        ("delivery.tracking", "not a valid template (expected '}' before end of string)"),
    ]
    with pytest.raises(ValueError, match=r"en.desk.nope: no such message id"):
        Texts(overrides={"en": {"desk.nope": "Hi"}})
    with pytest.raises(ValueError, match="xx: no such language"):
        Texts(overrides={"xx": {}})


# Messages French writes exactly as English: marks, punctuation, and words both languages share.
SAME_IN_FRENCH = frozenset(
    {
        "dialogue.way.choice",  # a mark: the channel words it
        "dialogue.way.command",
        "steps.way.choice",
        "dialogue.list_joiner",  # ", "
        "steps.place.way.joiner",
        "delivery.note",  # "• {note}"
        "dialogue.minutes",  # "{count} minutes"
        "steps.one_photo",  # "1 photo"
        "steps.photos",  # "{count} photos"
        "steps.title.photos",  # "Photos"
        "vehicle.tricycle",
        "flows.entry.title.service",
        "flows.pickup_delivery.title.fragile",
        "flows.errand.title.budget",
        "telegram.keyboard_removed",  # "OK."
        "console_web.channel.telegram",  # a name: "Telegram"
        "console_web.channel.console",  # "Console"
        "console_web.handoffs.latitude",  # "Latitude"
        "console_web.handoffs.longitude",
        "whatsapp.menu_button",  # "Menu"
    }
)


def test_every_french_message_is_translated_unless_it_is_the_same_word() -> None:
    """A message left in English in the French catalogue is a slip, unless listed above."""
    english, french = WHOLE["en"], WHOLE["fr"]
    untranslated = sorted(k for k, text in english.items() if french[k] == text)
    assert untranslated == sorted(SAME_IN_FRENCH)


def test_a_phone_example_is_joined_in_the_customers_language() -> None:
    assert " ou +234 " in example_phone(Texts().catalogue_for("fr"), "NG")
    assert " or +234 " in example_phone(Texts().catalogue_for("en"), "NG")


def test_a_channels_words_join_the_catalogue_only_where_the_channel_is_registered() -> None:
    words = ChannelTexts(
        "pager", {"en": {"pager.hi": "Hi {name}"}, "fr": {"pager.hi": "Salut {name}"}}
    )
    texts = Texts(overrides={"en": {"pager.hi": "Hello {name}"}}, channels=(words,))
    assert texts.catalogue_for("fr").say("pager.hi", name="Ada") == "Salut Ada"
    assert texts.catalogue_for("en").say("pager.hi", name="Ada") == "Hello Ada"
    assert Texts().with_channels(words).with_channels(words).channels == (words,)
    assert "pager.hi" not in Texts().catalogue_for("en").messages
    assert problems_with({"pager.hi": "Hi"}) == [("pager.hi", "no such message id")]
    assert problems_with({"pager.hi": "Hi"}, "en", (words,)) == [
        ("pager.hi", "drops the placeholder {name} (the message has {name})")
    ]


def test_a_channels_words_are_whole_and_take_no_id_already_said() -> None:
    with pytest.raises(ValueError, match="gives the languages"):
        ChannelTexts("pager", {"en": {"pager.hi": "Hi"}})
    with pytest.raises(ValueError, match=r"fr differs by \['pager.bye'\]"):
        ChannelTexts(
            "pager", {"en": {"pager.hi": "Hi", "pager.bye": "Bye"}, "fr": {"pager.hi": "Salut"}}
        )
    taken = ChannelTexts("pager", {"en": {"desk.busy": "Busy"}, "fr": {"desk.busy": "Occupé"}})
    with pytest.raises(ValueError, match="ids already taken"):
        Texts(channels=(taken,))
