"""The languages a staff member may read the console in: the shipped ones, each named in its
own words (``console_web.language.own_name`` of its own catalogue, so a business's ``[texts]``
override of a name reaches the form too)."""

from __future__ import annotations

from typing import Final

from conversations.texts.business_texts import BusinessTexts
from conversations.texts.catalogue import SHIPPED

OWN_NAME: Final = "console_web.language.own_name"


def console_languages(texts: BusinessTexts) -> list[tuple[str, str]]:
    """Each shipped language's code and its own name, by code (``[("en", "English"),
    ("fr", "Français")]``)."""
    return [(code, texts.catalogue_for(code).say(OWN_NAME)) for code in sorted(SHIPPED)]
