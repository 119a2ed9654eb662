"""Phone numbers as the service wants them: E.164, parsed with ``phonenumbers``.

Customers type numbers the local way ("0803 123 4567"), with an international prefix ("00234
..."), or share a contact whose number lacks the "+" ("2348031234567"). All of them become
"+2348031234567" with the engine's default region; anything that is not a valid number is
refused with an example the customer can follow.
"""

from __future__ import annotations

import re

import phonenumbers

from conversations.texts.catalogue import Catalogue

_DIGITS = re.compile(r"\d+")


def _parsed(raw: str, region: str) -> phonenumbers.PhoneNumber | None:
    try:
        number = phonenumbers.parse(raw, region)
    except phonenumbers.NumberParseException:
        return None
    return number if phonenumbers.is_valid_number(number) else None


def normalise_phone(raw: str, region: str) -> str | None:
    """The number in E.164 (``+2348031234567``), or None when it is not a valid number."""
    text = raw.strip()
    if not text or len(text) > 40:
        return None
    if text.startswith("00"):
        text = "+" + text[2:]
    number = _parsed(text, region)
    if number is None and not text.startswith("+"):
        # A contact card's number often carries the country code without the "+".
        digits = "".join(_DIGITS.findall(text))
        if len(digits) >= 10:
            number = _parsed("+" + digits, region)
    if number is None:
        return None
    return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)


def example_phone(catalogue: Catalogue, region: str) -> str:
    """A mobile number of ``region`` written both ways, for hints: "0802 123 4567 or +234 ..."
    (in the turn's language)."""
    example = phonenumbers.example_number_for_type(region, phonenumbers.PhoneNumberType.MOBILE)
    if example is None:
        return "+234 802 123 4567"
    national = phonenumbers.format_number(example, phonenumbers.PhoneNumberFormat.NATIONAL)
    international = phonenumbers.format_number(
        example, phonenumbers.PhoneNumberFormat.INTERNATIONAL
    )
    return catalogue.say("steps.phone_example", national=national, international=international)
