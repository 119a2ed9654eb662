"""A business's texts as its runtime holds them: one object per business, passed, never global.

``BusinessTexts`` starts from the business's ``Texts`` (its ``[texts]`` locale and overrides)
and gains each channel's own words as the channel registers (``add_channels``, before the bot
starts). Every part of the business that speaks holds this one object and picks the catalogue
of what it says from it: a customer's turn in their client's language (``catalogue_for``), a
delivery's news in the language its order was placed in, staff's words in the business's
default (``business_catalogue``) or, in the web console, the member's own choice. Two
businesses in one process hold two of them.
"""

from __future__ import annotations

from conversations.texts.catalogue import Catalogue, ChannelTexts, Texts


class BusinessTexts:
    """The business's ``Texts``, to which registered channels add their words."""

    def __init__(self, texts: Texts) -> None:
        self._texts = texts

    @property
    def texts(self) -> Texts:
        """The business's catalogues as they are now (the channels registered so far)."""
        return self._texts

    def add_channels(self, *channels: ChannelTexts) -> None:
        """Add ``channels``' own words (a channel registered already is kept as it is)."""
        self._texts = self._texts.with_channels(*channels)

    def catalogue_for(self, language_code: str | None) -> Catalogue:
        """The catalogue for a customer whose client says ``language_code`` (None: the
        business default)."""
        return self._texts.catalogue_for(language_code)

    def business_catalogue(self) -> Catalogue:
        """The catalogue in the business's default language (staff, alerts)."""
        return self._texts.business_catalogue()
