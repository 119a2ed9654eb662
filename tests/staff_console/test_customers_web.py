"""The console's customers over real HTTP on the core's web app, on both backends: the search
each way and refused, a customer's page (deliveries, block, limits hit), blocking and
unblocking by an admin (the customer's next turn refused, their drafts dropped, the trail
written as ``staff:<id>``), and the attempts refused with nothing changed: a dispatcher's or a
viewer's (403), one without its CSRF token, an oversized form, an unknown customer (404)."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator

import httpx
import markupsafe
import pytest

from bot.chat_ref import TELEGRAM, WHATSAPP, ChatRef, UserRef
from bot.staff_console.console_kit import FORM_LIMIT
from bot.store import ListedDetails, Store
from bot.store.audit import AuditEntry
from tests.staff_console.console_site import ConsoleSite, console_site
from tests.support.clock import FakeClock
from tests.support.words import SHIPPED, say

ADA = UserRef(TELEGRAM, 1900)
ADA_CHAT = ChatRef(TELEGRAM, 1900)
ADA_PAGE = "/console/customers/telegram/1900"
ADA_PHONE = "+2348021234567"
CHIDI_CHAT = ChatRef(WHATSAPP, 2348039998888)
CHIDI_SHOWN = "whatsapp:+2348039998888"
_CSRF = re.compile(r'name="csrf" value="([^"]+)"')


@pytest.fixture
async def site(store: Store, fake_clock: FakeClock) -> AsyncIterator[ConsoleSite]:
    async with console_site(store, fake_clock) as opened:
        await _customers(store, fake_clock)
        yield opened


async def _customers(store: Store, clock: FakeClock) -> None:
    """Ada (Telegram, two deliveries, a limit hit), Bola (Telegram, one), Chidi (WhatsApp,
    one, no name nor phone given but the number he writes from), an agent channel's customer
    cust-42 with one."""
    orders = (
        ("3f2a9c1e-0000-4000-8000-000000000001", ADA_CHAT, "Ada Okafor", ADA_PHONE),
        ("4b7d0e21-0000-4000-8000-000000000002", ADA_CHAT, "Ada Okafor", ADA_PHONE),
        ("5c8e1f32-0000-4000-8000-000000000003", ChatRef(TELEGRAM, 2001), "Bola Eze", None),
        ("7e0a3154-0000-4000-8000-000000000005", CHIDI_CHAT, None, None),
    )
    for n, (delivery_id, chat, name, phone) in enumerate(orders):
        details = ListedDetails(fee=2500.0, currency="NGN", customer_name=name, sender_phone=phone)
        await store.deliveries.add(
            delivery_id, chat, chat.id, clock() - 3600 + n, None, None, details=details
        )
    agent = await store.agents.user("shop-app", "cust-42", create=True)
    assert agent is not None
    await store.deliveries.add(
        "6d9f2043-0000-4000-8000-000000000004",
        ChatRef(agent.channel, 1),
        agent.id,
        clock(),
        None,
        None,
    )
    await store.audit.record("bot", "limit", str(ADA), "refused: creates_per_hour", "3")


def _shown(key: str, **values: object) -> str:
    return str(markupsafe.escape(SHIPPED.say(key, **values)))


async def _csrf(client: httpx.AsyncClient) -> str:
    page = await client.get(ADA_PAGE)
    assert page.status_code == 200, page.text
    found = _CSRF.search(page.text)
    assert found is not None
    return found.group(1)


async def _trail(store: Store, *actions: str) -> list[AuditEntry]:
    return [entry for entry in await store.audit.since(0) if entry.action in actions]


def _found(page: httpx.Response) -> list[str]:
    """The customers a results page lists, as named in commands."""
    return re.findall(r'<tr data-customer="([^"]+)">', page.text)


@pytest.mark.parametrize(
    ("typed", "found"),
    [
        ("okaf", ["telegram:1900"]),  # a part of a name, case-blind
        ("ADA OKAFOR", ["telegram:1900"]),
        ("e", None),  # one letter: refused below
        ("0802 123 4567", ["telegram:1900"]),  # the sender phone, written locally
        ("+234 802 123 4567", ["telegram:1900"]),
        ("1900", ["telegram:1900"]),  # a Telegram id
        ("telegram:2001", ["telegram:2001"]),
        ("whatsapp:+234 803 999 8888", [CHIDI_SHOWN]),  # a WhatsApp customer, by number
        ("whatsapp:2348039998888", [CHIDI_SHOWN]),  # ... as WhatsApp writes it
        ("whatsapp:0803 999 8888", [CHIDI_SHOWN]),  # ... written locally
        ("0803 999 8888", [CHIDI_SHOWN]),  # ... and found by a phone search
        ("whatsapp:+234 803 999 7777", []),  # a number nobody writes from
        ("shop-app:cust-42", ["shop-app:cust-42"]),  # an agent's customer, by its reference
        ("cust-4", ["shop-app:cust-42"]),  # ... and by a part of it
        ("agents:1", ["shop-app:cust-42"]),  # ... and by the bot's own number
        ("shop-app:cust-99", []),  # a known channel, nobody of that name
        ("telegram:777", []),  # nobody the bot knows
        ("nobody at all", []),
    ],
)
async def test_a_search_finds_customers_each_way(
    site: ConsoleSite, typed: str, found: list[str] | None
) -> None:
    client = await site.signed_in("Vic", "viewer")
    page = await client.get("/console/customers", params={"q": typed})
    if found is None:
        assert page.status_code == 400
        return
    assert page.status_code == 200, page.text
    assert _found(page) == found
    if found:
        assert 'href="/console/customers/' in page.text
    else:
        assert _shown("console_web.customers.none_found", typed=typed) in page.text


@pytest.mark.parametrize(
    ("typed", "key", "values"),
    [
        ("", "refused_empty", {}),
        ("   ", "refused_empty", {}),
        ("x" * 65, "refused_long", {"limit": 64}),
        ("e", "refused_short", {"least": 2}),
        ("+12", "refused_phone", {"typed": "+12"}),
        ("080-12", "refused_phone", {"typed": "080-12"}),
        ("telegram:abc", "refused_number", {"typed": "telegram:abc", "channel": "telegram"}),
        ("whatsapp:1900", "refused_number", {"typed": "whatsapp:1900", "channel": "whatsapp"}),
        (
            "signal:1900",
            "refused_channel",
            {"channel": "signal", "channels": "telegram, console, agents, whatsapp, shop-app"},
        ),
    ],
)
async def test_a_malformed_search_is_said_in_one_sentence_and_lists_nothing(
    site: ConsoleSite, typed: str, key: str, values: dict[str, object]
) -> None:
    client = await site.signed_in()
    page = await client.get("/console/customers", params={"q": typed})
    assert page.status_code == 400
    assert _shown(f"console_web.customers.{key}", **values) in page.text
    assert 'class="refusal" role="alert"' in page.text
    assert _found(page) == []


async def test_the_search_page_without_a_search_is_the_form_alone(site: ConsoleSite) -> None:
    client = await site.signed_in()
    page = await client.get("/console/customers")
    assert page.status_code == 200
    assert 'method="get" action="/console/customers"' in page.text
    assert 'class="refusal"' not in page.text and _found(page) == []
    assert '<a href="/console/customers">' in page.text  # in the navigation


async def test_a_customers_page_shows_who_their_deliveries_and_limits_hit(
    site: ConsoleSite,
) -> None:
    client = await site.signed_in("Dee", "dispatcher")
    page = await client.get(ADA_PAGE)
    assert page.status_code == 200, page.text
    text = page.text
    assert _shown("console_web.customers.customer", name="Ada Okafor") in text
    assert "<code>telegram:1900</code>" in text and ADA_PHONE in text
    for delivery_id in ("3f2a9c1e", "4b7d0e21"):
        assert f'href="/console/deliveries/{delivery_id}-0000-4000-8000-00000000000' in text
    assert "5c8e1f32" not in text  # Bola's
    assert _shown("console_web.customers.not_blocked") in text
    kind = SHIPPED.say("console_web.customers.limit.creates_per_hour")
    assert _shown("console_web.customers.limit_hit", kind=kind, limit="3") in text
    assert _shown("console_web.customers.admins_only") in text  # no form for a dispatcher
    assert "/block" not in text


async def test_an_agent_customers_page_names_them_by_their_channel(site: ConsoleSite) -> None:
    client = await site.signed_in()
    page = await client.get("/console/customers/agents/1")
    assert page.status_code == 200
    assert "<code>shop-app:cust-42</code>" in page.text
    assert _shown("console_web.customers.customer", name="cust-42") in page.text


@pytest.mark.parametrize(
    "path",
    [
        "/console/customers/telegram/777",
        "/console/customers/agents/99",
        "/console/customers/Tele%20gram/1",
        "/console/customers/telegram/12x",
        "/console/customers/telegram/" + "9" * 30,
    ],
)
async def test_an_unknown_customer_is_a_404(site: ConsoleSite, path: str) -> None:
    client = await site.signed_in("Ada", "admin")
    page = await client.get(path)
    assert page.status_code == 404
    assert "Traceback" not in page.text


async def test_an_admin_blocks_with_a_reason_and_unblocks(site: ConsoleSite, store: Store) -> None:
    await store.sessions.save(ADA_CHAT, ADA.id, "{}")  # an order of theirs, open
    admin = await site.signed_in("Ada", "admin")
    member = (await store.staff.named("Ada"))[0]
    page = await admin.get(ADA_PAGE)
    assert f'action="{ADA_PAGE}/block"' in page.text
    assert _shown("console_web.customers.reason_rule", least=3, most=200) in page.text

    blocked = await admin.post(
        f"{ADA_PAGE}/block",
        data={"csrf": await _csrf(admin), "reason": "  fifty  orders\nan hour "},
    )
    assert blocked.status_code == 303
    assert blocked.headers["location"] == f"{ADA_PAGE}?done=blocked&drafts=1"
    block = await store.customer_blocks.get(ADA)
    assert block is not None
    assert (block.reason, block.blocked_by) == ("fifty orders an hour", f"staff:{member.id}")
    assert await store.sessions.get(ADA_CHAT) is None  # their draft dropped
    (entry,) = await _trail(store, "block")
    assert (entry.actor, entry.subject, entry.detail) == (
        f"staff:{member.id}",
        "telegram:1900",
        "fifty orders an hour",
    )
    assert entry.outcome == "done; 1 open order(s) dropped"

    turn = await site.core.chats.start(ADA_CHAT, ADA)  # their next message
    assert turn.messages == (say("safety.blocked"),)

    shown = await admin.get(blocked.headers["location"])
    done = SHIPPED.say("safety.block_done", customer="telegram:1900")
    assert _shown("safety.drafts_dropped", count=1) in shown.text
    assert str(markupsafe.escape(done)) in shown.text
    assert f"Ada (staff:{member.id})" in shown.text
    assert _shown("console_web.customers.blocked_why", reason="fifty orders an hour") in shown.text
    found = await admin.get("/console/customers", params={"q": "okafor"})
    assert _shown("console_web.customers.blocked") in found.text

    again = await admin.post(f"{ADA_PAGE}/unblock", data={"csrf": await _csrf(admin)})
    assert again.status_code == 303
    assert again.headers["location"] == f"{ADA_PAGE}?done=unblocked"
    assert await store.customer_blocks.get(ADA) is None
    assert await site.core.chats.blocking.refusal(ADA, SHIPPED) is None
    (lifted,) = await _trail(store, "unblock")
    assert (lifted.actor, lifted.outcome) == (f"staff:{member.id}", "done")
    shown = await admin.get(again.headers["location"])
    assert _shown("safety.unblock_done", customer="telegram:1900") in shown.text


@pytest.mark.parametrize("typed", ["", "  ", "no", "x" * 201])
async def test_a_block_without_a_fit_reason_is_asked_again_with_the_text_kept(
    site: ConsoleSite, store: Store, typed: str
) -> None:
    admin = await site.signed_in("Ada", "admin")
    page = await admin.post(f"{ADA_PAGE}/block", data={"csrf": await _csrf(admin), "reason": typed})
    assert page.status_code == 400
    assert _shown("console_web.customers.refused_reason", least=3, most=200) in page.text
    assert f'name="reason" value="{typed.strip()}"' in page.text
    assert await store.customer_blocks.get(ADA) is None
    assert [e.outcome for e in await _trail(store, "block")] == ["refused: no reason"]


@pytest.mark.parametrize("role", ["dispatcher", "viewer"])
async def test_a_dispatcher_or_a_viewer_may_not_block_or_unblock(
    site: ConsoleSite, store: Store, role: str
) -> None:
    await store.customer_blocks.block(UserRef(TELEGRAM, 2001), by="shell", reason="spam")
    client = await site.signed_in("Sam", role)  # type: ignore[arg-type]
    csrf = await _csrf(client)
    for path in (f"{ADA_PAGE}/block", "/console/customers/telegram/2001/unblock"):
        refused = await client.post(path, data={"csrf": csrf, "reason": "spam orders"})
        assert refused.status_code == 403
        needed = SHIPPED.say("console_web.role.admin")
        text = SHIPPED.say(
            "console_web.refused_role", role=SHIPPED.say(f"console_web.role.{role}"), needed=needed
        )
        assert str(markupsafe.escape(text)) in refused.text
    assert await store.customer_blocks.get(ADA) is None
    assert await store.customer_blocks.get(UserRef(TELEGRAM, 2001)) is not None
    denied = await _trail(store, "console_denied", "block", "unblock")
    assert [(e.action, e.detail) for e in denied] == [
        ("console_denied", f"POST {ADA_PAGE}/block: {role} < admin"),
        ("console_denied", f"POST /console/customers/telegram/2001/unblock: {role} < admin"),
    ]


async def test_a_block_without_its_csrf_token_or_oversized_does_nothing(
    site: ConsoleSite, store: Store
) -> None:
    admin = await site.signed_in("Ada", "admin")
    missing = await admin.post(f"{ADA_PAGE}/block", data={"reason": "spam orders"})
    assert missing.status_code == 403
    wrong = await admin.post(f"{ADA_PAGE}/block", data={"csrf": "x" * 43, "reason": "spam"})
    assert wrong.status_code == 403
    huge = await admin.post(
        f"{ADA_PAGE}/block",
        data={"csrf": await _csrf(admin), "reason": "spam " * (FORM_LIMIT // 5 + 1)},
    )
    assert huge.status_code == 413
    assert await store.customer_blocks.get(ADA) is None
    assert [(e.action, e.outcome) for e in await _trail(store, "console_csrf", "block")] == [
        ("console_csrf", "refused"),
        ("console_csrf", "refused"),
    ]


async def test_blocking_an_unknown_customer_is_a_404_and_audited(
    site: ConsoleSite, store: Store
) -> None:
    admin = await site.signed_in("Ada", "admin")
    member = (await store.staff.named("Ada"))[0]
    csrf = await _csrf(admin)
    refused = await admin.post(
        "/console/customers/telegram/777/block", data={"csrf": csrf, "reason": "spam orders"}
    )
    assert refused.status_code == 404
    assert _shown("console_web.customers.not_found", customer="telegram:777") in refused.text
    assert await store.customer_blocks.all() == []
    (entry,) = await _trail(store, "block")
    assert (entry.actor, entry.subject, entry.outcome) == (
        f"staff:{member.id}",
        "telegram:777",
        "refused: unknown customer",
    )


async def test_a_block_from_the_console_ends_the_customers_hand_off(
    site: ConsoleSite, store: Store
) -> None:
    await store.handoffs.open(ADA_CHAT, ADA, name="Ada", flow=None, step=None, language=None)
    admin = await site.signed_in("Ada", "admin")
    member = (await store.staff.named("Ada"))[0]
    data = {"csrf": await _csrf(admin), "reason": "abusive messages"}
    assert (await admin.post(f"{ADA_PAGE}/block", data=data)).status_code == 303
    assert await store.handoffs.waiting_of(ADA) == []
    (closed,) = await _trail(store, "handoff_close")
    assert (closed.actor, closed.outcome) == (f"staff:{member.id}", "done; customer blocked")
