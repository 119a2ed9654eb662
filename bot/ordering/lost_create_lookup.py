"""Read-back: find the delivery a create made when its answer was lost.

The spec leaves the service's handling of a reused ``idempotencyKey`` "not shown", so a retry
with the same key may or may not return the first delivery. Before each retry the bot therefore
lists the newest deliveries (``GET /deliveries``, up to ``pages`` pages of 50) and looks for one
that is the same order (``bot.partner.same_order``) created no earlier than ``since``. A
delivery already linked to a chat (``skip``) is someone's known order and never taken.

The list is read newest first, as the sandbox orders it (the spec does not say); paging stops
at the first page whose deliveries are all older than ``since``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.partner.client import PartnerClient
from bot.partner.models import LIST_LIMIT_RANGE, CreateDeliveryRequest, Delivery
from bot.partner.same_order import is_same_order


async def find_created(
    client: PartnerClient,
    request: CreateDeliveryRequest,
    *,
    since: float,
    pages: int,
    skip: Callable[[str], Awaitable[bool]],
) -> Delivery | None:
    """The delivery ``request`` made, if the newest ``pages`` pages show one; raises
    ``PartnerError`` when the list cannot be read (then nothing can be concluded)."""
    cursor: str | None = None
    for _ in range(pages):
        page = await client.list_deliveries(limit=LIST_LIMIT_RANGE[1], cursor=cursor)
        for delivery in page.deliveries:
            if is_same_order(delivery, request, since) and not await skip(delivery.id):
                return delivery
        cursor = page.next_cursor
        older = [d for d in page.deliveries if d.created_at and d.created_at.timestamp() < since]
        if cursor is None or len(older) == len(page.deliveries):
            return None
    return None
