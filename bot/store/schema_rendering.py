"""What a schema step is, and how each database's words render it.

A step's statements are SQLite's as they shipped, with the words the databases spell
differently left as fields (``SchemaWords``): ``{int}`` (SQLite's ``INTEGER``, PostgreSQL's
``BIGINT``: Telegram ids pass 2**31), ``{real}`` (unix times), ``{blob}``, ``{rowid_key}`` (a
key the database numbers: SQLite's rowid alias, an identity column elsewhere), ``{serial_key}``
(the same, never reusing a number), ``{without_rowid}``, ``{link_order}`` (the order rows were
linked, which every SQLite index holds implicitly in its rowid) and ``{keep_serial}`` (an
``INSERT`` that copies rows keeps their ``serial_key`` numbers). Each backend names its words
(``sqlite_backend.SCHEMA_WORDS``, ``pg_backend.SCHEMA_WORDS``); a database shared by several
instances also runs each step's ``shared_only`` statements: what they coordinate through, which
one process keeps in memory.

Rendered for SQLite the text is what shipped, byte for byte (SQLite keeps it in
``sqlite_master``). The steps themselves are in ``bot.store.schema_steps``, one module each;
``bot.store.schema`` lists them in order.
"""

from __future__ import annotations

from dataclasses import dataclass, fields


@dataclass(frozen=True)
class SchemaWords:
    """How one database spells what the schema declares; see the module docstring."""

    int: str
    real: str
    blob: str
    rowid_key: str
    serial_key: str
    without_rowid: str
    link_order: str
    keep_serial: str
    shared: bool

    def spell(self, sql: str) -> str:
        """``sql`` with every field named by this database's word."""
        return sql.format_map({field.name: getattr(self, field.name) for field in fields(self)})


@dataclass(frozen=True)
class Migration:
    """One forward step of the schema, rendered for one database."""

    version: int
    name: str
    statements: tuple[str, ...]


@dataclass(frozen=True)
class SchemaStep:
    """One forward step of the schema, for every database: ``statements`` with fields for
    ``SchemaWords``; ``shared_only`` run only on a database several instances share.

    A step has no version of its own: it is its place in ``bot.store.schema.STEPS``.
    """

    name: str
    statements: tuple[str, ...]
    shared_only: tuple[str, ...] = ()

    def render(self, version: int, words: SchemaWords) -> Migration:
        """The step, as version ``version``, in ``words``' database's own terms."""
        shared = self.shared_only if words.shared else ()
        statements = tuple(words.spell(statement) for statement in (*self.statements, *shared))
        return Migration(version, self.name, statements)
