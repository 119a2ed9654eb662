"""The operators' web console's read models: what its pages show, as plain Python over the
store (``store.delivery_list``), in the staff member's words.

* ``delivery_filters``: the deliveries list's filters and page cursor, read from a query
  string, refused in one sentence when malformed;
* ``deliveries_page``: one page of that list, each delivery in words and local times;
* ``console_web_texts``: the console's own words, in every shipped language.
"""

from bot.staff_console.deliveries_page import (
    DeliveriesPage,
    DeliveryRow,
    deliveries_page,
)
from bot.staff_console.delivery_filters import (
    DeliveryFilters,
    FiltersRefused,
    parse_cursor,
    parse_filters,
)

__all__ = [
    "DeliveriesPage",
    "DeliveryFilters",
    "DeliveryRow",
    "FiltersRefused",
    "deliveries_page",
    "parse_cursor",
    "parse_filters",
]
