"""``deliverybot report``: the funnel of the configured store, printed as tables."""

from __future__ import annotations

import time

from bot.config import Config
from bot.funnel.report import render_table, report_for
from bot.store import DEFAULT_BUSINESS
from bot.store_from_config import open_store


async def report_text(
    config: Config, *, period: str, flow: str | None, business: str = DEFAULT_BUSINESS
) -> str:
    """The report's text for the last ``period`` (``report_for``; ValueError for a text that
    is not one): tables under fixed English headings, for whoever runs the shell
    (``render_table``); ``business``: whose store it is."""
    store = await open_store(config.storage, time.time, business=business)
    try:
        rows = await report_for(store.funnel, time.time(), period, flow=flow)
    finally:
        await store.close()
    return render_table(rows, period=period)
