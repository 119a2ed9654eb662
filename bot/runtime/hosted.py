"""``Hosted``: how a business of a host is built, where it differs from ``deliverybot run``'s
one business (``bot.hosting`` builds each business's ``Runtime`` with one)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # asyncpg is loaded only for a shared database
    from bot.store.pg_host import PgHost


@dataclass(frozen=True)
class Hosted:
    """``business``: the name its store belongs to (``store_owner``). ``telegram_webhook_url``:
    where Telegram posts its updates (the host's ``/telegram``, routed by secret token).
    ``announce``: whether starting sets Telegram's webhook and command menus (the first build
    after an add or a change does; one after an idle release does not). ``pg_host``: the
    connections the host's businesses share on its PostgreSQL database, if that is its store."""

    business: str
    telegram_webhook_url: str | None = None
    announce: bool = True
    pg_host: PgHost | None = None
