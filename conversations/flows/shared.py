"""What the pickup & delivery and errand flows offer alike: package sizes, payment methods and
the fee hints on the summary."""

from __future__ import annotations

from conversations import rules
from conversations.context import Context
from conversations.dialog import Option

SIZES = (
    Option(id="small", label="Small", detail="fits in a bag"),
    Option(id="medium", label="Medium", detail="a box you can carry"),
    Option(id="large", label="Large", detail="needs both arms or a carrier"),
)


def payment_options(ctx: Context) -> list[Option]:
    return [Option(id=m, label=rules.PAYMENT_LABELS[m]) for m in rules.payment_methods(ctx.caps)]


def fee_hints(ctx: Context) -> list[str]:
    return rules.fee_hints(ctx.caps)
