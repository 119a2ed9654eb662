"""A business's texts as its runtime holds them: one object per business, passed, never global.

``BusinessTexts`` starts from the business's ``Texts`` (its ``[texts]`` locale and overrides)
and gains each channel's own words as the channel registers (``add_channels``, before the bot
starts). Every part of the business that speaks holds this one object and picks the catalogue
of what it says from it: a customer's turn in their client's language (``catalogue_for``), a
delivery's news in the language its order was placed in, staff's words in the business's
default (``business_catalogue``) or, in the web console, the member's own choice. Two
businesses in one process hold two of them.

The catalogues themselves may be shared: a host of many businesses gives each one's
``BusinessTexts`` its ``SharedTexts``, and businesses whose texts are equal (the same
``[texts]`` and channels: most of them, with no overrides) then read one ``Texts`` and its
catalogues (about 170 KB and 3,000 objects each) instead of each building its own. A catalogue
is never changed once built (what it keeps on first use, ``Catalogue.derived``, is read off its
messages, so the same for every business sharing it).
"""

from __future__ import annotations

import weakref

from conversations.texts.catalogue import Catalogue, ChannelTexts, Texts

_Key = tuple[str, str, tuple[str, ...], tuple[tuple[str, tuple[tuple[str, str], ...]], ...]]


class SharedTexts:
    """The ``Texts`` the businesses of one process share, by what they say: ``same`` answers
    an equal one already held, else keeps the one given. Held weakly: the texts of businesses
    no longer built go with the last of them."""

    def __init__(self) -> None:
        self._held: weakref.WeakValueDictionary[_Key, Texts] = weakref.WeakValueDictionary()

    def same(self, texts: Texts) -> Texts:
        """An equal ``Texts`` held already (its catalogues built once for all), or ``texts``
        itself, held from now on."""
        key = _key_of(texts)
        held = self._held.get(key)
        if held is not None and held == texts:
            return held
        if held is None:
            self._held[key] = texts
        return texts


def _key_of(texts: Texts) -> _Key:
    overrides = tuple(
        (language, tuple(sorted(table.items())))
        for language, table in sorted(texts.overrides.items())
    )
    channels = tuple(channel.name for channel in texts.channels)
    return (texts.locale, texts.service_language, channels, overrides)


class BusinessTexts:
    """The business's ``Texts``, to which registered channels add their words; ``shared``:
    the host's, whose equal texts (and catalogues) this business reads instead of its own."""

    def __init__(self, texts: Texts, shared: SharedTexts | None = None) -> None:
        self._shared = shared
        self._texts = self._same(texts)

    @property
    def texts(self) -> Texts:
        """The business's catalogues as they are now (the channels registered so far)."""
        return self._texts

    def add_channels(self, *channels: ChannelTexts) -> None:
        """Add ``channels``' own words (a channel registered already is kept as it is)."""
        self._texts = self._same(self._texts.with_channels(*channels))

    def _same(self, texts: Texts) -> Texts:
        return texts if self._shared is None else self._shared.same(texts)

    def catalogue_for(self, language_code: str | None) -> Catalogue:
        """The catalogue for a customer whose client says ``language_code`` (None: the
        business default)."""
        return self._texts.catalogue_for(language_code)

    def business_catalogue(self) -> Catalogue:
        """The catalogue in the business's default language (staff, alerts)."""
        return self._texts.business_catalogue()
