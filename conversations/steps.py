"""Reusable steps: choice, yes/no, text, email, amount, lookup and the summary (phone and person
are in ``contacts``, photos in ``photos``, places in ``place_steps``). Each builder returns a
``Step``; a flow file only says what to ask.

Every text that reaches the service is trimmed, its inner whitespace collapsed, and bounded,
so a create never fails on length.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence

from pydantic import JsonValue

from conversations.context import Context
from conversations.dialog import (
    CONFIRM,
    Answer,
    AnswerKind,
    ChoiceAnswer,
    InputKind,
    Option,
    TextAnswer,
)
from conversations.flow import (
    CREATE,
    Accept,
    Ask,
    AutoAnswer,
    Condition,
    FlowError,
    Invalid,
    Next,
    Question,
    Result,
    Step,
    Stop,
    Target,
    describe_plain,
)
from conversations.rules import format_money

Text = str | Callable[[Context], str]
Options = Sequence[Option] | Callable[[Context], Sequence[Option]]

_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
_AMOUNT = re.compile(r"^\d+(\.\d{1,2})?$")


def question_text(text: Text, ctx: Context) -> str:
    """A question given as text, or as a function of the context."""
    return text(ctx) if callable(text) else text


def _options(options: Options, ctx: Context) -> list[Option]:
    return list(options(ctx) if callable(options) else options)


def clean(raw: str) -> str:
    """Trimmed, with runs of whitespace (newlines too) made one space."""
    return " ".join(raw.split())


def bounded(raw: str, low: int, high: int, what: str = "answer") -> str | Invalid:
    """``raw`` cleaned, or the reason it is too short or too long."""
    text = clean(raw)
    if len(text) < low:
        return Invalid(f"That's too short: please type at least {low} characters.")
    if len(text) > high:
        return Invalid(f"Please keep the {what} under {high} characters (that was {len(text)}).")
    return text


def unexpected(kinds: str) -> Invalid:
    """The reason for an answer of a kind the step does not take."""
    return Invalid(f"Please {kinds}.")


def _describe_as_label(options: Options) -> Callable[[Context, JsonValue], str]:
    def describe(ctx: Context, value: JsonValue) -> str:
        for option in _options(options, ctx):
            if option.id == value:
                return option.label
        return str(value)

    return describe


def choice(
    name: str,
    *,
    title: str,
    question: Text,
    options: Options,
    next: Next,
    default: Callable[[Context], str | None] | None = None,
    single: str | None = None,
    empty: Text | None = None,
    when: Condition | None = None,
    skip_to: Target | None = None,
    depends_on: Sequence[str] = (),
    fields: Sequence[str] = (),
    help: str = "",
) -> Step:
    """Pick one option. With ``single``, a lone option answers itself (``{label}`` in the note);
    with ``empty``, no option at all stops the flow with that message."""

    def ask(ctx: Context) -> Ask:
        offered = _options(options, ctx)
        if not offered:
            if empty is None:
                raise FlowError(f"{name}: no option to offer")
            return Stop(question_text(empty, ctx))
        if single is not None and len(offered) == 1:
            return AutoAnswer(offered[0].id, single.format(label=offered[0].label))
        picked = default(ctx) if default else None
        return Question(
            question_text(question, ctx),
            accepts=("choice",),
            options=tuple(offered),
            default=picked if any(o.id == picked for o in offered) else None,
        )

    async def accept(ctx: Context, answer: Answer) -> Result:
        if isinstance(answer, ChoiceAnswer):
            return Accept(answer.option)
        return unexpected("tap one of the options")

    def still_valid(ctx: Context, value: JsonValue) -> bool:
        return any(option.id == value for option in _options(options, ctx))

    return Step(
        name=str(name),
        title=title,
        input="choice",
        ask=ask,
        accept=accept,
        next=next,
        when=when,
        skip_to=skip_to,
        depends_on=tuple(str(d) for d in depends_on),
        fields=tuple(fields),
        help=help,
        describe=_describe_as_label(options),
        still_valid=still_valid,
    )


YES_NO = (Option(id="yes", label="Yes"), Option(id="no", label="No"))


def yes_no(
    name: str,
    *,
    title: str,
    question: Text,
    next: Next,
    options: Sequence[Option] = YES_NO,
    when: Condition | None = None,
    skip_to: Target | None = None,
    fields: Sequence[str] = (),
    depends_on: Sequence[str] = (),
) -> Step:
    """A choice between the ids "yes" and "no" (labels may say it more kindly)."""
    if {o.id for o in options} != {"yes", "no"}:
        raise FlowError(f"{name}: yes_no options must have the ids yes and no")
    return choice(
        name,
        title=title,
        question=question,
        options=options,
        next=next,
        when=when,
        skip_to=skip_to,
        fields=fields,
        depends_on=depends_on,
    )


def typed_step(
    name: str,
    *,
    title: str,
    input: InputKind,
    question: Text,
    accepts: tuple[AnswerKind, ...],
    parse: Callable[[Context, Answer], Result],
    next: Next,
    optional: bool,
    when: Condition | None,
    depends_on: Sequence[str],
    fields: Sequence[str],
    help: str,
    describe: Callable[[Context, JsonValue], str] | None = None,
    skip_value: JsonValue = "",
) -> Step:
    """A step answered by typing (or sharing) rather than tapping; ``parse`` reads the answer."""

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
        help=help,
        skip_value=skip_value,
        describe=describe or describe_plain,
    )


def text(
    name: str,
    *,
    title: str,
    question: Text,
    next: Next,
    length: tuple[int, int] = (1, 500),
    optional: bool = False,
    when: Condition | None = None,
    depends_on: Sequence[str] = (),
    fields: Sequence[str] = (),
    help: str = "",
) -> Step:
    """Free text, cleaned and kept within ``length``; skipping (when optional) gives ""."""

    def parse(ctx: Context, answer: Answer) -> Result:
        if not isinstance(answer, TextAnswer):
            return unexpected("type your answer")
        value = bounded(answer.text, *length)  # titles ("What to buy") do not read as nouns
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
        help=help,
    )


def email(name: str, *, title: str, question: Text, next: Next, fields: Sequence[str]) -> Step:
    """An optional email address: valid, or skipped (stored as "")."""

    def parse(ctx: Context, answer: Answer) -> Result:
        if not isinstance(answer, TextAnswer):
            return unexpected("type an email address, or skip")
        value = clean(answer.text)
        if len(value) > 200 or not _EMAIL.match(value):
            return Invalid("That doesn't look like an email address (like name@example.com).")
        return Accept(value)

    def describe(ctx: Context, value: JsonValue) -> str:
        return str(value) if value else "none"

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
        help="Type an email address for updates, or skip it.",
        describe=describe,
    )


def parse_amount(raw: str) -> float | None:
    """A positive amount from "5000", "5,000", "NGN 5 000.50" or "₦5000"; None otherwise."""
    digits = re.sub(r"[^\d.]", "", raw.replace(",", ""))
    if not _AMOUNT.match(digits):
        return None
    value = float(digits)
    return value if value > 0 else None


def amount(
    name: str,
    *,
    title: str,
    question: Text,
    next: Next,
    maximum: float,
    none_option: Option | None = None,
    optional: bool = False,
    when: Condition | None = None,
    fields: Sequence[str] = (),
) -> Step:
    """An amount of money in the org's currency; ``none_option`` (or skipping) gives None."""

    def ask(ctx: Context) -> Ask:
        return Question(
            question_text(question, ctx),
            accepts=("text", "choice") if none_option else ("text",),
            options=(none_option,) if none_option else (),
            allow_skip=optional,
        )

    async def accept(ctx: Context, answer: Answer) -> Result:
        if isinstance(answer, ChoiceAnswer):
            return Accept(None)
        if not isinstance(answer, TextAnswer):
            return unexpected("type an amount")
        value = parse_amount(answer.text)
        if value is None:
            return Invalid("Please type an amount in numbers, like 5000.")
        if value > maximum:
            limit = format_money(maximum, ctx.caps.currency)
            return Invalid(f"Please type an amount up to {limit}.")
        return Accept(int(value) if value.is_integer() else value)

    def describe(ctx: Context, value: JsonValue) -> str:
        if isinstance(value, int | float) and not isinstance(value, bool):
            return format_money(value, ctx.caps.currency)
        return none_option.label if none_option else "none"

    return Step(
        name=str(name),
        title=title,
        input="text",
        ask=ask,
        accept=accept,
        next=next,
        when=when,
        fields=tuple(fields),
        describe=describe,
        help="Type the amount in numbers, like 5000.",
    )


