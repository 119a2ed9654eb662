"""The schema's steps, one module each: ``step_NN_<what>.py``, NN its version (01, 02, ...).

Each module declares ``STEP``, a ``bot.store.schema_rendering.SchemaStep``: its name (recorded
in ``schema_version``) and its statements, written once for both backends with the words they
spell differently left as fields, and the statements only a database shared by several
instances runs. ``bot.store.schema.STEPS`` lists the steps in order; nothing else does.

Adding step N+1: copy the shape of a recent step into ``step_<N+1>_<what>.py`` (two digits
while N+1 < 100), append its ``STEP`` to ``STEPS`` (and its import above it), then dump
``tests/store/schema_snapshots`` again with ``python -m tests.store.schema_dump`` and check the
difference is exactly the new step. A shipped step is never edited: databases in the field
recorded it as applied.
"""
