"""Phone numbers users proved are theirs, by sharing their own Telegram contact.

A contact a user shares may be anyone's; only when the contact's ``user_id`` is the sender's
own id does Telegram vouch that the number belongs to the sender. Drop-off codes go to a chat
only when this verified number equals the delivery's receiver phone, so ``record`` takes the
contact's user id and refuses a mismatch rather than trusting every caller to check.
"""

from __future__ import annotations

import re

from bot.chat_ref import UserRef
from bot.clocks import Clock
from bot.store.store_backend import StoreDatabase

_E164 = re.compile(r"^\+[1-9][0-9]{6,14}$")

_RECORD = """INSERT INTO contacts (channel, user_id, phone_e164, verified_at) VALUES (?, ?, ?, ?)
    ON CONFLICT (channel, user_id) DO UPDATE
    SET phone_e164 = excluded.phone_e164, verified_at = excluded.verified_at"""
_PHONE_FOR = "SELECT phone_e164 FROM contacts WHERE channel = ? AND user_id = ?"
_FORGET = "DELETE FROM contacts WHERE channel = ? AND user_id = ?"


class Contacts:
    """``store.contacts``: each user's verified phone number."""

    def __init__(self, db: StoreDatabase, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    async def record(self, user: UserRef, phone_e164: str, *, contact_user_id: int | None) -> None:
        """Remember ``phone_e164`` (already normalised) as ``user``'s own number.

        ``contact_user_id`` is the shared contact's user id (in ``user``'s channel); anything
        but ``user``'s id means the contact is someone else's, and ``ValueError`` is raised.
        """
        if contact_user_id != user.id:
            raise ValueError("only a user's own contact verifies their phone number")
        if not _E164.match(phone_e164):
            raise ValueError("phone number must be in E.164 form, e.g. +2348012345678")
        await self._db.execute(_RECORD, (user.channel, user.id, phone_e164, self._clock()))

    async def phone_for(self, user: UserRef) -> str | None:
        """The user's verified number, or None."""
        row = await self._db.fetch_one(_PHONE_FOR, (user.channel, user.id))
        return None if row is None else str(row[0])

    async def forget(self, user: UserRef) -> bool:
        """Drop the user's number (they asked, or shared a new one elsewhere)."""
        return await self._db.execute(_FORGET, (user.channel, user.id)) > 0