def lookup(
    name: str,
    *,
    title: str,
    find: Callable[[Context], Awaitable[AutoAnswer | Stop]],
    next: Next,
) -> Step:
    """A step the bot answers itself with what ``find`` looks up through a service (the
    customer's last order, say); the customer is never asked. The answer's value routes
    ``next``; its ``fills`` answer later steps, which the walk then passes over (they can still
    be changed from the summary). A ``Stop`` ends the flow with its message."""

    async def ask(ctx: Context) -> Ask:
        return await find(ctx)

    async def accept(ctx: Context, answer: Answer) -> Result:
        return unexpected("wait a moment")  # never asked: find answers or stops

    return Step(
        name=str(name),
        title=title,
        input="choice",
        ask=ask,
        accept=accept,
        next=next,
        summarize=False,
        editable=False,
    )


def summary(
    name: str,
    *,
    title: str,
    heading: Text,
    hints: Callable[[Context], list[str]],
) -> Step:
    """The draft, every answer on a line, the fee hints, and Confirm (or Change ...)."""

    def ask(ctx: Context) -> Ask:
        lines = [question_text(heading, ctx)]
        lines += [f"• {label}: {value}" for label, value in ctx.summary_lines()]
        lines += ["", *hints(ctx)]
        retry = ctx.session.idempotency_key is not None
        label = "Try sending it again" if retry else "Confirm and send"
        return Question(
            "\n".join(lines), accepts=("choice",), options=(Option(id=CONFIRM, label=label),)
        )

    async def accept(ctx: Context, answer: Answer) -> Result:
        if isinstance(answer, ChoiceAnswer) and answer.option == CONFIRM:
            return Accept(None)
        return unexpected("confirm the order, or pick what to change")

    return Step(
        name=str(name),
        title=title,
        input="confirm",
        ask=ask,
        accept=accept,
        next=CREATE,
        summary=True,
        summarize=False,
        editable=False,
    )
