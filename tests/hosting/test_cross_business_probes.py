"""The cross-business probe table: at every door of a host, one business's credential, secret
or reference presented at another business's door is refused, with nothing of either business
in the answer and nothing done on either.

Doors covered here, on the host's one web app: Telegram (``/telegram`` by secret token, and a
business's own ``/b/{name}/telegram``), the Partner API's webhooks (``/b/{name}/hooks/partner``
signed with another business's secret), the agents' ``/api`` (another business's key, at the
root and under a prefix, and another business's conversation id with the right key), and the
map Mini App (``initData`` signed with another bot's token).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

import httpx
from mcp import Client

from bot.agents.mcp_tools import build_mcp_server
from bot.partner.signing import SIGNATURE_HEADER, sign
from bot.staff.staff_door import StaffDoor
from bot.webapp.init_data import sign_init_data, user_fields
from tests.hosting.host_world import (
    HOST,
    HostWorld,
    Watched,
    agent_key_of,
    host_world,
    secret_of,
    whatsapp_of,
)

TELEGRAM_SECRET = "X-Telegram-Bot-Api-Secret-Token"
UPDATE = {
    "update_id": 1,
    "message": {"message_id": 1, "date": 0, "chat": {"id": 1, "type": "private"}},
}


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


async def telegram_other_secret(world: HostWorld) -> httpx.Response:
    headers = {TELEGRAM_SECRET: secret_of("globex")}
    return await world.web.post("/b/acme/telegram", json=UPDATE, headers=headers)


async def telegram_unknown_secret(world: HostWorld) -> httpx.Response:
    headers = {TELEGRAM_SECRET: "tg-secret-nobody-0123456789"}
    return await world.web.post("/telegram", json=UPDATE, headers=headers)


async def partner_event_signed_by_another(world: HostWorld) -> httpx.Response:
    body = json.dumps({"id": "evt_probe", "type": "delivery.created", "data": {}}).encode()
    globex = world.directory.shops["globex"].sandbox.signing_secret
    headers = {
        SIGNATURE_HEADER: sign(body, globex, int(time.time())),
        "content-type": "application/json",
    }
    return await world.web.post("/b/acme/hooks/partner", content=body, headers=headers)


async def api_other_key_under_prefix(world: HostWorld) -> httpx.Response:
    body = {"customer": "probe-1"}
    return await world.web.post(
        "/b/acme/api/conversations", json=body, headers=bearer(agent_key_of("globex"))
    )


async def api_unknown_key_at_root(world: HostWorld) -> httpx.Response:
    return await world.web.post(
        "/api/conversations", json={"customer": "probe-1"}, headers=bearer("no-such-key-0123456789")
    )


async def api_another_business_conversation(world: HostWorld) -> httpx.Response:
    started = await world.web.post(
        "/api/conversations",
        json={"customer": "globex-customer"},
        headers=bearer(agent_key_of("globex")),
    )
    assert started.status_code == 201, started.text
    conversation = started.json()["id"]
    return await world.web.get(
        f"/api/conversations/{conversation}", headers=bearer(agent_key_of("acme"))
    )


async def map_page_signed_by_another_bot(world: HostWorld) -> httpx.Response:
    token = world.directory.shops["globex"].telegram.token
    init_data = sign_init_data(user_fields(42, auth_date=int(time.time())), bot_token=token)
    headers = {"Authorization": f"tma {init_data}"}
    return await world.web.get("/b/acme/webapp/api/question?chat=42", headers=headers)


def signed_push(name: str, secret_of_app: str) -> tuple[bytes, dict[str, str]]:
    """A WhatsApp push of a message to business ``name``'s number, signed with
    ``secret_of_app``."""
    number = whatsapp_of(name)["phone_number_id"]
    value = {"messaging_product": "whatsapp", "metadata": {"phone_number_id": number}}
    entry = {"id": "1", "changes": [{"field": "messages", "value": value}]}
    body = json.dumps({"object": "whatsapp_business_account", "entry": [entry]}).encode()
    digest = hmac.new(secret_of_app.encode(), body, hashlib.sha256).hexdigest()
    headers = {"X-Hub-Signature-256": f"sha256={digest}", "content-type": "application/json"}
    return body, headers


async def whatsapp_push_signed_by_another(world: HostWorld) -> httpx.Response:
    body, headers = signed_push("acme", whatsapp_of("globex")["app_secret"])
    return await world.web.post("/whatsapp", content=body, headers=headers)


async def whatsapp_verify_with_another_token(world: HostWorld) -> httpx.Response:
    query = {
        "hub.mode": "subscribe",
        "hub.verify_token": whatsapp_of("globex")["verify_token"],
        "hub.challenge": "1234",
    }
    return await world.web.get("/b/acme/whatsapp", params=query)


@dataclass(frozen=True)
class Probe:
    door: str
    attempt: Callable[[HostWorld], Awaitable[httpx.Response]]
    refused_with: int


PROBES = (
    Probe(
        "whatsapp: a push naming a business's number, signed by another's app",
        whatsapp_push_signed_by_another,
        403,
    ),
    Probe(
        "whatsapp: Meta's check with another business's verify token",
        whatsapp_verify_with_another_token,
        403,
    ),
    Probe("telegram: another bot's secret at a business's door", telegram_other_secret, 403),
    Probe("telegram: a secret no bot has, at the root", telegram_unknown_secret, 403),
    Probe(
        "partner webhook: signed with another business's secret",
        partner_event_signed_by_another,
        400,
    ),
    Probe("api: another business's key under a prefix", api_other_key_under_prefix, 401),
    Probe("api: a key no business has, at the root", api_unknown_key_at_root, 401),
    Probe(
        "api: another business's conversation, with the right key",
        api_another_business_conversation,
        404,
    ),
    Probe("map page: initData signed by another bot", map_page_signed_by_another_bot, 401),
)


async def test_nothing_crosses_from_one_business_to_another(
    tmp_path: Path, host_dsn: str | None
) -> None:
    # One host for the whole table (each business's store is migrated once per backend).
    async with host_world(tmp_path, ("acme", "globex"), dsn=host_dsn) as world:
        await world.host.settled()
        crossed = [problem for probe in PROBES if (problem := await tried(world, probe))]
        crossed += await console_session_of_another(world)
        crossed += await mcp_conversation_of_another(world)
        # The control: the same push signed by acme's own app is taken, so the refusal above
        # was acme's own check, reached through the root by its number.
        body, headers = signed_push("acme", whatsapp_of("acme")["app_secret"])
        taken = await world.web.post("/whatsapp", content=body, headers=headers)
        assert taken.status_code == 200, taken.text
        acme = world.host.slot("acme")
        assert acme is not None
        async with acme.serving():  # what acme stored: nothing of the probes
            pass
        built = acme.built_business
        assert built is not None
        assert await built.pending_work() == 0
    assert crossed == []


async def tried(world: HostWorld, probe: Probe) -> str | None:
    """What went wrong when ``probe`` was tried (None: refused as it must be, with nothing of
    either business in the answer)."""
    answer = await probe.attempt(world)
    if answer.status_code != probe.refused_with:
        return f"{probe.door}: answered {answer.status_code}, not {probe.refused_with}"
    for word in ("acme", "globex", agent_key_of("globex"), secret_of("globex")):
        if word in answer.text:
            return f"{probe.door}: the answer holds {word!r}"
    return None


async def console_session_of_another(world: HostWorld) -> list[str]:
    """Acme's staff member, signed in to acme's console, opens globex's: sent to sign in, and
    shown nothing of globex."""
    acme = world.host.slot("acme")
    assert acme is not None
    async with acme.serving():
        built = acme.built_business
        assert isinstance(built, Watched)
        runtime = built.built.runtime
    settings, store = runtime.settings, runtime.store
    door = StaffDoor.from_settings(
        store, settings.console, settings.public_base_url, clock=store.clock
    )
    assert door is not None
    link = await door.invite("Ada", "admin")
    path = link.removeprefix(HOST)
    signed_in = await world.web.post(path, headers={"Origin": HOST})
    session = signed_in.cookies.get("console_session")
    if session is None:
        return [f"console: signing in to acme's console gave no session ({signed_in.status_code})"]
    cookie = {"Cookie": f"console_session={session}"}
    own = await world.web.get("/b/acme/console/deliveries", headers=cookie)
    other = await world.web.get("/b/globex/console/deliveries", headers=cookie)
    problems = []
    if own.status_code != 200:
        problems.append(f"console: acme's own session refused at acme ({own.status_code})")
    if other.status_code != 303 or "/b/globex/console/" not in other.headers.get("location", ""):
        problems.append(f"console: acme's session at globex answered {other.status_code}")
    return problems


async def mcp_conversation_of_another(world: HostWorld) -> list[str]:
    """Globex's MCP server starts a conversation; acme's, asked to answer it, finds none."""
    servers = {}
    for name in ("acme", "globex"):
        slot = world.host.slot(name)
        assert slot is not None
        async with slot.serving():
            built = slot.built_business
            assert isinstance(built, Watched)
            agents = built.built.runtime.agents
        assert agents is not None
        servers[name] = build_mcp_server(agents.conversations, "shop")
    async with Client(servers["globex"]) as globex:
        started = await globex.call_tool("start_order", {"customer": "globex-customer"})
    assert not started.is_error and started.structured_content is not None
    conversation = started.structured_content["id"]
    async with Client(servers["acme"]) as acme:
        asked = await acme.call_tool("answer", {"conversation_id": conversation, "answer": {}})
    text = json.dumps(asked.structured_content) + str(asked.content)
    if not asked.is_error or "globex" in text:
        return [f"mcp: acme's server answered globex's conversation: {text[:200]}"]
    return []
