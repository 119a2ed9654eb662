"""The funnel of scripted customers, counted exactly: where each one gave up, and why.

Through the whole bot (Telegram, engine, store): Ada orders to the end; Chidi goes back once,
types an unreadable phone number, and cancels at the contact step; Bola answers the service
question and is never heard of again, until retention drops her order as idle. The
report (``bot.funnel.report``, what ``deliverybot report`` and ``/report`` print) then holds
these exact counts, the same events are counted in ``deliverybot_funnel_events_total``, and
an operator's ``/report`` in the operators' chat answers the short version.
"""

from __future__ import annotations

from bot.funnel.idle import record_idle_abandoned
from bot.funnel.recorder import day_of
from bot.funnel.report import funnel_report, render_short, render_table
from bot.privacy.retention import prune_kind
from tests.e2e.conftest import ADA, BOLA, CHIDI, OLU, OPERATORS, MakeStack
from tests.metrics.samples import sample
from tests.support.words import SHIPPED, say

METRICS_ON = {"enabled": True, "token": "metrics-token-0123456789abcdef"}


async def test_scripted_customers_give_exact_counts_per_step(make_stack: MakeStack) -> None:
    stack = await make_stack(metrics=METRICS_ON)
    metrics = stack.bot.core.metrics
    before = sample(
        metrics,
        "deliverybot_funnel_events_total",
        flow="pickup_delivery",
        step="summary",
        kind="created",
    )
    await stack.order(ADA)

    await stack.command(CHIDI, "new")
    await stack.tap(stack.prompt(CHIDI.id), "✓ Pickup & delivery")
    await stack.location(CHIDI, 6.5095, 3.3711)
    await stack.command(CHIDI, "back")
    await stack.location(CHIDI, 6.5095, 3.3711)
    await stack.text(CHIDI, "12 Herbert Macaulay Way, Yaba")
    await stack.tap(stack.prompt(CHIDI.id), "UNILAG Main Gate")
    await stack.contact(CHIDI, "+2348035550000")
    await stack.text(CHIDI, "Bola Ahmed")
    await stack.text(CHIDI, "12345")  # not a phone number: asked again
    await stack.command(CHIDI, "cancel")
    await stack.tap(stack.prompt(CHIDI.id), "Yes, cancel it")

    await stack.command(BOLA, "new")
    await stack.tap(stack.prompt(BOLA.id), "✓ Pickup & delivery")

    store = stack.bot.store
    # A second pass (a new leader's) finds Bola's idle order too: she still counts once.
    await record_idle_abandoned(store, before=store.clock() + 1)
    await prune_kind(store, "drafts", store.clock() + 1)  # every open order is idle now
    await stack.bot.core.chats.funnel.flush()
    rows = await funnel_report(store.funnel, since_day=day_of(store.clock()))

    figures = {
        (row.flow, row.step): (row.reached, row.answered, row.abandoned, row.reasked,
                               row.went_back, row.created)
        for row in rows
    }  # fmt: skip
    # (reached, answered, abandoned, re-asked, went back, created), in conversations
    assert figures == {
        ("order", "service_kind"): (3, 3, 0, 0, 0, 0),
        ("pickup_delivery", "pickup_place"): (3, 2, 1, 0, 0, 0),  # Bola, idle
        ("pickup_delivery", "pickup_address"): (2, 2, 0, 0, 1, 0),  # Chidi went back once
        ("pickup_delivery", "dropoff_place"): (2, 2, 0, 0, 0, 0),
        ("pickup_delivery", "sender_name"): (2, 2, 0, 0, 0, 0),
        ("pickup_delivery", "receiver_name"): (2, 2, 0, 0, 0, 0),
        ("pickup_delivery", "receiver_phone"): (2, 1, 1, 1, 0, 0),  # Chidi, cancelled
        ("pickup_delivery", "package_description"): (1, 1, 0, 0, 0, 0),
        ("pickup_delivery", "package_size"): (1, 1, 0, 0, 0, 0),
        ("pickup_delivery", "photos"): (1, 1, 0, 0, 0, 0),
        ("pickup_delivery", "summary"): (1, 1, 0, 0, 0, 1),  # Ada's delivery
    }
    by_step = {row.step: row for row in rows}
    assert by_step["receiver_phone"].top_reasons() == [("invalid_answer", 1)]
    assert by_step["receiver_phone"].drop_off == 0.5
    assert by_step["pickup_place"].median_seconds is not None
    assert [row.step for row in rows][:3] == ["service_kind", "pickup_place", "pickup_address"]

    short = render_short(SHIPPED, rows, period="1d")
    assert short.splitlines()[0] == "Where customers give up, last 1d:"
    assert "pickup_delivery: 3 started, 1 created" in short
    assert "  pickup_place: 1 of 3 gave up (33%)" in short
    assert "  receiver_phone: 1 of 2 gave up (50%)" in short
    assert "re-asked most for invalid_answer" in short
    table = render_table(rows, period="1d")
    assert "receiver_phone" in table and "invalid_answer 1" in table
    # The operators' short version, in their chat; nobody else's.
    (reply,) = await stack.command(OLU, "report", "1d", chat=OPERATORS)
    assert reply.text == short
    (usage,) = await stack.command(OLU, "report", "last week", chat=OPERATORS)
    assert usage.text == say("ops.report.usage")
    (refused,) = await stack.command(ADA, "report")
    assert refused.text == say("ops.refused")
    assert (
        sample(
            metrics,
            "deliverybot_funnel_events_total",
            flow="pickup_delivery",
            step="summary",
            kind="created",
        )
        == before + 1
    )
