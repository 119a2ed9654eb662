from __future__ import annotations

from typing import Any

import httpx
import pytest

from bot.sandbox import Sandbox

from .support import Connect, MakeSandbox

READ_ONLY = "sk_live_ReadOnlyKey00000000000001"
WRITE_ONLY = "sk_live_WriteOnlyKey0000000000001"
REVOKED = "sk_live_RevokedKey000000000000001"
SUSPENDED = "sk_live_SuspendedKey0000000000001"


def _envelope(response: httpx.Response, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["ok"] is False and body["code"] == code and body["error"]
    assert set(body) <= {"ok", "error", "code", "fieldErrors", "retryAfterSeconds"}


@pytest.fixture
def keyed_sandbox(make_sandbox: MakeSandbox, scenario_data: dict[str, Any]) -> Sandbox:
    scenario_data["api_keys"] += [
        {"id": "key_read", "secret": READ_ONLY, "scopes": ["deliveries:read"]},
        {"id": "key_write", "secret": WRITE_ONLY, "scopes": ["deliveries:write"]},
        {"id": "key_old", "secret": REVOKED, "scopes": ["deliveries:read"], "state": "revoked"},
        {
            "id": "key_odd",
            "secret": SUSPENDED,
            "scopes": ["deliveries:read"],
            "state": "auto_revoked",
        },
    ]
    return make_sandbox(scenario_data)


async def test_bearer_and_x_api_key_both_work(sandbox: Sandbox, connect: Connect) -> None:
    for header in ("bearer", "x-api-key"):
        response = await connect(sandbox, header=header).get("/capabilities")
        assert response.status_code == 200 and response.json()["ok"] is True


async def test_bearer_scheme_is_case_insensitive(sandbox: Sandbox, connect: Connect) -> None:
    client = connect(sandbox, header=None)
    response = await client.get(
        "/capabilities", headers={"Authorization": f"bearer {sandbox.api_key}"}
    )
    assert response.status_code == 200


async def test_no_key_is_missing_api_key(sandbox: Sandbox, connect: Connect) -> None:
    _envelope(await connect(sandbox, header=None).get("/capabilities"), 401, "missing_api_key")


async def test_both_headers_are_refused(sandbox: Sandbox, connect: Connect) -> None:
    client = connect(sandbox, header="bearer")
    response = await client.get("/capabilities", headers={"X-Api-Key": sandbox.api_key})
    _envelope(response, 401, "missing_api_key")


@pytest.mark.parametrize(
    "authorization",
    ["Basic dXNlcjpwYXNz", "Bearer", "Bearer    ", "Token sk_live_SandboxLagosDemoKey0000000001"],
)
async def test_malformed_authorization_header(
    sandbox: Sandbox, connect: Connect, authorization: str
) -> None:
    client = connect(sandbox, header=None)
    response = await client.get("/capabilities", headers={"Authorization": authorization})
    _envelope(response, 401, "missing_api_key")


@pytest.mark.parametrize(
    "key", ["not-a-key", "sk_live_short", "sk_live_has space inside000000", "pk_live_" + "a" * 20]
)
async def test_key_in_wrong_format_is_missing_api_key(
    sandbox: Sandbox, connect: Connect, key: str
) -> None:
    response = await connect(sandbox, key=key, header="x-api-key").get("/capabilities")
    _envelope(response, 401, "missing_api_key")


async def test_legacy_test_key_is_refused(sandbox: Sandbox, connect: Connect) -> None:
    response = await connect(sandbox, key="sk_test_" + "a" * 24).get("/capabilities")
    _envelope(response, 403, "test_keys_unsupported")


async def test_unknown_key_is_invalid(sandbox: Sandbox, connect: Connect) -> None:
    response = await connect(sandbox, key="sk_live_" + "0" * 32).get("/capabilities")
    _envelope(response, 401, "invalid_api_key")


async def test_revoked_key_is_invalid(keyed_sandbox: Sandbox, connect: Connect) -> None:
    response = await connect(keyed_sandbox, key=REVOKED).get("/capabilities")
    _envelope(response, 401, "invalid_api_key")


async def test_auto_revoked_key(keyed_sandbox: Sandbox, connect: Connect) -> None:
    response = await connect(keyed_sandbox, key=SUSPENDED).get("/capabilities")
    _envelope(response, 401, "api_key_auto_revoked")


async def test_revoking_a_key_takes_effect_at_once(sandbox: Sandbox, connect: Connect) -> None:
    client = connect(sandbox)
    assert (await client.get("/capabilities")).status_code == 200
    sandbox.revoke_key("key_sandbox_demo", auto=True)
    _envelope(await client.get("/capabilities"), 401, "api_key_auto_revoked")
    sandbox.revoke_key("key_sandbox_demo")
    _envelope(await client.get("/capabilities"), 401, "invalid_api_key")


async def test_billing_terminated(
    make_sandbox: MakeSandbox, scenario_data: dict[str, Any], connect: Connect
) -> None:
    scenario_data["organization"]["billing_terminated"] = True
    box = make_sandbox(scenario_data)
    _envelope(await connect(box).get("/capabilities"), 403, "billing_terminated")


async def test_read_scope_allows_gets_only(
    keyed_sandbox: Sandbox, connect: Connect, pickup_body: dict[str, Any]
) -> None:
    client = connect(keyed_sandbox, key=READ_ONLY)
    assert (await client.get("/riders")).status_code == 200
    _envelope(await client.post("/deliveries", json=pickup_body), 403, "missing_scope")


async def test_write_scope_allows_writes_only(
    keyed_sandbox: Sandbox, connect: Connect, pickup_body: dict[str, Any]
) -> None:
    client = connect(keyed_sandbox, key=WRITE_ONLY)
    assert (await client.post("/deliveries", json=pickup_body)).status_code == 201
    _envelope(await client.get("/capabilities"), 403, "missing_scope")


def test_sandbox_exposes_a_key_with_both_scopes(keyed_sandbox: Sandbox) -> None:
    assert keyed_sandbox.api_key == "sk_live_SandboxLagosDemoKey0000000001"
    assert keyed_sandbox.signing_secret.startswith("whsec_")
    assert keyed_sandbox.api_key not in repr(keyed_sandbox)


def test_a_scenario_without_such_a_key_says_so(
    make_sandbox: MakeSandbox, scenario_data: dict[str, Any]
) -> None:
    scenario_data["api_keys"][0]["scopes"] = ["deliveries:read"]
    scenario_data["webhooks"] = []
    box = make_sandbox(scenario_data)
    with pytest.raises(LookupError):
        _ = box.api_key
    with pytest.raises(LookupError):
        _ = box.signing_secret
