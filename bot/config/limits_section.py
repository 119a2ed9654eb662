"""``[limits]``: how much one customer may order, so one account cannot flood the business.

Each limit (named in ``bot.limit_kinds``) counts one customer (a Telegram user, a console
user, an agent channel's customer) in the store, so it holds across instances and restarts.
0 switches a limit off.
"""

from __future__ import annotations

from pydantic import Field, model_validator

from bot.config.section import Section


class LimitsConfig(Section):
    """``[limits]``: open deliveries at once, deliveries whose fee is not paid, creates per
    rolling hour and day, and orders started per hour (drafts: a flood of unfinished orders
    costs nothing but the bot's work); and whether senders' phones must be proven
    (``verify_sender_phone``)."""

    open_deliveries: int = Field(10, ge=0, le=10_000)
    # Off by default: a business whose fees are settled outside the service (paymentTiming
    # off_platform, cash nobody marks paid) would see every delivery stay unpaid forever.
    unpaid_deliveries: int = Field(0, ge=0, le=10_000)
    creates_per_hour: int = Field(10, ge=0, le=10_000)
    creates_per_day: int = Field(30, ge=0, le=100_000)
    # Off by default: counting orders started costs one more write per new order.
    drafts_per_hour: int = Field(0, ge=0, le=10_000)
    # Telegram only: the sender's phone must be their own shared contact, never typed (the
    # console and agent channels cannot prove a number and keep typed phones).
    verify_sender_phone: bool = False

    @model_validator(mode="after")
    def _day_holds_an_hour(self) -> LimitsConfig:
        if 0 < self.creates_per_day < self.creates_per_hour:
            raise ValueError(
                f"creates_per_day ({self.creates_per_day}) is below creates_per_hour "
                f"({self.creates_per_hour}): the hour's limit could never be reached"
            )
        return self
