"""Drop-off codes never pass through a hand-off: staff's message carrying a code of one of
the customer's deliveries is not relayed, and staff are told why in their chat."""

from __future__ import annotations

from bot.chat_ref import TELEGRAM, ChatRef
from bot.handoff.bodies import photo_body, text_body
from bot.handoff.codes import carries_code
from bot.handoff.desk import HandoffDesk
from bot.handoff.handoff_settings import HandoffSettings
from bot.ordering import ChatService
from conversations.texts.business_texts import BusinessTexts
from tests.fakes.handoff_sides import RecordingCustomers, RecordingStaff
from tests.support.words import SHIPPED_TEXTS, say

from .conftest import Org

CHAT = ChatRef(TELEGRAM, 42)
USER = CHAT.user(42)
RECEIVER = "+2348030000002"


def test_a_code_is_found_however_it_is_spaced() -> None:
    assert carries_code("the code is 4821", ["4821"])
    assert carries_code("code: 48 21.", ["4821"])
    assert carries_code("48-21", ["4821"])
    assert carries_code("it is ab12x!", ["AB12X"])
    assert not carries_code("call 08034821000", ["4821"])  # a longer number is another one
    assert not carries_code("gate 4822", ["4821"])
    assert not carries_code("no digits here", ["4821", ""])


async def test_staff_cannot_send_the_customers_drop_off_code(org: Org) -> None:
    store = org.store
    assert store is not None
    staff, customers = RecordingStaff(), RecordingCustomers()
    texts = BusinessTexts(SHIPPED_TEXTS)
    chats = ChatService(org.engine(), store, clock=org.clock, texts=texts)
    desk = HandoffDesk(store, chats, HandoffSettings(), texts=texts, staff=staff)
    desk.serve(TELEGRAM, customers)
    await store.deliveries.add("dlv_1", CHAT, USER.id, 100.0, RECEIVER, None)
    await store.otp.put("dlv_1", "4821", RECEIVER, created=500)
    asked = await desk.ask(CHAT, USER, name="Ada", language=None)
    assert asked.handoff is not None
    ref = asked.handoff.ref

    assert not await desk.reply(asked.handoff, text_body("Your code is 48 21"))
    assert not await desk.reply(asked.handoff, photo_body("file-1", "code 4821 on this"))
    assert customers.sent == []
    assert staff.told == [say("staff.code_refused", ref=ref)] * 2
    refused = [e for e in await store.audit.since(0) if e.action == "handoff_reply"]
    assert [e.outcome for e in refused] == ["refused_code", "refused_code"]

    # Other numbers pass, and so does the code once it has reached its receiver.
    assert await desk.reply(asked.handoff, text_body("Your rider is 10 minutes away"))
    assert await store.otp.mark_delivered("dlv_1", "4821", ChatRef(TELEGRAM, 77))
    assert await desk.reply(asked.handoff, text_body("4821 was sent to your receiver"))
    assert customers.texts() == ["Your rider is 10 minutes away", "4821 was sent to your receiver"]
