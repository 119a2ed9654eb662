"""The errand part of ``POST /deliveries``: mode, links, budget, shop phone, unknown shop.

The spec's request table marks all six errand fields required for errands, so each must be
present (not absent, not null) on an errand: ``errandLinks`` may be an empty array (except in
``link`` mode, which needs a link) and ``errandBudgetNgn`` / ``shopPhone`` may be ``""``.
Errand-only fields sent with a ``pickup_delivery`` are refused rather than ignored, so a client
that mixes the two flows finds out at once.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from bot.partner.models import (
    ERRAND_FIELD_MISSING,
    ERRAND_FIELDS,
    MAX_ERRAND_LINKS,
    errand_budget_problem,
)
from bot.sandbox.scenario import Scenario
from bot.sandbox.validated_order import ErrandLinkOrder, ErrandOrder
from bot.sandbox.validation import FieldReader


def refuse_errand_fields(reader: FieldReader) -> None:
    for name in ERRAND_FIELDS:
        if reader.present(name):
            reader.fail(name, "is only sent for errands")


def read_errand(reader: FieldReader, scenario: Scenario) -> ErrandOrder | None:
    settings = scenario.capabilities.errand
    enabled = settings.enabledModes if settings else []
    for name in ERRAND_FIELDS:
        reader.require_present(name, ERRAND_FIELD_MISSING[name])
    mode = reader.choice("errandMode", ("at_place", "link", "photo"))
    if mode is not None and mode not in enabled:
        reader.fail("errandMode", f"{mode} errands are not enabled (enabled: {', '.join(enabled)})")
    links = _errand_links(reader, [c.id for c in settings.curatedLinks] if settings else [])
    if mode == "link" and not links and not reader.failed("errandLinks"):
        reader.fail("errandLinks", "needs at least 1 link for a link errand")
    budget = reader.string("errandBudgetNgn", max_len=50)
    if budget and (problem := errand_budget_problem(budget)):
        reader.fail("errandBudgetNgn", problem)
    unknown_shop = bool(reader.boolean("pickupLocationUnknown"))
    if unknown_shop and not (settings and settings.allowUnknownShopLocation):
        reader.fail("pickupLocationUnknown", "this business needs a known shop location")
    substitute_ok = reader.boolean("errandSubstituteOk")
    shop_phone = reader.phone("shopPhone")
    if mode is None:
        return None
    return ErrandOrder(mode, links, budget or None, substitute_ok, shop_phone, unknown_shop)


def _errand_links(reader: FieldReader, curated_ids: list[str]) -> tuple[ErrandLinkOrder, ...]:
    raw = reader.array("errandLinks")
    if not raw:
        return ()
    if len(raw) > MAX_ERRAND_LINKS:
        reader.fail("errandLinks", f"must hold at most {MAX_ERRAND_LINKS} links")
        return ()
    links: list[ErrandLinkOrder] = []
    for number, item in enumerate(raw, start=1):
        problem = _link_problem(item, curated_ids)
        if problem:
            reader.fail("errandLinks", f"link {number}: {problem}")
            continue
        links.append(ErrandLinkOrder(item["url"].strip(), item["note"], item.get("curatedId")))
    return tuple(links)


def _link_problem(item: Any, curated_ids: list[str]) -> str | None:
    if not isinstance(item, dict):
        return "must be an object { url, note, curatedId? }"
    unknown = set(item) - {"url", "note", "curatedId"}
    if unknown:
        return f"unknown field {sorted(unknown)[0]}"
    url, note, curated = item.get("url"), item.get("note"), item.get("curatedId")
    if not isinstance(url, str):
        return "url must be an http(s) link"
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return "url must be an http(s) link"
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return "url must be an http(s) link"
    if len(url) > 2000:
        return "url must be an http(s) link"
    if not isinstance(note, str) or len(note) > 500:
        return "note must be a string of at most 500 characters"
    if curated is not None and curated not in curated_ids:
        return "curatedId is not one of the business's curated links"
    return None
