"""Where one customer's rows are: their chats, and the work of theirs still under way.

Most rows about a customer name them (``channel``, ``user_id``); many name only a chat (a
photo, a sent marker, a WhatsApp window, an agent event). A customer's chats are their private
chat, whose id is their own in every channel but the agent channels (a Telegram user's private
chat, a WhatsApp number, the console's customer), and every chat a row of theirs names: their
sessions, deliveries, hand-offs and creates, and an agent channel's customer's conversations.
Orders are taken in private chats only, so no other customer's rows are in these chats.

Work under way is a delivery not delivered or cancelled yet, or a create whose answer is not
settled (it may still make one): its chat keeps what that work needs until it ends
(``bot.store.customer_data``).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.chat_ref import AGENTS, ChatRef, UserRef
from bot.store.database import Executor
from bot.store.status_progress import FINAL_STATUSES

FINAL_SQL = ", ".join(f"'{status}'" for status in sorted(FINAL_STATUSES))
"""The final statuses as an SQL list (``status IN (...)``)."""

_NAMED_CHATS = """SELECT channel, chat_id FROM sessions WHERE channel = ? AND user_id = ?
    UNION SELECT channel, chat_id FROM deliveries WHERE channel = ? AND user_id = ?
    UNION SELECT channel, chat_id FROM handoffs WHERE channel = ? AND user_id = ?
    UNION SELECT channel, chat_id FROM create_intents WHERE channel = ? AND user_id = ?
    UNION SELECT channel, chat_id FROM unconfirmed_creates WHERE channel = ? AND user_id = ?"""
_CONVERSATIONS = "SELECT seq FROM agent_conversations WHERE customer_seq = ?"
_OPEN_DELIVERIES = f"""SELECT delivery_id, channel, chat_id FROM deliveries
    WHERE channel = ? AND user_id = ? AND status NOT IN ({FINAL_SQL})
    ORDER BY created_at, delivery_id"""  # noqa: S608 (fixed text only)
# A create is unsettled while it has no notice: answered (a delivery, or a definite refusal)
# it has one, and its delivery, if any, is among the deliveries.
_UNSETTLED_CREATES = """SELECT channel, chat_id FROM create_intents
        WHERE channel = ? AND user_id = ? AND notice IS NULL
    UNION SELECT channel, chat_id FROM unconfirmed_creates
        WHERE channel = ? AND user_id = ? AND notice IS NULL"""


@dataclass(frozen=True)
class CustomerChats:
    """``user``'s chats, and of them those with work under way (``busy``), whose open
    deliveries are ``open_deliveries``."""

    user: UserRef
    chats: tuple[ChatRef, ...]
    busy: frozenset[ChatRef]
    open_deliveries: tuple[str, ...]

    @property
    def idle(self) -> tuple[ChatRef, ...]:
        """The chats with no work under way: everything in them may go."""
        return tuple(chat for chat in self.chats if chat not in self.busy)


async def customer_chats(db: Executor, user: UserRef) -> CustomerChats:
    """Where ``user``'s rows are, read through ``db`` (a transaction's, for an erasure)."""
    key = (user.channel, user.id)
    found: set[ChatRef] = set()
    if user.channel == AGENTS:
        rows = await db.fetch_all(_CONVERSATIONS, (user.id,))
        found |= {ChatRef(AGENTS, int(row[0])) for row in rows}
    else:
        found.add(ChatRef(user.channel, user.id))
    rows = await db.fetch_all(_NAMED_CHATS, key * 5)
    found |= {ChatRef(str(row[0]), int(row[1])) for row in rows}
    opened = await db.fetch_all(_OPEN_DELIVERIES, key)
    busy = {ChatRef(str(row[1]), int(row[2])) for row in opened}
    rows = await db.fetch_all(_UNSETTLED_CREATES, key * 2)
    busy |= {ChatRef(str(row[0]), int(row[1])) for row in rows}
    return CustomerChats(
        user,
        tuple(sorted(found | busy)),
        frozenset(busy),
        tuple(str(row[0]) for row in opened),
    )
