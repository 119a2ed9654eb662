"""Steps answered by typing: free ``text``, an optional ``email``, an ``amount`` of money, and
``typed_step``, the shape they share (phones and names are in ``people``)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from pydantic import JsonValue

from conversations.context import Context
from conversations.dialog import Answer, AnswerKind, ChoiceAnswer, InputKind, TextAnswer
from conversations.flow import (
    Accept,
    Ask,
    Condition,
    Invalid,
    Next,
    Preset,
    Question,
    Result,
    Step,
    Write,
    describe_plain,
)
from conversations.rules import format_money
from conversations.steps.common import (
    Offer,
    Text,
    bounded,
    clean,
    question_text,
    unexpected,
    value_writer,
)
from conversations.texts.said import Words, said, words

_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
_AMOUNT = re.compile(r"^\d+(\.\d{1,2})?$")


def typed_step(
    name: str,
    *,
    title: Words,
    input: InputKind,
    question: Text,
    accepts: tuple[AnswerKind, ...],
    parse: Callable[[Context, Answer], Result],
    next: Next,
    optional: bool,
    when: Condition | None,
    depends_on: Sequence[str],
    fields: Sequence[str],
    help: Words,
    write: Write | None = None,
    describe: Callable[[Context, JsonValue], str] | None = None,
    skip_value: JsonValue = "",
    preset: Callable[[Context], Preset | None] | None = None,
) -> Step:
    """A step answered by typing (or sharing) rather than tapping; ``parse`` reads the answer.
    The answer is the value of each of ``fields`` unless ``write`` says otherwise."""

    def ask(ctx: Context) -> Ask:
        return Question(
            question_text(question, ctx),
            accepts=accepts,
            allow_skip=optional,
        )

    async def accept(ctx: Context, answer: Answer) -> Result:
        return parse(ctx, answer)

    return Step(
        name=str(name),
        title=title,
        input=input,
        ask=ask,
        accept=accept,
        next=next,
        when=when,
        depends_on=tuple(str(d) for d in depends_on),
        fields=tuple(fields),
        write=write or value_writer(fields),
        help=help,
        skip_value=skip_value,
        describe=describe or describe_plain,
        preset=preset,
    )


def text(
    name: str,
    *,
    title: Words,
    question: Text,
    next: Next,
    length: tuple[int, int] = (1, 500),
    optional: bool = False,
    when: Condition | None = None,
    depends_on: Sequence[str] = (),
    fields: Sequence[str] = (),
    write: Write | None = None,
    help: Words = "",
) -> Step:
    """Free text, cleaned and kept within ``length``; skipping (when optional) gives ""."""

    def parse(ctx: Context, answer: Answer) -> Result:
        if not isinstance(answer, TextAnswer):
            return unexpected(ctx.catalogue, "steps.way.answer")
        value = bounded(
            ctx.catalogue, answer.text, *length
        )  # titles ("What to buy") do not read as nouns
        return value if isinstance(value, Invalid) else Accept(value)

    return typed_step(
        name,
        title=title,
        input="text",
        question=question,
        accepts=("text",),
        parse=parse,
        next=next,
        optional=optional,
        when=when,
        depends_on=depends_on,
        fields=fields,
        write=write,
        help=help,
    )


def email(
    name: str,
    *,
    title: Words,
    question: Text,
    next: Next,
    fields: Sequence[str],
    ask: bool = True,
) -> Step:
    """An optional email address: valid, or skipped (stored as ""). Without ``ask`` it is
    left out on the way (taken as "") and offered from the summary instead."""

    def parse(ctx: Context, answer: Answer) -> Result:
        if not isinstance(answer, TextAnswer):
            return unexpected(ctx.catalogue, "steps.way.email")
        value = clean(answer.text)
        if len(value) > 200 or not _EMAIL.match(value):
            return Invalid(ctx.catalogue.say("steps.bad_email"))
        return Accept(value)

    def describe(ctx: Context, value: JsonValue) -> str:
        return str(value) if value else ctx.catalogue.say("steps.none")

    return typed_step(
        name,
        title=title,
        input="text",
        question=question,
        accepts=("text",),
        parse=parse,
        next=next,
        optional=True,
        when=None,
        depends_on=(),
        fields=fields,
        help=said("steps.help.email"),
        describe=describe,
        preset=None if ask else _no_email,
    )


def _no_email(ctx: Context) -> Preset:
    return Preset("")


def parse_amount(raw: str) -> float | None:
    """A positive amount from "5000", "5,000", "NGN 5 000.50" or "₦5000"; None otherwise."""
    digits = re.sub(r"[^\d.]", "", raw.replace(",", ""))
    if not _AMOUNT.match(digits):
        return None
    value = float(digits)
    return value if value > 0 else None


def amount_value(value: JsonValue) -> float | None:
    """An amount step's answer as a number (None when there is none)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def amount(
    name: str,
    *,
    title: Words,
    question: Text,
    next: Next,
    maximum: float,
    write: Write,
    none_option: Offer | None = None,
    none_preset: bool = False,
    optional: bool = False,
    when: Condition | None = None,
    fields: Sequence[str] = (),
) -> Step:
    """An amount of money in the org's currency; ``none_option`` (or skipping) gives None.
    With ``none_preset`` no amount (None) is taken without asking, changed from the summary.
    How an amount reaches the request differs (a number, a text, a flag beside it), so the
    step is always given its ``write``."""

    def ask(ctx: Context) -> Ask:
        return Question(
            question_text(question, ctx),
            accepts=("text", "choice") if none_option else ("text",),
            options=(none_option.now(ctx.catalogue),) if none_option else (),
            allow_skip=optional,
        )

    async def accept(ctx: Context, answer: Answer) -> Result:
        if isinstance(answer, ChoiceAnswer):
            return Accept(None)
        if not isinstance(answer, TextAnswer):
            return unexpected(ctx.catalogue, "steps.way.amount")
        value = parse_amount(answer.text)
        if value is None:
            example = format_money(ctx.catalogue, 5000, ctx.caps.currency)
            return Invalid(
                ctx.catalogue.say(
                    "steps.amount_format", currency=ctx.caps.currency, example=example
                )
            )
        if value > maximum:
            limit = format_money(ctx.catalogue, maximum, ctx.caps.currency)
            return Invalid(ctx.catalogue.say("steps.amount_too_high", limit=limit))
        return Accept(int(value) if value.is_integer() else value)

    def describe(ctx: Context, value: JsonValue) -> str:
        number = amount_value(value)
        if number is not None:
            return format_money(ctx.catalogue, number, ctx.caps.currency)
        return (
            words(none_option.label, ctx.catalogue)
            if none_option
            else ctx.catalogue.say("steps.none")
        )

    return Step(
        name=str(name),
        title=title,
        input="text",
        ask=ask,
        accept=accept,
        next=next,
        when=when,
        fields=tuple(fields),
        write=write,
        describe=describe,
        help=said("steps.help.amount"),
        preset=_no_amount if none_preset else None,
    )


def _no_amount(ctx: Context) -> Preset:
    return Preset(None)
