"""The console's hand-offs over real HTTP on the core's web app, on both backends: the desk
lists the hand-offs not closed with their owner and last messages; a dispatcher takes one
(the staff card is redrawn with the owner), replies (the customer gets it, the card shows
it) and gives it back; two takes at once make one owner; and every refusal (a viewer's post,
a missing CSRF token, a malformed or unknown reference, an empty or too long reply, a place
that is not one, a closed or somebody else's hand-off) is a plain page, changes nothing and
is in the audit trail."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass

import httpx
import markupsafe
import pytest

from bot.chat_ref import ChatRef, UserRef
from bot.handoff.bodies import text_body
from bot.handoff.desk import HandoffDesk
from bot.staff_console.handoffs_section import REPLY_LIMIT
from bot.store import Store
from bot.store.handoffs import Handoff
from tests.fakes.handoff_sides import RecordingCustomers, RecordingStaff
from tests.staff_console.console_site import CONSOLE, PUBLIC, ConsoleSite, console_site
from tests.support.clock import FakeClock
from tests.support.words import SHIPPED

_CSRF = re.compile(r'name="csrf" value="([^"]+)"')
ADA = ChatRef("telegram", 1001)
BOLA = ChatRef("telegram", 1002)
OLU = UserRef("telegram", 1900)  # an operator in the Telegram group


@dataclass
class Desk:
    """The console site, its desk with recording sides, and one hand-off Ada asked for."""

    site: ConsoleSite
    desk: HandoffDesk
    staff: RecordingStaff
    customers: RecordingCustomers
    ada: Handoff


@pytest.fixture
async def world(store: Store, fake_clock: FakeClock) -> AsyncIterator[Desk]:
    async with console_site(store, fake_clock) as site:
        desk = site.core.handoffs
        staff, customers = RecordingStaff(), RecordingCustomers()
        desk.use_staff(staff)
        desk.serve("telegram", customers)
        asked = await desk.ask(ADA, ADA.user(ADA.id), name="Ada Obi", language="en")
        assert asked.handoff is not None
        await desk.from_customer(asked.handoff, text_body("I can't find my hostel"))
        yield Desk(site, desk, staff, customers, asked.handoff)


def _shown(key: str, **values: object) -> str:
    return str(markupsafe.escape(SHIPPED.say(key, **values)))


async def _csrf(client: httpx.AsyncClient, ref: str) -> str:
    page = await client.get(f"/console/handoffs/{ref}")
    assert page.status_code == 200, page.text
    found = _CSRF.search(page.text)
    assert found is not None
    return found.group(1)


async def _post(
    client: httpx.AsyncClient, ref: str, act: str, csrf: str, **fields: str
) -> httpx.Response:
    return await client.post(f"/console/handoffs/{ref}/{act}", data={"csrf": csrf, **fields})


async def _member_id(store: Store, name: str) -> int:
    (member,) = await store.staff.named(name)
    return member.id


async def _trail(store: Store) -> list[tuple[str, str, str, str]]:
    return [
        (e.actor, e.action, e.subject, e.outcome)
        for e in await store.audit.since(0)
        if e.action.startswith("handoff_") or e.action in ("console_denied", "console_csrf")
    ]


async def test_the_desk_lists_waiting_and_taken_hand_offs(world: Desk, store: Store) -> None:
    bola = await world.desk.ask(BOLA, BOLA.user(BOLA.id), name="Bola Ahmed", language="en")
    assert bola.handoff is not None
    await world.desk.take(bola.handoff.ref, OLU, "Olu")  # taken at the Telegram card
    gone = await world.desk.ask(
        ChatRef("telegram", 1003), UserRef("telegram", 1003), name="Chidi", language="en"
    )
    assert gone.handoff is not None
    await world.desk.close(gone.handoff.ref)

    client = await world.site.signed_in("Vic", "viewer")
    page = await client.get("/console/handoffs")

    assert page.status_code == 200
    listed = re.findall(r'<article class="handoff" data-handoff="([A-Z2-9]{6})">', page.text)
    assert sorted(listed) == sorted([world.ada.ref, bola.handoff.ref])  # not the closed one
    ada = page.text[page.text.index(f'data-handoff="{world.ada.ref}"') :]
    ada = ada[: ada.index("</article>")]
    assert "Ada Obi" in ada and _shown("staff.card_open") in ada
    assert _shown("staff.card_no_order") in ada
    assert "I can&#39;t find my hostel" in ada and _shown("staff.said_customer") in ada
    assert _shown("staff.card_taken", owner="Olu") in page.text
    assert "/take" not in page.text  # a viewer reads; no form to act
    assert f'href="/console/handoffs/{world.ada.ref}"' in page.text
    nav = page.text[page.text.index("<nav") : page.text.index("</nav>")]
    assert 'href="/console/handoffs"' in nav


async def test_a_dispatcher_takes_replies_and_gives_back(world: Desk, store: Store) -> None:
    client = await world.site.signed_in("Bob", "dispatcher")
    ref = world.ada.ref
    csrf = await _csrf(client, ref)
    bob = await _member_id(store, "Bob")

    taken = await _post(client, ref, "take", csrf)
    assert (taken.status_code, taken.headers["location"]) == (303, f"/console/handoffs/{ref}")
    handoff = await world.desk.get(ref)
    assert handoff is not None and handoff.state == "taken"
    assert (handoff.owner, handoff.owner_name) == (UserRef("staff", bob), "Bob")
    assert SHIPPED.say("staff.card_taken", owner="Bob") in world.staff.cards[-1]
    page = await client.get(f"/console/handoffs/{ref}")
    assert _shown("staff.card_taken", owner="Bob") in page.text
    assert 'action="/console/handoffs/' + ref + '/take"' not in page.text  # taken: no take

    sent = await _post(client, ref, "reply", csrf, text="  Hello! Which hostel is it?  ")
    assert sent.status_code == 303
    assert world.customers.texts() == ["Hello! Which hostel is it?"]
    said_staff = SHIPPED.say("staff.said_staff")
    assert f"{said_staff}: Hello! Which hostel is it?" in world.staff.cards[-1]
    page = await client.get(f"/console/handoffs/{ref}")
    assert page.text.index("I can&#39;t find my hostel") < page.text.index("Which hostel is it?")

    done = await _post(client, ref, "done", csrf)
    assert done.status_code == 303
    handoff = await world.desk.get(ref)
    assert handoff is not None and handoff.state == "closed"
    assert world.customers.texts()[-1] == SHIPPED.say("human.closed_no_order")
    assert SHIPPED.say("staff.card_closed") in world.staff.cards[-1]
    page = await client.get(f"/console/handoffs/{ref}")
    assert _shown("console_web.handoffs.closed_note") in page.text
    assert "/reply" not in page.text and "/done" not in page.text
    listed = await client.get("/console/handoffs")
    assert f'data-handoff="{ref}"' not in listed.text

    subject = f"hand-off {ref}"
    assert await _trail(store) == [
        (f"staff:{bob}", "handoff_take", subject, "done"),
        (f"staff:{bob}", "handoff_reply", subject, "done"),
        (f"staff:{bob}", "handoff_close", subject, "done"),
    ]


async def test_two_takes_at_once_make_one_owner(world: Desk, store: Store) -> None:
    bob = await world.site.signed_in("Bob", "dispatcher")
    eve = await world.site.signed_in("Eve", "admin")
    ref = world.ada.ref
    tokens = [await _csrf(bob, ref), await _csrf(eve, ref)]

    answers = await asyncio.gather(
        _post(bob, ref, "take", tokens[0]), _post(eve, ref, "take", tokens[1])
    )

    assert sorted(a.status_code for a in answers) == [303, 409]
    handoff = await world.desk.get(ref)
    assert handoff is not None and handoff.owner_name in ("Bob", "Eve")
    (lost,) = [a for a in answers if a.status_code == 409]
    assert _shown("staff.already_taken", owner=handoff.owner_name, ref=ref) in lost.text
    outcomes = sorted(outcome for _, action, _, outcome in await _trail(store))
    assert outcomes == ["done", f"refused: taken_by_other ({handoff.owner_name})"]


async def test_a_reply_to_a_hand_off_telegram_took_is_refused(world: Desk, store: Store) -> None:
    ref = world.ada.ref
    await world.desk.take(ref, OLU, "Olu")
    client = await world.site.signed_in("Bob", "dispatcher")
    csrf = await _csrf(client, ref)
    page = await client.get(f"/console/handoffs/{ref}")
    assert _shown("staff.card_taken", owner="Olu") in page.text
    assert "/reply" not in page.text  # somebody else's: no reply form

    for act, fields in (("reply", {"text": "Hi"}), ("take", {})):
        refused = await _post(client, ref, act, csrf, **fields)
        assert refused.status_code == 409
        assert _shown("staff.already_taken", owner="Olu", ref=ref) in refused.text
    assert world.customers.sent == []
    handoff = await world.desk.get(ref)
    assert handoff is not None and handoff.owner == OLU


async def test_an_operator_owns_a_hand_off_at_both_doors(
    store: Store, fake_clock: FakeClock
) -> None:
    """Olu took it with the Telegram card; signed in to the console by his account, he is its
    owner there too, and answers it."""
    console = CONSOLE.model_copy(update={"dispatchers": [str(OLU)]})
    async with console_site(store, fake_clock, console) as site:
        customers = RecordingCustomers()
        site.core.handoffs.use_staff(RecordingStaff())
        site.core.handoffs.serve("telegram", customers)
        asked = await site.core.handoffs.ask(ADA, ADA.user(ADA.id), name="Ada", language="en")
        assert asked.handoff is not None
        ref = asked.handoff.ref
        await site.core.handoffs.take(ref, OLU, "Olu")
        client = site.client()
        link = await site.door.link_for(OLU, "Olu")
        assert (await client.post(link.removeprefix(PUBLIC))).status_code == 303

        page = await client.get(f"/console/handoffs/{ref}")
        assert f'action="/console/handoffs/{ref}/reply"' in page.text
        csrf = await _csrf(client, ref)
        assert (await _post(client, ref, "reply", csrf, text="On my way")).status_code == 303
        assert customers.texts() == ["On my way"]
        olu = await _member_id(store, "Olu")
        assert (f"staff:{olu}", "handoff_reply", f"hand-off {ref}", "done") in await _trail(store)


async def test_refusals_change_nothing_and_are_audited(world: Desk, store: Store) -> None:
    ref = world.ada.ref
    viewer = await world.site.signed_in("Vic", "viewer")
    client = await world.site.signed_in("Bob", "dispatcher")
    csrf = await _csrf(client, ref)
    vic_csrf = await _csrf(viewer, ref)
    bob = await _member_id(store, "Bob")

    as_viewer = await _post(viewer, ref, "take", vic_csrf)
    assert as_viewer.status_code == 403
    no_csrf = await client.post(f"/console/handoffs/{ref}/take", data={})
    assert no_csrf.status_code == 403
    wrong = await _post(client, ref, "done", "x" * 40)
    assert wrong.status_code == 403

    for typed in ("abc", "K7M2Q0", "K7M2QX1", "%3Cb%3E"):
        page = await client.get(f"/console/handoffs/{typed}")
        assert page.status_code == 400, typed
        assert (await _post(client, typed, "take", csrf)).status_code == 400
    unknown = await client.get("/console/handoffs/KKKKKK")
    assert unknown.status_code == 404
    assert _shown("console_web.handoffs.not_found", ref="KKKKKK") in unknown.text
    assert (await _post(client, "kkkkkk", "take", csrf)).status_code == 404

    for text in ("", "   ", "x" * (REPLY_LIMIT + 1)):
        refused = await _post(client, ref, "reply", csrf, text=text)
        assert refused.status_code == 400
    assert _shown("console_web.handoffs.refused_long", limit=REPLY_LIMIT) in refused.text
    for lat, lng in (("abc", "3.4"), ("91", "3.4"), ("6.5", "-181"), ("nan", "1"), ("", "")):
        refused = await _post(client, ref, "place", csrf, latitude=lat, longitude=lng)
        assert refused.status_code == 400, (lat, lng)
    refused = await _post(client, ref, "place", csrf, latitude="6.5", longitude="3.4")
    assert refused.status_code == 409  # no order waits on a place question
    assert _shown("console_web.handoffs.not_at_place", ref=ref) in refused.text

    handoff = await world.desk.get(ref)
    assert handoff is not None and handoff.state == "open" and handoff.owner is None
    assert world.customers.sent == []

    await world.desk.close(ref)
    closed = await _post(client, ref, "take", csrf)
    assert closed.status_code == 409
    assert _shown("staff.already_closed", ref=ref) in closed.text
    again = await _post(client, ref, "done", csrf)
    assert again.status_code == 409
    late = await _post(client, ref, "reply", csrf, text="Hello?")
    assert late.status_code == 404
    assert world.customers.texts() == [SHIPPED.say("human.closed_no_order")]

    trail = await _trail(store)
    actions = [(actor, action, outcome) for actor, action, _, outcome in trail]
    vic = await _member_id(store, "Vic")
    assert (f"staff:{vic}", "console_denied", "refused") in actions
    assert actions.count((f"staff:{bob}", "console_csrf", "refused")) == 2
    assert actions.count((f"staff:{bob}", "handoff_take", "refused: malformed reference")) == 4
    assert (f"staff:{bob}", "handoff_take", "refused: no_such") in actions
    assert actions.count((f"staff:{bob}", "handoff_reply", "refused: empty")) == 2
    assert (f"staff:{bob}", "handoff_reply", f"refused: over {REPLY_LIMIT} characters") in actions
    assert actions.count((f"staff:{bob}", "handoff_fill", "refused: not a place")) == 5
    assert (f"staff:{bob}", "handoff_fill", "refused: not at a place question") in actions
    assert (f"staff:{bob}", "handoff_take", "refused: already_closed") in actions
    assert (f"staff:{bob}", "handoff_close", "refused: already_closed") in actions
    assert (f"staff:{bob}", "handoff_reply", "refused: no_such") in actions
    assert not any(
        outcome == "done" and actor.startswith("staff:") for actor, _, outcome in actions
    )
