"""The schema's steps in order, and how a database is brought up to the newest.

Each step is a module of ``bot.store.schema_steps`` (``step_NN_<what>.py``, its statements for
both backends, see ``bot.store.schema_rendering``); ``STEPS`` below is the one place their order
is declared, and a step's version is its place in it, from 1. ``tests/store/test_schema_steps.py``
fails when a step module is missing from ``STEPS`` or the numbers in the file names are not its
places, and ``tests/store/test_schema_snapshots.py`` checks the schema both renderings make
against ``tests/store/schema_snapshots``.

To change the schema, add the next step: its module ``step_<N+1>_<what>.py`` beside the others,
and its ``STEP`` at the end of ``STEPS``; then dump the snapshots again (``python -m
tests.store.schema_dump``). Never edit, reorder or remove a step that has shipped: databases
in the field recorded it as applied, by its version.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

from bot.store.database import Executor
from bot.store.schema_rendering import Migration, SchemaStep, SchemaWords
from bot.store.schema_steps import (
    step_01_initial_schema,
    step_02_create_requests,
    step_03_otp_by_receiver,
    step_04_saved_orders,
    step_05_unconfirmed_creates,
    step_06_agent_channels,
    step_07_customer_details,
    step_08_customer_languages,
    step_09_shared_by_instances,
    step_10_chats_by_channel,
    step_11_shared_send_limits,
    step_12_customer_safety,
    step_13_durable_intake,
    step_14_funnel,
    step_15_told_and_spoken,
    step_16_staff_handoffs,
    step_17_payments_seen,
    step_18_answered_creates,
    step_19_staff,
    step_20_console_list,
    step_21_delivery_timeline,
    step_22_live_list,
    step_23_customer_search,
    step_24_staff_languages,
    step_25_whatsapp_inbox,
    step_26_whatsapp_sending,
    step_27_store_owner,
    step_28_rider_positions,
    step_29_forget_requests,
)
from bot.store.store_backend import StoreDatabase
from bot.store.store_errors import SchemaTooNewError

STEPS: tuple[SchemaStep, ...] = (
    step_01_initial_schema.STEP,
    step_02_create_requests.STEP,
    step_03_otp_by_receiver.STEP,
    step_04_saved_orders.STEP,
    step_05_unconfirmed_creates.STEP,
    step_06_agent_channels.STEP,
    step_07_customer_details.STEP,
    step_08_customer_languages.STEP,
    step_09_shared_by_instances.STEP,
    step_10_chats_by_channel.STEP,
    step_11_shared_send_limits.STEP,
    step_12_customer_safety.STEP,
    step_13_durable_intake.STEP,
    step_14_funnel.STEP,
    step_15_told_and_spoken.STEP,
    step_16_staff_handoffs.STEP,
    step_17_payments_seen.STEP,
    step_18_answered_creates.STEP,
    step_19_staff.STEP,
    step_20_console_list.STEP,
    step_21_delivery_timeline.STEP,
    step_22_live_list.STEP,
    step_23_customer_search.STEP,
    step_24_staff_languages.STEP,
    step_25_whatsapp_inbox.STEP,
    step_26_whatsapp_sending.STEP,
    step_27_store_owner.STEP,
    step_28_rider_positions.STEP,
    step_29_forget_requests.STEP,
)
"""Every schema step, oldest first: step N is version N. Append only."""

LATEST_VERSION = len(STEPS)

VERSION_TABLE = """CREATE TABLE IF NOT EXISTS schema_version (
    version    {int} PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at {real} NOT NULL
)"""
"""Where a database records the steps applied (``SchemaWords.spell`` it too)."""


def render(words: SchemaWords, steps: tuple[SchemaStep, ...] = STEPS) -> tuple[Migration, ...]:
    """Every step in ``words``' database's own terms, oldest first, numbered from 1."""
    return tuple(step.render(version, words) for version, step in enumerate(steps, start=1))


MAX_VERSION = "SELECT coalesce(max(version), 0) FROM schema_version"
_RECORD_VERSION = "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)"


async def apply_newer(
    db: StoreDatabase,
    migrations: Sequence[Migration],
    *,
    found: int,
    now: float,
    first: Callable[[Executor], Awaitable[object]],
) -> None:
    """Apply every one of ``migrations`` newer than ``found``, each in its own transaction
    with its version row, after ``first`` (a lock, or the version table) in that transaction.

    Raises ``SchemaTooNewError`` (changing nothing) when ``found`` is newer than them all.
    """
    latest = migrations[-1].version if migrations else 0
    if found > latest:
        raise SchemaTooNewError(db.path, found, latest)
    for migration in migrations:
        if migration.version <= found:
            continue
        async with db.transaction() as tx:
            await first(tx)
            # Another process may have applied it since ``found`` was read.
            row = await tx.fetch_one(MAX_VERSION)
            if row is not None and int(row[0]) >= migration.version:
                continue
            for statement in migration.statements:
                await tx.execute(statement)
            await tx.execute(_RECORD_VERSION, (migration.version, migration.name, now))
