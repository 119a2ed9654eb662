"""Schema step 19: staff members, their one-time sign-in links and their sessions."""

from __future__ import annotations

from bot.store.schema_rendering import SchemaStep

_STAFF = (
    # A member of the business's staff (``bot.store.staff``): their name, role, the account
    # they are (an operator's Telegram account, at most one member each; none for one invited
    # from the shell), the generation of their sessions (signing out everywhere moves it,
    # killing every older one) and when they were last seen in the console.
    """CREATE TABLE staff_members (
        id           {serial_key},
        name         TEXT NOT NULL,
        role         TEXT NOT NULL,
        channel      TEXT,
        user_id      {int},
        created_at   {real} NOT NULL,
        generation   {int} NOT NULL DEFAULT 0,
        last_seen_at {real}
    )""",
    "CREATE UNIQUE INDEX staff_members_by_account ON staff_members (channel, user_id)",
    # A sign-in link: only the SHA-256 of its token is kept; it is used once, before expires_at.
    """CREATE TABLE staff_links (
        token_hash   TEXT PRIMARY KEY,
        member_id    {int} NOT NULL REFERENCES staff_members (id),
        created_at   {real} NOT NULL,
        expires_at   {real} NOT NULL,
        used_at      {real}
    )""",
    "CREATE INDEX staff_links_by_expiry ON staff_links (expires_at)",
    # A signed-in session: only the hash of its token; its CSRF token; when it began, when it
    # was last seen, the policy it was opened under (its end, its idle time) and the member's
    # generation then.
    """CREATE TABLE staff_sessions (
        token_hash   TEXT PRIMARY KEY,
        member_id    {int} NOT NULL REFERENCES staff_members (id),
        csrf_token   TEXT NOT NULL,
        created_at   {real} NOT NULL,
        last_seen_at {real} NOT NULL,
        expires_at   {real} NOT NULL,
        idle_seconds {real} NOT NULL,
        generation   {int} NOT NULL
    )""",
    "CREATE INDEX staff_sessions_by_member ON staff_sessions (member_id)",
)

STEP = SchemaStep("staff members, their sign-in links and sessions", _STAFF)
