"""Errors raised by the store.

::

    StoreError                    anything the store refuses or cannot do
    ├── SchemaTooNewError         the file was written by a newer version of the bot
    ├── UnknownDeliveryError      a row refers to a delivery the store has never linked;
    │                             also a LookupError
    ├── SqliteFileHeld            another process holds the SQLite file (sqlite_holders)
    ├── StoreOwnedByAnother       the store belongs to another business (store_owner)
    ├── TargetNotEmpty            ``migrate-store`` found data in the PostgreSQL database
    │                             (pg_from_sqlite)
    ├── SourceOfAnotherBusiness   ``migrate-store`` was given another business's SQLite file
    │                             (pg_from_sqlite)
    ├── TooLongForTheLoop         a statement that must go to the thread after all; caught
    │                             inside the store, never seen above it (loop_statements)
    └── LocalPostgresError        a throwaway PostgreSQL server could not be started; also a
                                  RuntimeError (pg_local_server, for tests and benchmarks)

sqlite3 errors that mean a bug (bad SQL, a broken file) are not wrapped: they should be loud.
"""

from __future__ import annotations

from pathlib import Path


class StoreError(Exception):
    """Base class of every error the store raises on purpose."""


class SchemaTooNewError(StoreError):
    """The database file has a schema version this program does not know.

    Opening it anyway could corrupt data a newer bot wrote, so the store refuses and leaves the
    file untouched.
    """

    def __init__(self, path: Path, found: int, supported: int) -> None:
        self.path = path
        self.found = found
        self.supported = supported
        super().__init__(
            f"{path}: schema version {found} is newer than this program supports ({supported}); "
            "run a newer version of the bot, or point it at another database file"
        )


class UnknownDeliveryError(StoreError, LookupError):
    """The delivery id is not linked to any chat in this store."""

    def __init__(self, delivery_id: str) -> None:
        self.delivery_id = delivery_id
        super().__init__(f"delivery {delivery_id!r} is not linked to a chat in this store")
