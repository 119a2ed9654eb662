"""The business a store belongs to, and the refusal to open it for another one.

One host serves many businesses, each with a store of its own (a SQLite file, or a schema of
one PostgreSQL database): that is what keeps their rows apart, since no query can reach rows
that are not in its file or schema. Schema step 27 gives every store one ``store_owner`` row;
each time a store opens, ``claim_owner`` writes the opening business there if the row is
missing, and raises ``StoreOwnedByAnother`` when it names another business, so a business
pointed at another's file or schema never sees a row of it.

A single-business configuration is a host with one business, ``DEFAULT_BUSINESS``; a store that
held rows before the step belongs to it (the step records that).
"""

from __future__ import annotations

from typing import Final

from bot.store.store_backend import StoreDatabase
from bot.store.store_errors import StoreError

DEFAULT_BUSINESS: Final = "default"
"""The one business of a configuration without a host: the name stores open for by default."""

_CLAIM = "INSERT INTO store_owner (one_row, business) VALUES (1, ?) ON CONFLICT DO NOTHING"
_OWNER = "SELECT business FROM store_owner WHERE one_row = 1"


class StoreOwnedByAnother(StoreError):
    """The store belongs to another business than the one it was opened for."""

    def __init__(self, where: str, owner: str, business: str) -> None:
        self.owner = owner
        self.business = business
        super().__init__(
            f"{where} belongs to business {owner!r}, not {business!r}: each business needs a "
            "store of its own (another [storage] path, or another [storage.postgres] db_schema)"
        )


async def claim_owner(db: StoreDatabase, business: str, *, where: str) -> None:
    """Record ``business`` as the store's owner if it has none; raise ``StoreOwnedByAnother``
    (saying ``where`` the store is) when another business owns it. Of two businesses opening
    one new store at once, the first insert wins and the other is refused."""
    async with db.transaction() as tx:
        await tx.execute(_CLAIM, (business,))
        row = await tx.fetch_one(_OWNER)
    owner = str(row[0]) if row is not None else business
    if owner != business:
        raise StoreOwnedByAnother(where, owner, business)
