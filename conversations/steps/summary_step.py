"""The summary: the draft with every answer on a line, the fee hints, and Confirm (or
Change ...). Confirming it creates the delivery."""

from __future__ import annotations

from collections.abc import Callable

from conversations import rules
from conversations.context import Context
from conversations.dialog import CONFIRM, Answer, ChoiceAnswer, Option
from conversations.flow import CREATE, Accept, Ask, Question, Result, Step
from conversations.order.kinds import CollectionMethod
from conversations.steps.common import Text, question_text, unexpected
from conversations.steps.names import PAYMENT, SUMMARY
from conversations.texts.said import Words, said

SUMMARY_TITLE = said("steps.title.summary")


def fee_hints(ctx: Context, *, customer_receives: bool = False) -> list[str]:
    """The business's fee hints, with who pays, when and how for the payment chosen, and how
    the drop-off code will come (``customer_receives``: to the customer, on an errand)."""
    return rules.fee_hints(
        ctx.catalogue,
        ctx.caps,
        chosen_method(ctx),
        customer_receives=customer_receives,
        codes_by_link=ctx.codes_by_link,
    )


def chosen_method(ctx: Context) -> CollectionMethod | None:
    """The payment method of the draft, while the business still allows it."""
    chosen = ctx.answers.option(PAYMENT)
    return next((m for m in rules.payment_methods(ctx.caps) if m == chosen), None)


def summary(
    *,
    heading: Text,
    name: str = SUMMARY,
    title: Words = SUMMARY_TITLE,
    hints: Callable[[Context], list[str]] = fee_hints,
) -> Step:
    """The draft, every answer on a line, the hints (the business's fee hints by default),
    and Confirm (or Change ...)."""

    def ask(ctx: Context) -> Ask:
        lines = [question_text(heading, ctx)]
        lines += [
            ctx.catalogue.say("steps.summary.line", title=t, value=v)
            for t, v in ctx.summary_lines()
        ]
        lines += ["", *hints(ctx)]
        retry = ctx.session.idempotency_key is not None
        label = ctx.catalogue.say("steps.summary.retry" if retry else "steps.summary.confirm")
        return Question(
            "\n".join(lines), accepts=("choice",), options=(Option(id=CONFIRM, label=label),)
        )

    async def accept(ctx: Context, answer: Answer) -> Result:
        if isinstance(answer, ChoiceAnswer) and answer.option == CONFIRM:
            return Accept(None)
        return unexpected(ctx.catalogue, "steps.way.confirm")

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
