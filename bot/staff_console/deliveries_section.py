"""The deliveries: ``GET /console/deliveries`` (the list, filtered by a GET form) and
``GET /console/deliveries/{id or short reference}`` (one delivery's page, ``delivery_view``;
its actions are ``delivery_actions``'), read by any staff member; and the vendored Leaflet its
maps are drawn with (``console_map``). Times are in UTC, as the config names no zone yet."""

from __future__ import annotations

from datetime import UTC
from typing import Any, Final
from urllib.parse import parse_qs, urlencode

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from bot.config import CONSOLE_PATH
from bot.partner.vocabulary import DELIVERY_STATUSES
from bot.staff.dispatching import Dispatcher
from bot.staff_console.console_kit import ZONE_NAME, ConsoleKit, NavEntry
from bot.staff_console.console_map import leaflet_routes
from bot.staff_console.deliveries_page import channel_label, deliveries_page
from bot.staff_console.delivery_filters import (
    DeliveryFilters,
    FiltersRefused,
    parse_cursor,
    parse_filters,
)
from bot.staff_console.delivery_view import DeliveryView
from bot.store.delivery_list import Attention
from conversations.texts.catalogue import Catalogue
from conversations.texts.deliveries_texts import status_label

DELIVERIES: Final = f"{CONSOLE_PATH}/deliveries"


class DeliveriesSection:
    """The list of every delivery and each one's page."""

    nav = NavEntry(DELIVERIES, "console_web.page.deliveries")

    def __init__(self, kit: ConsoleKit) -> None:
        self._kit = kit
        self._view = DeliveryView(kit, Dispatcher(kit.services.client, kit.store.audit))

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/deliveries", self.deliveries, methods=["GET"]),
            Route("/deliveries/{ref}", self.delivery, methods=["GET"]),
            *leaflet_routes(),  # the maps of its pages (and of any other section's)
        ]

    async def deliveries(self, request: Request) -> Response:
        """The list (``deliveries_page``), filtered; a malformed filter is said on a 400."""
        found = await self._kit.viewer(request)
        if isinstance(found, Response):
            return found
        catalogue = self._kit.catalogue(found)
        fields = parse_qs(request.url.query, keep_blank_values=True)
        channels = sorted(self._kit.services.channel_names())
        filters = list_filters(self._kit, catalogue, fields)
        after_text = _last(fields, "after")
        after = parse_cursor(catalogue, after_text) if after_text else None
        refusal = next((f for f in (filters, after) if isinstance(f, FiltersRefused)), None)
        context: dict[str, Any] = {
            "rows": (),
            "next_link": None,
            "refusal": None,
            "paged": bool(after_text),
            "asked": {name: _last(fields, name) for name in ("status", "day", "channel", "q")},
            "asked_attention": set(_all(fields, "attention")),
            "statuses": [(s, status_label(catalogue, s)) for s in DELIVERY_STATUSES],
            "channels": [(c, channel_label(catalogue, c)) for c in channels],
            "attention_kinds": [
                (kind.value, catalogue.say(f"console_web.attention.{kind.value}"))
                for kind in Attention
            ],
            "zone": ZONE_NAME,
        }
        if refusal is not None:
            context["refusal"] = refusal.reason
            return self._kit.page(request, "deliveries.html", found, status=400, **context)
        assert not isinstance(filters, FiltersRefused)
        assert not isinstance(after, FiltersRefused)
        page = await deliveries_page(self._kit.store, catalogue, filters, after)
        context["rows"] = page.rows
        if page.next_after is not None:
            kept = [(k, v) for k, vs in fields.items() if k != "after" for v in vs if v]
            context["next_link"] = f"{DELIVERIES}?{urlencode([*kept, ('after', page.next_after)])}"
        return self._kit.page(request, "deliveries.html", found, **context)

    async def delivery(self, request: Request) -> Response:
        """One delivery's page (``DeliveryView``): its header and its history
        (``delivery_timeline``), read by any staff member, with the dispatch panel for
        dispatchers; ``?done=<outcome>`` after an action. The drop-off code is never part of
        it."""
        found = await self._kit.viewer(request)
        if isinstance(found, Response):
            return found
        typed = request.path_params["ref"][:64]
        done = _last(parse_qs(request.url.query), "done") or None
        return await self._view.draw(request, found, typed, done=done)


def list_filters(
    kit: ConsoleKit, catalogue: Catalogue, fields: dict[str, list[str]]
) -> DeliveryFilters | FiltersRefused:
    """The list's filters read from its query's ``fields`` (the page's and its live stream's)."""
    return parse_filters(
        catalogue,
        fields,
        channels=sorted(kit.services.channel_names()),
        zone=UTC,
        phone_region=kit.services.phone_region,
    )


def _all(fields: dict[str, list[str]], name: str) -> list[str]:
    return [part.strip() for value in fields.get(name, ()) for part in value.split(",") if part]


def _last(fields: dict[str, list[str]], name: str) -> str:
    values = [value.strip() for value in fields.get(name, ()) if value.strip()]
    return values[-1] if values else ""
