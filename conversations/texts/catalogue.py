"""The message catalogue: every sentence by a stable id, in each shipped language, with the
business's overrides, and the language a turn is spoken in.

A message is a ``str.format`` template with named placeholders (``"Delivery {ref} is
cancelled."``); ``catalogue.say("desk.cancelled", ref="3F2A9C1E")`` renders one in that
catalogue's language. Templates are parsed once, when a catalogue is built, so rendering is a
dict lookup and one ``format_map``: nothing is read from a file per message.

Money and numbers are formatted by Babel in the catalogue's locale (``Catalogue.money``,
``number``, ``day``): a French customer of a Nigerian business reads ``1 500 NGN``, an English
one ``NGN 1,500``.

Who picks the language: a business's ``Texts`` (its locale and ``[texts]`` overrides, built
from its config) is held by its runtime, never by this module; whoever handles a customer's
input (the Telegram adapter per update, the console per line, the agents' door) picks that
customer's ``Catalogue`` with ``Texts.catalogue_for(language_code)`` and passes it down: flows
read it from their step ``Context``, the texts helpers take it as their first argument. Outside
any turn (operator alerts) the business's default language is spoken
(``Texts.business_catalogue``); what is said to a customer later (the relay's news of a
delivery) is said in the language they ordered in, kept with the delivery
(``Catalogue.chosen``).

The catalogue holds the core's messages (``messages_en``, ``messages_fr``: everything said about
an order or a delivery, whatever the channel). A channel's own words (Telegram's greeting and
buttons, the console's typing hints, the map page's labels) live with the channel, in its own
texts module (``bot/telegram/telegram_texts.py``), as a ``ChannelTexts``: the business's
``Texts`` is composed of the core's messages and the tables of the channels registered on it
(``Texts(channels=...)``, ``with_channels``), so ``Catalogue.say`` renders a channel's words
in the customer's language and ``[texts]`` overrides reach them like any other message.
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from functools import cache, lru_cache

from babel import Locale, UnknownLocaleError
from babel.dates import format_date
from babel.numbers import NumberPattern, format_decimal, parse_pattern

from conversations.texts import messages_en, messages_fr

DEFAULT_LOCALE = "en_NG"

SHIPPED: Mapping[str, Mapping[str, str]] = {
    "en": messages_en.MESSAGES,
    "fr": messages_fr.MESSAGES,
}
"""The shipped catalogues by language; English is the source every other one translates."""

SOURCE_LANGUAGE = "en"


@dataclass(frozen=True)
class ChannelTexts:
    """One channel's own words, by language (``{"en": {...}, "fr": {...}}``), registered on a
    business's ``Texts`` beside the core's messages.

    A channel says them with the same ``say``; ids are ``<channel>.<name>`` by custom. Every
    shipped language is given, with the source language's ids exactly (the tests also check
    placeholders and translations, as for the core's messages).
    """

    name: str
    messages: Mapping[str, Mapping[str, str]] = field(repr=False)

    def __post_init__(self) -> None:
        languages = sorted(self.messages)
        if languages != sorted(SHIPPED):
            raise ValueError(
                f"channel {self.name!r} gives the languages {languages}, not {sorted(SHIPPED)}"
            )
        source = set(self.messages[SOURCE_LANGUAGE])
        for language, table in self.messages.items():
            if set(table) != source:
                differ = sorted(set(table) ^ source)
                raise ValueError(f"channel {self.name!r}: {language} differs by {differ}")


def shipped_messages(language: str, channels: Sequence[ChannelTexts] = ()) -> dict[str, str]:
    """The messages shipped in ``language`` (a shipped one): the core's, then each channel's."""
    messages = dict(SHIPPED[language])
    for channel in channels:
        messages.update(channel.messages[language])
    return messages


def placeholders(template: str) -> frozenset[str]:
    """The named placeholders of ``template`` (``{ref}`` -> ``ref``); raises ``ValueError`` for
    a template ``str.format`` could not render (an unclosed brace, a positional ``{}``)."""
    names = set()
    for _, name, _, _ in string.Formatter().parse(template):
        if name is None:
            continue
        if not name.isidentifier():
            raise ValueError(f"placeholder {{{name}}} is not a name")
        names.add(name)
    return frozenset(names)


@dataclass(frozen=True)
class Catalogue:
    """One language of one business, ready to render: its messages, and ``locale`` to format
    money, numbers and days. A turn is said from the one its entry point picked
    (``Texts.catalogue_for``) and passed down; nothing reads a catalogue from elsewhere.

    ``chosen`` is the shipped language the customer's client asked for (``fr``), None when
    this is the business default because they named none or one not shipped: a delivery keeps
    it, so what is said to its customer later (the relay's news) is said in it, and None keeps
    following the business default should its locale change. ``for_business`` is the same
    business's catalogue in its own default language (what its staff and riders read).
    """

    language: str
    locale: str
    messages: Mapping[str, str]
    fields: Mapping[str, frozenset[str]] = field(repr=False)
    chosen: str | None = None
    business: Catalogue | None = field(default=None, repr=False, compare=False)
    # What is read off the messages on first use and kept with them (the words a keyword is
    # typed as, ``conversations.keywords``): each typed answer would derive it again.
    derived: dict[str, frozenset[str]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    @classmethod
    def build(
        cls,
        language: str,
        locale: str,
        messages: Mapping[str, str],
        *,
        chosen: str | None = None,
        business: Catalogue | None = None,
    ) -> Catalogue:
        """A catalogue of ``messages``; every template is parsed here, once."""
        return cls(
            language,
            locale,
            dict(messages),
            {k: placeholders(v) for k, v in messages.items()},
            chosen,
            business,
        )

    def say(self, message_id: str, /, **values: object) -> str:
        """Message ``message_id`` with its placeholders filled from ``values``."""
        return self.messages[message_id].format_map(values)

    def for_business(self) -> Catalogue:
        """The business's catalogue in its default language, whoever's turn this is: words the
        service's staff and riders read in a request (an errand's pickup text), not the
        customer."""
        return self.business or self

    def money(self, amount: float, currency: str) -> str:
        """An amount with its currency, as this locale writes it: ``NGN 1,500``,
        ``NGN 1,500.50`` (minor units only when there are any), ``1 500 NGN`` in French."""
        return _money(float(amount), currency, self.locale)

    def number(self, value: float, pattern: str | None = None) -> str:
        """A number as this locale writes it (``2.5`` / ``2,5``); ``pattern`` is a Babel
        number pattern (``"0.0"``: one decimal always)."""
        return format_decimal(value, format=pattern, locale=self.locale)

    def day(self, when: date) -> str:
        """A day as this locale writes it, short (``07 Jan 2027`` / ``07 janv. 2027``)."""
        return format_date(when, "dd MMM yyyy", locale=self.locale)


def problems_with(
    overrides: Mapping[str, str],
    language: str = SOURCE_LANGUAGE,
    channels: Sequence[ChannelTexts] = (),
) -> list[tuple[str, str]]:
    """What is wrong with each override of the ``language`` catalogue: ``(message id, why)``.

    An override must name a shipped message (the core's, or one of ``channels``'), and use
    exactly that message's placeholders: an unknown one could not be filled, and a dropped one
    would hide what the customer must read (a reference, an amount, a link).
    """
    shipped = shipped_messages(language if language in SHIPPED else SOURCE_LANGUAGE, channels)
    found = []
    for message_id, template in overrides.items():
        if message_id not in shipped:
            found.append((message_id, "no such message id"))
            continue
        try:
            used = placeholders(template)
        except ValueError as error:
            found.append((message_id, f"not a valid template ({error})"))
            continue
        wanted = placeholders(shipped[message_id])
        unknown, missing = sorted(used - wanted), sorted(wanted - used)
        if unknown:
            found.append((message_id, f"unknown placeholder {_braced(unknown)}" + _has(wanted)))
        if missing:
            found.append((message_id, f"drops the placeholder {_braced(missing)}" + _has(wanted)))
    return found


def _braced(names: list[str]) -> str:
    return ", ".join("{" + name + "}" for name in names)


def _has(wanted: frozenset[str]) -> str:
    return f" (the message has {_braced(sorted(wanted))})" if wanted else " (the message has none)"


@dataclass(frozen=True)
class Texts:
    """A business's catalogues: the shipped languages with its overrides, and its locale.

    Each language's messages are the core's and those of ``channels`` (the channels' own
    words, ``ChannelTexts``), then the business's ``overrides`` of any of them.

    ``locale`` (``en_NG``) is the business's language and region: its language is the default
    for customers whose own is missing or not shipped, and its region formats every language's
    money and numbers (``fr`` for a Nigerian business formats as ``fr_NG`` where Babel knows it).
    ``service_language`` is the language of the service's own sentences (``[texts]``).
    """

    locale: str = DEFAULT_LOCALE
    overrides: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    service_language: str = SOURCE_LANGUAGE
    """The language the delivery service writes its ``customer_message_hint`` in: a hint is
    passed on only to customers reading that language."""
    channels: tuple[ChannelTexts, ...] = ()
    """The channels' own words, beside the core's (``with_channels`` adds more)."""
    _by_code: dict[str | None, Catalogue] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    _built: dict[str | None, Catalogue] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        _check_distinct(self.channels)
        wrong = [
            f"{language}.{message_id}: {why}"
            for language, table in self.overrides.items()
            for message_id, why in problems_with(table, language, self.channels)
        ]
        unknown = [language for language in self.overrides if language not in SHIPPED]
        if wrong or unknown:
            raise ValueError("; ".join(wrong + [f"{code}: no such language" for code in unknown]))

    def with_channels(self, *channels: ChannelTexts) -> Texts:
        """These catalogues with ``channels``' words too (a channel registered already, by
        name, is kept as it is)."""
        known = {channel.name for channel in self.channels}
        added = tuple(channel for channel in channels if channel.name not in known)
        return replace(self, channels=self.channels + added) if added else self

    @property
    def default_language(self) -> str:
        language = Locale.parse(self.locale).language
        return language if language in SHIPPED else SOURCE_LANGUAGE

    def catalogue_for(self, language_code: str | None = None) -> Catalogue:
        """The catalogue for a customer whose client says ``language_code`` (``fr``, ``fr-CA``,
        ``en_GB``), or the business default when it is missing or not shipped."""
        found = self._by_code.get(language_code)
        if found is not None:  # every turn asks: answered from a dict after the first time
            return found
        chosen = _shipped_language(language_code)
        built = self._built_for(chosen)
        if len(self._by_code) < _CODES_KEPT:
            self._by_code[language_code] = built
        return built

    def business_catalogue(self) -> Catalogue:
        """The catalogue in the business's default language: what is said outside any
        customer's turn (operator alerts) and to its staff."""
        return self.catalogue_for(None)

    def _built_for(self, chosen: str | None) -> Catalogue:
        built = self._built.get(chosen)
        if built is not None:
            return built
        language = chosen or self.default_language
        business = None if chosen is None else self._built_for(None)
        messages = {**shipped_messages(language, self.channels), **self.overrides.get(language, {})}
        built = Catalogue.build(
            language,
            _formatting_locale(language, self.locale),
            messages,
            chosen=chosen,
            business=business,
        )
        self._built[chosen] = built
        return built


