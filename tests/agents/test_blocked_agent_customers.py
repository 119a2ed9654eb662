"""A customer of an agent channel blocked by an operator (``shop:cust-1``): the JSON API's
conversation gets the one polite sentence and ends (a new one is refused with it, 403), an open
one is dropped, nothing is created;
another customer of the same channel orders as before, and so does the blocked one once
unblocked."""

from __future__ import annotations

from bot.chat_ref import UserRef
from bot.safety.customer_blocking import CustomerBlocking
from bot.safety.customer_names import customer_named
from tests.support.words import SHIPPED, say

from .conftest import TO_SUMMARY, AgentWorld


async def test_a_blocked_agent_customer_gets_one_sentence_and_nothing_is_created(
    world: AgentWorld,
) -> None:
    assert world.store is not None
    open_draft = await world.start_order("cust-1")
    customer = await customer_named(SHIPPED, world.store, "shop:cust-1")
    assert isinstance(customer, UserRef)
    blocking = CustomerBlocking(world.store)
    done = await blocking.block(customer, by="telegram:1900", reason="abuse")
    assert done.drafts == 1

    answered = (await world.answer(open_draft["id"], TO_SUMMARY[0])).json()
    started = await world.api.post("/api/conversations", json={"customer": "cust-1"})

    assert answered["messages"] == [say("safety.blocked")]
    assert answered["prompt"] is None and answered["finished"]
    # A new conversation is refused before it is written (test_agent_customer_limits.py).
    assert started.status_code == 403
    assert started.json()["message"] == say("safety.blocked")
    assert (await world.start_order("cust-2"))["prompt"] is not None  # another customer
    assert world.sandbox.call_counts().get("create_delivery", 0) == 0

    await blocking.unblock(customer, by="shell")
    assert (await world.start_order("cust-1"))["prompt"] is not None
