from __future__ import annotations

from typing import Any

from bot.sandbox.key_rate_limit import RateLimiter
from tests.support.clock import FakeClock

from .support import START, Connect, MakeSandbox


def test_limiter_counts_per_key_in_fixed_windows(clock: FakeClock) -> None:
    limiter = RateLimiter(2, clock)
    first, second, third = (limiter.hit("a") for _ in range(3))
    assert first and second and third
    assert (first.allowed, first.remaining) == (True, 1)
    assert (second.allowed, second.remaining) == (True, 0)
    assert (third.allowed, third.remaining) == (False, 0)
    assert third.reset == START + 60 and third.retry_after == 60
    other = limiter.hit("b")
    assert other is not None and other.allowed
    clock.advance(59.5)
    late = limiter.hit("a")
    assert late is not None and not late.allowed and late.retry_after == 1
    clock.advance(0.5)
    fresh = limiter.hit("a")
    assert fresh is not None and fresh.allowed and fresh.reset == START + 120


def test_no_limit_means_no_cap(clock: FakeClock) -> None:
    assert RateLimiter(None, clock).hit("a") is None


async def test_429_with_headers_and_retry_after(
    make_sandbox: MakeSandbox, scenario_data: dict[str, Any], connect: Connect, clock: FakeClock
) -> None:
    scenario_data["organization"]["rate_limit_per_minute"] = 3
    client = connect(make_sandbox(scenario_data))
    clock.advance(15)
    answers = [await client.get("/warehouses") for _ in range(4)]
    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    assert [a.headers["RateLimit-Remaining"] for a in answers] == ["2", "1", "0", "0"]
    assert all(a.headers["RateLimit-Limit"] == "3" for a in answers)
    assert all(a.headers["RateLimit-Reset"] == str(int(START + 60)) for a in answers)
    limited = answers[-1]
    assert limited.headers["Retry-After"] == "45"
    assert "Retry-After" not in answers[0].headers
    assert limited.json() == {
        "ok": False,
        "error": limited.json()["error"],
        "code": "rate_limited",
        "retryAfterSeconds": 45,
    }
    clock.advance(45)
    assert (await client.get("/warehouses")).status_code == 200


async def test_rate_limit_is_per_key(
    make_sandbox: MakeSandbox, scenario_data: dict[str, Any], connect: Connect
) -> None:
    other = "sk_live_SecondKey00000000000000001"
    scenario_data["organization"]["rate_limit_per_minute"] = 1
    scenario_data["api_keys"].append(
        {"id": "key_two", "secret": other, "scopes": ["deliveries:read"]}
    )
    box = make_sandbox(scenario_data)
    assert (await connect(box).get("/warehouses")).status_code == 200
    assert (await connect(box).get("/warehouses")).status_code == 429
    assert (await connect(box, key=other).get("/warehouses")).status_code == 200


async def test_capabilities_report_the_limit(api: Any) -> None:
    caps = (await api.get("/capabilities")).json()["capabilities"]
    assert caps["rateLimits"] == {"requestsPerMinute": 180, "windowSeconds": 60}


async def test_custom_plan_has_no_cap_and_no_headers(
    make_sandbox: MakeSandbox, scenario_data: dict[str, Any], connect: Connect
) -> None:
    scenario_data["organization"]["plan"] = "global"
    client = connect(make_sandbox(scenario_data))
    answers = [await client.get("/warehouses") for _ in range(200)]
    assert {a.status_code for a in answers} == {200}
    assert "RateLimit-Limit" not in answers[0].headers
    caps = (await client.get("/capabilities")).json()["capabilities"]
    assert caps["rateLimits"]["requestsPerMinute"] is None