_CODES_KEPT = 256  # language codes remembered (a client may send any string)


def _check_distinct(channels: Sequence[ChannelTexts]) -> None:
    """Each channel once, and no id said by two tables: an id names one sentence."""
    names = [channel.name for channel in channels]
    if len(set(names)) != len(names):
        raise ValueError(f"a channel's words are given twice: {sorted(names)}")
    seen = set(SHIPPED[SOURCE_LANGUAGE])
    for channel in channels:
        clash = sorted(seen & set(channel.messages[SOURCE_LANGUAGE]))
        if clash:
            raise ValueError(f"channel {channel.name!r} says ids already taken: {clash}")
        seen |= set(channel.messages[SOURCE_LANGUAGE])


def _shipped_language(code: str | None) -> str | None:
    if not code:
        return None
    language = code.replace("-", "_").split("_")[0].casefold()
    return language if language in SHIPPED else None


def _formatting_locale(language: str, business_locale: str) -> str:
    territory = Locale.parse(business_locale).territory
    if territory:
        try:
            return str(Locale(language, territory))
        except UnknownLocaleError:
            pass
    return business_locale if Locale.parse(business_locale).language == language else language


DEFAULT_TEXTS = Texts()
"""The shipped catalogues in ``en_NG`` with no overrides and no channel's words."""


@cache
def _currency_patterns(locale: str) -> tuple[Locale, NumberPattern, NumberPattern]:
    """The locale's currency pattern with the ISO code (never a symbol several currencies
    share), parsed once: (the locale, whole amounts, amounts with minor units)."""
    parsed = Locale.parse(locale)
    pattern = parsed.currency_formats["standard"].pattern.split(";")[0]
    if pattern.startswith("¤") and not pattern.startswith("¤\xa0"):
        pattern = "¤ " + pattern[1:]
    pattern = pattern.replace("¤", "¤¤")
    return parsed, parse_pattern(pattern.replace(".00", "")), parse_pattern(pattern)


@lru_cache(maxsize=4096)  # a business's fees repeat: most amounts are said many times
def _money(amount: float, currency: str, locale: str) -> str:
    parsed, whole, fractional = _currency_patterns(locale)
    if amount.is_integer():
        said: str = whole.apply(amount, parsed, currency=currency, currency_digits=False)
        return said
    said = fractional.apply(amount, parsed, currency=currency)
    return said
