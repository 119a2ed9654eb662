"""``deliverybot report``: the funnel of the configured store, printed as tables."""

from __future__ import annotations

import time

from bot.config import Config
from bot.funnel.recorder import day_of
from bot.funnel.report import funnel_report, render_table
from bot.store_from_config import open_store


async def report_text(
    config: Config, *, since_seconds: float, period: str, flow: str | None
) -> str:
    """The report's text for the last ``since_seconds`` (``period`` names them): tables under
    fixed English headings, for whoever runs the shell (``render_table``)."""
    store = await open_store(config.storage, time.time)
    try:
        rows = await funnel_report(
            store.funnel, since_day=day_of(time.time() - since_seconds), flow=flow
        )
    finally:
        await store.close()
    return render_table(rows, period=period)
