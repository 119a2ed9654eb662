"""A customer's own requests about their data, the same whichever door they come through:
"my data" (everything kept about them) and "forget me" (erased, the books kept anonymous).

Every channel (Telegram's ``/mydata`` and ``/forgetme``, WhatsApp's words, the agents' routes and
tools), the console's customer page and ``deliverybot customers export|forget`` call these two,
so each request is in the audit trail once, the same way, and never with the data itself:
the entry names who asked (``actor``: ``customer`` for the customer themself, else the
operator or the shell) and whom it is about. The forget's entry is written before the erasure,
which then rewrites the entry's subject to the customer's stand-in like every other entry about
them (``bot.store.customer_data``), so the trail keeps no real id of someone forgotten.
"""

from __future__ import annotations

from bot.chat_ref import UserRef
from bot.store import CustomerExport, ForgetOutcome, Store, delete_files

CUSTOMER_ACTOR = "customer"
"""The audit trail's actor of a request the customer made themself."""

EXPORT_ACTION = "customer_export"
FORGET_ACTION = "customer_forget"


async def export_customer(store: Store, user: UserRef, *, actor: str) -> CustomerExport:
    """Everything ``store`` keeps about ``user``; the request is in the audit trail."""
    exported = await store.customer_data.export(user)
    await store.audit.record(actor, EXPORT_ACTION, str(user), "done")
    return exported


async def forget_customer(store: Store, user: UserRef, *, actor: str) -> ForgetOutcome:
    """Erase ``user``'s data now (their finished deliveries anonymised, the open ones kept until
    they end), their photo files with it; the request is in the audit trail."""
    await store.audit.record(actor, FORGET_ACTION, str(user), "requested")
    outcome = await store.customer_data.forget(user)
    if outcome.files:
        await delete_files(store.media_dir, outcome.files)
    return outcome
