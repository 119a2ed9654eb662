"""Schema step 9: hand-off links opened and operator alerts sent."""

from __future__ import annotations

from bot.store.schema_rendering import SchemaStep

_SHARED_BY_INSTANCES = (
    # Which chat opened which drop-off code hand-off link (its token), until ``expires_at``:
    # the contact that chat shares next may reach another instance.
    """CREATE TABLE otp_invitations (
        chat_id    {int} PRIMARY KEY,
        token      TEXT NOT NULL,
        expires_at {real} NOT NULL
    )""",
    # When each operator alert (by a hash of its text) was last sent, so it is not repeated
    # within a while by any instance.
    """CREATE TABLE operator_alerts (
        alert   TEXT PRIMARY KEY,
        sent_at {real} NOT NULL
    ){without_rowid}""",
)

STEP = SchemaStep("hand-off links opened and operator alerts sent", _SHARED_BY_INSTANCES)
