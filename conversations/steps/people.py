"""People: a phone number (typed or from a shared contact), and a name that a shared contact
fills together with the phone.

A customer's own number (``own_contact``) may have to be proven: when the session names the
customer's account (``Session.sender_phone_owner``, ``[limits] verify_sender_phone``), it is
taken only from a shared contact whose ``user_id`` is that account (Telegram vouches for the
number then, as for the OTP hand-off); a typed number or someone else's contact is refused
with the reason.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from conversations.context import Context
from conversations.dialog import Answer, ContactAnswer, TextAnswer
from conversations.flow import Accept, Condition, Invalid, Next, Preset, Result, Step
from conversations.phones import example_phone, normalise_phone
from conversations.steps.common import Text, bounded, unexpected
from conversations.steps.typed import typed_step
from conversations.texts.said import Words, said

NAME_LENGTH = (2, 100)


def bad_phone(ctx: Context) -> Invalid:
    return Invalid(
        ctx.catalogue.say("steps.bad_phone", example=example_phone(ctx.catalogue, ctx.phone_region))
    )


def unproven_phone(ctx: Context, answer: Answer) -> Invalid | None:
    """Why ``answer`` cannot give the customer's own number when it must be proven (None: it
    may: nothing to prove, or their own contact)."""
    owner = ctx.session.sender_phone_owner
    if owner is None:
        return None
    if isinstance(answer, ContactAnswer):
        return (
            None
            if answer.user_id == owner
            else Invalid(ctx.catalogue.say("steps.sender.contact_not_own"))
        )
    return Invalid(ctx.catalogue.say("steps.sender.phone_not_typed"))


def phone(
    name: str,
    *,
    title: Words,
    question: Text,
    next: Next,
    optional: bool = False,
    when: Condition | None = None,
    depends_on: Sequence[str] = (),
    fields: Sequence[str] = (),
    preset: Callable[[Context], Preset | None] | None = None,
    own_contact: bool = False,
) -> Step:
    """A phone number, typed or from a shared contact, stored in E.164; ``preset`` gives
    the number taken without asking (a returning customer's own). ``own_contact``: the
    customer's own number, proven when the session asks (see the module docstring)."""

    def parse(ctx: Context, answer: Answer) -> Result:
        if own_contact and (refused := unproven_phone(ctx, answer)) is not None:
            return refused
        if isinstance(answer, ContactAnswer):
            raw = answer.phone
        elif isinstance(answer, TextAnswer):
            raw = answer.text
        else:
            return unexpected(ctx.catalogue, "steps.way.phone")
        number = normalise_phone(raw, ctx.phone_region)
        return Accept(number) if number else bad_phone(ctx)

    return typed_step(
        name,
        title=title,
        input="phone",
        question=question,
        accepts=("text", "contact"),
        parse=parse,
        next=next,
        optional=optional,
        when=when,
        depends_on=depends_on,
        fields=fields,
        help=said("steps.help.phone"),
        preset=preset,
    )


def person(
    name: str,
    *,
    title: Words,
    question: Text,
    phone_step: str,
    next: Next,
    when: Condition | None = None,
    depends_on: Sequence[str] = (),
    fields: Sequence[str] = (),
    preset: Callable[[Context], Preset | None] | None = None,
    own_contact: bool = False,
) -> Step:
    """A person's name; a shared contact gives the name and fills ``phone_step`` at once.
    ``preset`` gives the name taken without asking (a returning customer's own).
    ``own_contact``: the customer's own name; when their number must be proven, someone
    else's contact is refused and a number typed after the name is not taken (the phone
    step asks for their own contact).
    """

    def parse(ctx: Context, answer: Answer) -> Result:
        if isinstance(answer, TextAnswer):
            typed, number = _name_and_phone(answer.text, ctx.phone_region)
            value = bounded(ctx.catalogue, typed, *NAME_LENGTH, what="steps.what.name")
            if isinstance(value, str) and not _has_letter(value):
                return Invalid(ctx.catalogue.say("steps.name_needs_letter"))
            if isinstance(value, Invalid):
                return value
            # "Bola Ahmed 0802 222 3333": the phone typed after the name is not asked again
            # (unless the number must be proven: typed, it is not).
            if own_contact and unproven_phone(ctx, answer) is not None:
                return Accept(value)
            return Accept(value, fills={str(phone_step): number}) if number else Accept(value)
        if not isinstance(answer, ContactAnswer):
            return unexpected(ctx.catalogue, "steps.way.name")
        full = bounded(ctx.catalogue, answer.full_name, *NAME_LENGTH, what="steps.what.name")
        if isinstance(full, Invalid) or not _has_letter(full):
            return Invalid(ctx.catalogue.say("steps.no_usable_name"))
        if own_contact and (refused := unproven_phone(ctx, answer)) is not None:
            return refused  # someone else's contact: neither their name nor their number
        number = normalise_phone(answer.phone, ctx.phone_region)
        if number is None:
            return Accept(full, note=ctx.catalogue.say("steps.contact_phone_unusable"))
        return Accept(full, fills={str(phone_step): number})

    return typed_step(
        name,
        title=title,
        input="contact",
        question=question,
        accepts=("text", "contact"),
        parse=parse,
        next=next,
        optional=False,
        when=when,
        depends_on=depends_on,
        fields=fields,
        help=said("steps.help.person"),
        preset=preset,
    )


_PHONE_TAIL = re.compile(r"^(?P<name>.*?[^\d\s+()-].*?)[\s,;:]+(?P<phone>\+?[\d\s()-]{7,})$")


def _name_and_phone(text: str, region: str) -> tuple[str, str | None]:
    """A name typed with a phone number after it (``Ada Obi 0803 123 4567``): the name and the
    number in E.164; the text and None when it ends with no valid number."""
    found = _PHONE_TAIL.match(text.strip())
    if found is None:
        return text, None
    number = normalise_phone(found["phone"], region)
    return (found["name"], number) if number else (text, None)


def _has_letter(name: str) -> bool:
    """A name has at least one letter, in any script ("😀😀" or "123" names nobody)."""
    return any(character.isalpha() for character in name)
