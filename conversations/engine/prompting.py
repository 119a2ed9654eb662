"""How a step's question becomes the ``Prompt`` an adapter draws.

The engine adds what the step cannot know: the prompt's version, the answer the step already
has (pre-selected when it is an option, otherwise offered as "Keep: ..."), the summary's
"Change ..." options (grouped: ``summary_choices``, and a group's own menu, ``group_prompt``),
and the navigation worth showing (back when there is history, skip, done once enough photos
came, and help and cancel after repeated failures).

``cancel_prompt`` is the engine's own question, asked over the open step when the customer
cancels an order whose answers would be lost, or starts a new one over it: yes cancels (or
starts the new order), no goes on where they were.
"""

from __future__ import annotations

from conversations.context import Context
from conversations.dialog import (
    BACK_TO_SUMMARY,
    EDIT_PREFIX,
    GROUP_PREFIX,
    KEEP,
    CommandName,
    Option,
    Prompt,
)
from conversations.flow import Flow, Question, Step
from conversations.session import Session
from conversations.steps.summary_groups import Group, group_title, grouped
from conversations.texts import dialogue
from conversations.texts.catalogue import Catalogue

MAX_FAILURES = 3
# The options of the cancel question (``cancel_prompt``).
CANCEL_YES = "cancel:yes"
CANCEL_NO = "cancel:no"


def editable_steps(flow: Flow, ctx: Context) -> list[Step]:
    """Steps the summary may send the customer back to: answered by them, on the route, and
    with something else to choose (a replayed warehouse that is the only one is not offered)."""
    session = ctx.session
    return [
        step
        for step in flow.path(ctx)
        if step.editable
        and not step.summary
        and step.name in session.answers
        and step.name not in session.auto_answered
        and (step.changeable is None or step.changeable(ctx))
    ]


def change_option(step: Step, ctx: Context) -> Option:
    """The option that changes ``step``'s answer ("Change pickup place")."""
    return Option(
        id=f"{EDIT_PREFIX}{step.name}",
        label=dialogue.change_label(ctx.catalogue, step.title_in(ctx)),
    )


def summary_choices(flow: Flow, ctx: Context) -> list[Option]:
    """The summary's "Change ..." options: one a group of answers (its fields one tap
    further), or the field itself when its group holds only that one."""
    choices = []
    for group, steps in grouped(editable_steps(flow, ctx)):
        if len(steps) == 1:
            choices.append(change_option(steps[0], ctx))
        else:
            label = dialogue.change_label(ctx.catalogue, group_title(ctx.catalogue, group))
            choices.append(Option(id=f"{GROUP_PREFIX}{group}", label=label))
    return choices


def open_group(flow: Flow, ctx: Context) -> tuple[Group, list[Step]] | None:
    """The group whose fields the summary's second menu lists now (the summary's pending
    answer names it), or None: the summary itself is shown."""
    pending = ctx.session.pending
    if not isinstance(pending, str):
        return None
    return next(((g, s) for g, s in grouped(editable_steps(flow, ctx)) if g == pending), None)


def group_prompt(ctx: Context, step: Step, steps: list[Step]) -> Prompt:
    """The second menu of the summary: the fields of one group, and back to the summary."""
    session = ctx.session
    options = [change_option(s, ctx) for s in steps]
    options.append(
        Option(id=BACK_TO_SUMMARY, label=ctx.catalogue.say("steps.summary.back_to_summary"))
    )
    return Prompt(
        step=step.name,
        version=session.prompt_version,
        text=ctx.catalogue.say("steps.summary.group_question"),
        input="choice",
        accepts=("choice",),
        options=tuple(options),
        commands=("back",),
        changes=tuple(options[:-1]),
    )


def build_prompt(flow: Flow, ctx: Context, step: Step, asked: Question) -> Prompt:
    session = ctx.session
    if step.summary:
        found = open_group(flow, ctx)
        if found is not None:
            return group_prompt(ctx, step, found[1])
    options = list(asked.options)
    default = asked.default
    current = None
    if step.name in session.answers and not step.summary:
        value = session.answers[step.name]
        current = step.describe(ctx, value)
        same = [option.id for option in options if option.label == current]
        if isinstance(value, str) and any(option.id == value for option in options):
            default = value
        elif same:
            # The answer is one of the options in other words (no cash to collect: ``None``
            # shown as that option): pre-selected, never offered twice as "Keep: ...".
            default = same[0]
        elif step.still_valid is None or step.still_valid(ctx, value):
            options.insert(0, Option(id=KEEP, label=dialogue.keep_label(ctx.catalogue, current)))
    changes: tuple[Option, ...] = ()
    if step.summary:
        options += summary_choices(flow, ctx)
        changes = tuple(change_option(s, ctx) for s in editable_steps(flow, ctx))
    commands: list[CommandName] = ["back"] if session.history else []
    if asked.allow_skip:
        commands.append("skip")
    if asked.photos and asked.photos.have and asked.photos.have >= asked.photos.min:
        commands.append("done")
    if session.failures >= MAX_FAILURES:
        commands += ["help", "cancel"]
    return Prompt(
        step=step.name,
        version=session.prompt_version,
        text=asked.text,
        input=asked.input or step.input,
        accepts=asked.accepts,
        options=tuple(options),
        default=default,
        allow_skip=asked.allow_skip,
        commands=tuple(commands),
        current=current,
        photos=asked.photos,
        numbers_are_values=asked.numbers_are_values,
        changes=changes,
    )


def cancel_prompt(catalogue: Catalogue, session: Session) -> Prompt:
    """Cancel the order, losing its answers? Drawn over the open step, as a new version of it,
    so taps on the step's own keyboard are refused as stale until it is answered."""
    assert session.step is not None, "asked only while a step is open"
    new_order = session.starting_over is not None
    return Prompt(
        step=session.step,
        version=session.prompt_version,
        text=dialogue.NEW_ORDER_QUESTION.render(catalogue)
        if new_order
        else dialogue.CANCEL_QUESTION.render(catalogue),
        input="choice",
        accepts=("choice",),
        options=(
            Option(
                id=CANCEL_YES,
                label=dialogue.NEW_ORDER_YES.render(catalogue)
                if new_order
                else dialogue.CANCEL_YES.render(catalogue),
            ),
            Option(id=CANCEL_NO, label=dialogue.CANCEL_NO.render(catalogue)),
        ),
    )
