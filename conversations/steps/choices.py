"""Steps answered by tapping: ``choice`` (one of several options) and ``yes_no``."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pydantic import JsonValue

from conversations.context import Context
from conversations.dialog import Answer, ChoiceAnswer, Option
from conversations.flow import (
    Accept,
    Ask,
    AutoAnswer,
    Condition,
    FlowError,
    Next,
    Preset,
    Question,
    Reask,
    Result,
    Step,
    Stop,
    Target,
    Write,
)
from conversations.steps.common import (
    Offer,
    Options,
    Text,
    options_of,
    question_text,
    unexpected,
    value_writer,
)
from conversations.texts.said import Words, filled, said


def describe_as_label(options: Options) -> Callable[[Context, JsonValue], str]:
    def describe(ctx: Context, value: JsonValue) -> str:
        for option in options_of(options, ctx):
            if option.id == value:
                return option.label
        return str(value)

    return describe


def choice(
    name: str,
    *,
    title: Words,
    question: Text,
    options: Options,
    next: Next,
    default: Callable[[Context], str | None] | None = None,
    preset: Callable[[Context], str | None] | None = None,
    single: Words | None = None,
    empty: Text | None = None,
    when: Condition | None = None,
    skip_to: Target | None = None,
    depends_on: Sequence[str] = (),
    fields: Sequence[str] = (),
    write: Write | None = None,
    writes: bool = True,
    help: Words = "",
    describe: Callable[[Context, JsonValue], str] | None = None,
    empty_reasks: str | None = None,
) -> Step:
    """Pick one option. With ``single``, a lone option answers itself (``{label}`` in the note,
    or ``{named}``: the label and, in brackets, the option's detail, such as an address);
    with ``empty``, no option at all stops the flow with that message (or, with
    ``empty_reasks``, says it and asks that earlier step again, keeping every other answer).
    ``default`` is the option pre-selected when the step is asked; ``preset`` the option taken
    without asking (when offered, and not the lone one), shown in the summary and changed from
    there. The
    option id is the value of each of ``fields`` unless ``write`` says otherwise
    (``writes=False``: the step names its fields, for re-asking, but another step writes
    them). The summary shows the option's label, or what ``describe`` says."""

    def ask(ctx: Context) -> Ask:
        offered = options_of(options, ctx)
        if not offered:
            if empty is None:
                raise FlowError(f"{name}: no option to offer")
            if empty_reasks is not None:
                return Reask(str(empty_reasks), question_text(empty, ctx))
            return Stop(question_text(empty, ctx))
        if single is not None and len(offered) == 1:
            only = offered[0]
            named = f"{only.label} ({only.detail})" if only.detail else only.label
            return AutoAnswer(only.id, filled(single, ctx.catalogue, label=only.label, named=named))
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
        return unexpected(ctx.catalogue, "steps.way.choice")

    def still_valid(ctx: Context, value: JsonValue) -> bool:
        return any(option.id == value for option in options_of(options, ctx))

    def take(ctx: Context) -> Preset | None:
        offered = options_of(options, ctx)
        if preset is None or (single is not None and len(offered) == 1):
            return None  # a lone option answers itself, saying so
        picked = preset(ctx)
        return Preset(picked) if any(o.id == picked for o in offered) else None

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
        write=(write or value_writer(fields)) if writes else None,
        help=help,
        describe=describe or describe_as_label(options),
        still_valid=still_valid,
        preset=take if preset is not None else None,
        # One possible value: nothing to change to (none: asking says why, or asks earlier).
        changeable=lambda ctx: len(options_of(options, ctx)) != 1,
    )


YES_NO = (Offer("yes", said("steps.yes")), Offer("no", said("steps.no")))


def is_yes(value: JsonValue) -> bool:
    return value == "yes"


def yes_no(
    name: str,
    *,
    title: Words,
    question: Text,
    next: Next,
    options: Sequence[Option | Offer] = YES_NO,
    preset: str | None = None,
    when: Condition | None = None,
    skip_to: Target | None = None,
    fields: Sequence[str] = (),
    depends_on: Sequence[str] = (),
) -> Step:
    """A choice between the ids "yes" and "no" (labels may say it more kindly); each of
    ``fields`` gets True or False. ``preset`` ("yes" or "no") is taken without asking and
    changed from the summary."""
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
        write=value_writer(fields, is_yes),
        depends_on=depends_on,
        preset=(lambda ctx: preset) if preset is not None else None,
    )
