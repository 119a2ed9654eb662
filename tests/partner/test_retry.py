"""Retry policy: 429 waits, back-off after upstream failures, and what each endpoint repeats."""

from __future__ import annotations

import asyncio
import contextlib
import random
from email.utils import formatdate

import httpx
import pytest

from bot.partner import errors, retry
from bot.partner.options import ClientOptions
from bot.partner.request_limiter import RequestLimiter
from bot.partner.retry import RetryPolicy
from bot.sandbox.key_rate_limit import RateLimiter as ServiceWindows

OPTIONS = ClientOptions()
NOW = 1_700_000_000.0


# --- where the 429 wait comes from -------------------------------------------------------------


@pytest.mark.parametrize(
    ("headers", "body_seconds", "expected"),
    [
        ({"retry-after": "12"}, None, 12.0),
        ({"retry-after": "12"}, 40.0, 12.0),  # the header wins over the body
        ({"retry-after": formatdate(NOW + 30, usegmt=True)}, None, 30.0),
        ({"retry-after": formatdate(NOW - 30, usegmt=True)}, None, 0.0),
        ({"retry-after": "-5"}, None, 0.0),
        ({}, 7.5, 7.5),
        ({"retry-after": "soon"}, 7.5, 7.5),  # unreadable header: next source
        ({"ratelimit-reset": str(int(NOW + 42))}, None, 42.0),
        ({"ratelimit-reset": str(int(NOW + 42))}, 3.0, 3.0),  # the body wins over reset
        ({"ratelimit-reset": "20"}, None, 20.0),  # a small number is seconds, not a date
        ({"ratelimit-reset": str(int(NOW - 10))}, None, 0.0),
        ({"ratelimit-reset": "never"}, None, None),
        ({}, None, None),
        ({}, float("nan"), None),
    ],
)
def test_retry_after_hint_sources_in_order(headers, body_seconds, expected):
    assert retry.retry_after_hint(httpx.Headers(headers), body_seconds, NOW) == expected


def test_rate_limit_wait_is_never_zero_and_grows():
    waits = [retry.rate_limit_wait(0.0, n, OPTIONS) for n in (1, 2, 3)]
    assert waits == [0.5, 1.0, 2.0]
    assert retry.rate_limit_wait(None, 1, ClientOptions(backoff_base_seconds=0)) == 0.1
    assert retry.rate_limit_wait(12.0, 1, OPTIONS) == 12.0


@pytest.mark.parametrize(("fraction", "expected"), [(0.0, 10.0), (0.5, 11.0), (1.0, 12.0)])
def test_jitter_adds_up_to_a_fifth_and_never_shortens(fixed_rng, fraction, expected):
    assert retry.with_jitter(10.0, OPTIONS, fixed_rng(fraction)) == pytest.approx(expected)


def test_jitter_stays_under_the_wait_cap(fixed_rng):
    assert retry.with_jitter(59.0, OPTIONS, fixed_rng(1.0)) == 60.0


def test_backoff_is_full_jitter_under_a_growing_capped_ceiling():
    rng = random.Random(3)
    for attempt, ceiling in [(1, 0.5), (2, 1.0), (3, 2.0), (4, 4.0), (5, 8.0), (9, 8.0)]:
        delays = [retry.backoff_delay(attempt, OPTIONS, rng) for _ in range(200)]
        assert all(0.0 <= d <= ceiling for d in delays)
        assert max(delays) > ceiling * 0.8  # spread over the whole interval


@pytest.mark.parametrize(
    ("policy", "error", "surely_unsent", "expected"),
    [
        (RetryPolicy.READ, errors.CapabilitiesFailed(status=503), False, True),
        (RetryPolicy.READ, errors.ServerError(status=502), False, True),
        (RetryPolicy.READ, errors.ServerError(status=504), False, True),
        (RetryPolicy.READ, errors.RequestTimeout(), False, True),
        (RetryPolicy.READ, errors.ConnectionFailed(), False, True),
        (RetryPolicy.READ, errors.GetFailed(status=500), False, False),
        (RetryPolicy.READ, errors.NotFound(status=404), False, False),
        (RetryPolicy.READ, errors.PartnerUnreachable(), False, False),
        (RetryPolicy.IDEMPOTENT, errors.UpstreamUnavailable(status=503), False, True),
        (RetryPolicy.IDEMPOTENT, errors.RequestTimeout(), False, True),
        (RetryPolicy.IDEMPOTENT, errors.InvalidFields(status=400), False, False),
        (RetryPolicy.UNSENT_ONLY, errors.CreateFailed(status=503), False, False),
        (RetryPolicy.UNSENT_ONLY, errors.ServerError(status=502), False, False),
        (RetryPolicy.UNSENT_ONLY, errors.ServerError(status=504), False, False),
        (RetryPolicy.UNSENT_ONLY, errors.ConnectionFailed(), True, True),
        (RetryPolicy.UNSENT_ONLY, errors.RequestTimeout(), True, True),
        (RetryPolicy.UNSENT_ONLY, errors.ConnectionFailed(), False, False),
        (RetryPolicy.UNSENT_ONLY, errors.RequestTimeout(), False, False),
        (RetryPolicy.UNSENT_ONLY, errors.UpstreamUnavailable(status=503), False, False),
    ],
)
def test_may_retry_by_policy(policy, error, surely_unsent, expected):
    assert retry.may_retry(policy, error, surely_unsent=surely_unsent) is expected


# --- 429 through the client, on a fake clock ---------------------------------------------------


def rate_limited(api, headers=None, **body):
    return api.error(429, "rate_limited", "Too many requests", headers=headers, **body)


def ok_warehouses(api):
    return api.reply(200, {"ok": True, "warehouses": []})


@pytest.mark.parametrize(
    ("headers", "body", "expected_wait"),
    [
        ({"Retry-After": "5"}, {}, 5.0),
        ({}, {"retryAfterSeconds": 7}, 7.0),
        ({"RateLimit-Reset": str(int(NOW) + 9)}, {}, 9.0),
        (
            {"Retry-After": "4", "RateLimit-Reset": str(int(NOW) + 50)},
            {"retryAfterSeconds": 8},
            4.0,
        ),
    ],
    ids=["retry-after header", "body retryAfterSeconds", "ratelimit-reset", "header first"],
)
async def test_a_429_is_waited_out_as_the_service_asks(
    make_client, api, sleeper, fixed_rng, headers, body, expected_wait
):
    client = make_client(rng=fixed_rng(0.0))
    api.on("GET", "/warehouses", rate_limited(api, headers, **body), ok_warehouses(api))
    assert await client.list_warehouses() == []
    assert sleeper.delays == [expected_wait]
    assert len(api.requests) == 2


async def test_the_429_wait_has_jitter(make_client, api, sleeper, fixed_rng):
    client = make_client(rng=fixed_rng(1.0))
    api.on("GET", "/warehouses", rate_limited(api, {"Retry-After": "5"}), ok_warehouses(api))
    await client.list_warehouses()
    assert sleeper.delays == [pytest.approx(6.0)]


async def test_a_whole_rate_limit_window_is_waited_out_by_default(client, api, sleeper):
    # The service counts per 60-second window, so "come back when it ends" is up to 60 s.
    api.on("GET", "/warehouses", rate_limited(api, {"Retry-After": "60"}), ok_warehouses(api))
    assert await client.list_warehouses() == []
    assert sleeper.delays == [60.0]


async def test_a_wait_beyond_the_cap_is_reported_not_slept(client, api, sleeper):
    api.on("GET", "/warehouses", rate_limited(api, {"Retry-After": "120"}))
    with pytest.raises(errors.RateLimited) as caught:
        await client.list_warehouses()
    assert caught.value.retry_after == 120.0
    assert sleeper.delays == []
    assert len(api.requests) == 1


async def test_429_retries_run_out(make_client, api, sleeper, fixed_rng):
    client = make_client(options=ClientOptions(rate_limit_retries=2), rng=fixed_rng(0.0))
    api.on("GET", "/warehouses", rate_limited(api, {"Retry-After": "1"}))
    with pytest.raises(errors.RateLimited) as caught:
        await client.list_warehouses()
    assert len(api.requests) == 3
    assert sleeper.delays == [1.0, 1.0]
    assert caught.value.retry_after is not None and caught.value.retry_after >= 1.0


async def test_retry_after_zero_is_not_a_tight_loop(client, api, sleeper):
    api.on("GET", "/warehouses", rate_limited(api, {"Retry-After": "0"}))
    with pytest.raises(errors.RateLimited):
        await client.list_warehouses()
    assert len(sleeper.delays) == 3
    assert sleeper.delays[0] >= 0.5
    assert sleeper.delays == sorted(sleeper.delays)


async def test_a_429_holds_back_other_callers_too(make_client, api, clock, gated_sleep, fixed_rng):
    client = make_client(sleep=gated_sleep, rng=fixed_rng(0.0))
    api.on("GET", "/warehouses", rate_limited(api, {"Retry-After": "10"}), ok_warehouses(api))
    call = asyncio.create_task(client.list_warehouses())
    await gated_sleep.started.wait()
    assert client.limiter.wait_time() == 10.0
    gated_sleep.release_all()
    assert await call == []


async def test_429_is_retried_even_for_assign(client, api, payloads, sleeper):
    matched = payloads.delivery(status="matched", rider_assigned=True, rider={"id": "r1"})
    api.on(
        "POST",
        "/deliveries/d1/assign",
        rate_limited(api, {"Retry-After": "2"}),
        api.reply(200, {"ok": True, "delivery": matched}),
    )
    delivery = await client.assign_rider("d1", "r1")
    assert delivery.status == "matched"
    assert len(api.requests) == 2


# --- upstream failures -------------------------------------------------------------------------


async def test_gets_are_retried_with_backoff(client, api, sleeper):
    api.on(
        "GET",
        "/warehouses",
        api.error(503, "warehouses_failed"),
        httpx.ConnectError("refused"),
        httpx.ReadTimeout("slow"),
        ok_warehouses(api),
    )
    assert await client.list_warehouses() == []
    assert len(api.requests) == 4
    assert len(sleeper.delays) == 3
    assert all(0 <= d <= c for d, c in zip(sleeper.delays, [0.5, 1.0, 2.0], strict=True))


async def test_gets_give_up_after_max_attempts(make_client, api, sleeper):
    client = make_client(options=ClientOptions(max_attempts=3))
    api.on("GET", "/warehouses", api.error(503, "warehouses_failed"))
    with pytest.raises(errors.WarehousesFailed):
        await client.list_warehouses()
    assert len(api.requests) == 3
    assert len(sleeper.delays) == 2


@pytest.mark.parametrize(
    "failure",
    [("get_failed", 500), ("validation_error", 400), ("not_found", 404)],
)
async def test_other_failures_are_not_retried(client, api, sleeper, failure):
    code, status = failure
    api.on("GET", "/deliveries/d1", api.error(status, code))
    with pytest.raises(errors.PartnerError) as caught:
        await client.get_delivery("d1")
    assert caught.value.code == code
    assert len(api.requests) == 1 and sleeper.delays == []


# --- create: one idempotency key, re-sent only when it surely never left ------------------------


async def test_create_makes_one_key_and_keeps_it_across_retries(client, api, payloads, sleeper):
    api.on(
        "POST",
        "/deliveries",
        httpx.ConnectError("refused"),
        httpx.ConnectTimeout("no route"),
        api.error(429, "rate_limited", "Too many requests", headers={"Retry-After": "1"}),
        api.reply(201, {"ok": True, "delivery": payloads.delivery()}),
    )
    request = payloads.create_request()
    delivery = await client.create_delivery(request)
    assert delivery.id == "dlv_123"
    keys = [body["idempotencyKey"] for body in api.bodies()]
    assert len(keys) == 4
    assert len(set(keys)) == 1
    assert len(keys[0]) == 32 and int(keys[0], 16) >= 0
    assert request.idempotencyKey is None  # the caller's model is left alone
    assert len(sleeper.delays) == 3  # backed off each time, never a tight loop


async def test_create_keeps_the_callers_key(client, api, payloads):
    api.on(
        "POST",
        "/deliveries",
        httpx.ConnectError("refused"),
        api.reply(201, {"ok": True, "delivery": payloads.delivery()}),
    )
    await client.create_delivery(payloads.create_request(idempotencyKey="order-42-attempt"))
    assert [b["idempotencyKey"] for b in api.bodies()] == ["order-42-attempt"] * 2


async def test_a_create_that_never_connects_gives_up_after_max_attempts(
    make_client, api, payloads, sleeper
):
    client = make_client(options=ClientOptions(max_attempts=3))
    api.on("POST", "/deliveries", httpx.ConnectError("refused"))
    with pytest.raises(errors.ConnectionFailed) as caught:
        await client.create_delivery(payloads.create_request())
    assert caught.value.surely_unsent
    assert len(api.requests) == 3 and len(sleeper.delays) == 2


@pytest.mark.parametrize(
    ("failure", "raised"),
    [
        ("create_failed", errors.CreateFailed),
        ("bad_gateway", errors.ServerError),
        ("gateway_timeout", errors.ServerError),
        (httpx.ReadTimeout("slow"), errors.RequestTimeout),
        (httpx.WriteTimeout("slow"), errors.RequestTimeout),
        (httpx.RemoteProtocolError("dropped"), errors.ConnectionFailed),
        (httpx.ReadError("reset"), errors.ConnectionFailed),
    ],
    ids=["503", "502", "504", "read time-out", "write time-out", "dropped", "reset"],
)
async def test_a_create_that_may_have_landed_is_not_repeated(
    client, api, payloads, sleeper, failure, raised
):
    # The spec does not say a reused key is deduplicated: a second try could be a second
    # delivery, so the caller gets the error (and its kept key) and reads back first.
    statuses = {"create_failed": 503, "bad_gateway": 502, "gateway_timeout": 504}
    reply = api.error(statuses[failure], failure) if isinstance(failure, str) else failure
    api.on(
        "POST",
        "/deliveries",
        reply,
        api.reply(201, {"ok": True, "delivery": payloads.delivery()}),
    )
    with pytest.raises(raised) as caught:
        await client.create_delivery(payloads.create_request(idempotencyKey="order-42-attempt"))
    assert not (isinstance(caught.value, errors.PartnerUnreachable) and caught.value.surely_unsent)
    assert len(api.requests) == 1 and sleeper.delays == []


async def test_two_creates_get_two_keys(client, api, payloads):
    api.on("POST", "/deliveries", api.reply(201, {"ok": True, "delivery": payloads.delivery()}))
    await client.create_delivery(payloads.create_request())
    await client.create_delivery(payloads.create_request())
    first, second = (b["idempotencyKey"] for b in api.bodies())
    assert first != second


async def test_a_rejected_create_is_not_retried(client, api, payloads):
    api.on("POST", "/deliveries", api.error(403, "service_disabled"))
    with pytest.raises(errors.ServiceDisabled):
        await client.create_delivery(payloads.create_request())
    assert len(api.requests) == 1


# --- cancel: repeated, and a landed first attempt is recognised -----------------------------------


async def test_cancel_is_retried_after_an_upstream_failure(client, api, payloads):
    cancelled = payloads.delivery(status="cancelled")
    api.on(
        "POST",
        "/deliveries/d1/cancel",
        api.error(503, None, "Service unavailable"),
        api.reply(200, {"ok": True, "delivery": cancelled}),
    )
    assert (await client.cancel_delivery("d1", "Changed my mind")).status == "cancelled"
    assert [b["reason"] for b in api.bodies()] == ["Changed my mind"] * 2


async def test_a_retried_cancel_that_already_landed_reads_the_delivery(client, api, payloads):
    api.on(
        "POST",
        "/deliveries/d1/cancel",
        httpx.ReadTimeout("slow"),
        api.error(400, "cancel_not_allowed"),
    )
    api.on(
        "GET",
        "/deliveries/d1",
        api.reply(200, {"ok": True, "delivery": payloads.delivery(id="d1", status="cancelled")}),
    )
    delivery = await client.cancel_delivery("d1", "Changed my mind")
    assert delivery.status == "cancelled"
    assert [(r.method, r.url.path[7:]) for r in api.requests] == [
        ("POST", "/deliveries/d1/cancel"),
        ("POST", "/deliveries/d1/cancel"),
        ("GET", "/deliveries/d1"),
    ]


async def test_a_retried_cancel_refused_for_real_is_raised(client, api, payloads):
    api.on(
        "POST",
        "/deliveries/d1/cancel",
        httpx.ReadTimeout("slow"),
        api.error(400, "cancel_not_allowed"),
    )
    api.on(
        "GET",
        "/deliveries/d1",
        api.reply(200, {"ok": True, "delivery": payloads.delivery(status="picked_up")}),
    )
    with pytest.raises(errors.CancelNotAllowed):
        await client.cancel_delivery("d1", "Changed my mind")


async def test_a_first_cancel_refusal_is_raised_without_a_reread(client, api):
    api.on("POST", "/deliveries/d1/cancel", api.error(400, "cancel_not_allowed"))
    with pytest.raises(errors.CancelNotAllowed):
        await client.cancel_delivery("d1", "Changed my mind")
    assert len(api.requests) == 1


# --- assign / unassign: re-sent only when surely unsent, else re-read -----------------------------


def matched_with(payloads, rider_id):
    delivery = payloads.delivery(
        id="d1", status="matched", rider_assigned=True, rider={"id": rider_id}
    )
    return {"ok": True, "delivery": delivery}


async def test_assign_is_resent_when_the_connection_never_opened(client, api, payloads):
    api.on(
        "POST",
        "/deliveries/d1/assign",
        httpx.ConnectError("refused"),
        httpx.ConnectTimeout("slow handshake"),
        api.reply(200, matched_with(payloads, "r1")),
    )
    assert (await client.assign_rider("d1", "r1")).rider_assigned
    assert [r.method for r in api.requests] == ["POST", "POST", "POST"]


@pytest.mark.parametrize(
    "failure",
    [
        httpx.ReadTimeout("slow"),
        httpx.RemoteProtocolError("dropped"),
        httpx.Response(503, json={"ok": False, "error": "down"}),
        httpx.Response(502, content=b"<html>bad gateway</html>"),
    ],
    ids=["read timeout", "dropped", "503", "502"],
)
async def test_assign_with_an_unknown_outcome_is_read_back_not_resent(
    client, api, payloads, failure
):
    api.on("POST", "/deliveries/d1/assign", failure)
    api.on("GET", "/deliveries/d1", api.reply(200, matched_with(payloads, "r1")))
    delivery = await client.assign_rider("d1", "r1")
    assert delivery.rider is not None and delivery.rider.id == "r1"
    assert [r.method for r in api.requests] == ["POST", "GET"]


async def test_assign_that_did_not_land_raises_the_original_failure(client, api, payloads):
    api.on("POST", "/deliveries/d1/assign", httpx.ReadTimeout("slow"))
    api.on("GET", "/deliveries/d1", api.reply(200, matched_with(payloads, "someone-else")))
    with pytest.raises(errors.RequestTimeout):
        await client.assign_rider("d1", "r1")
    assert [r.method for r in api.requests] == ["POST", "GET"]


async def test_assign_whose_reread_fails_raises_the_original_failure(make_client, api):
    client = make_client(options=ClientOptions(max_attempts=1))
    api.on("POST", "/deliveries/d1/assign", httpx.ReadTimeout("slow"))
    api.on("GET", "/deliveries/d1", api.error(500, "get_failed"))
    with pytest.raises(errors.RequestTimeout):
        await client.assign_rider("d1", "r1")


async def test_assign_refusals_are_raised_without_a_reread(client, api):
    api.on("POST", "/deliveries/d1/assign", api.error(400, "fee_required"))
    with pytest.raises(errors.FeeRequired):
        await client.assign_rider("d1", "r1")
    assert len(api.requests) == 1


async def test_unassign_with_an_unknown_outcome_is_read_back(client, api, payloads):
    api.on("POST", "/deliveries/d1/unassign", httpx.RemoteProtocolError("dropped"))
    api.on("GET", "/deliveries/d1", api.reply(200, {"ok": True, "delivery": payloads.delivery()}))
    delivery = await client.unassign_rider("d1")
    assert delivery.rider_assigned is False
    assert [r.method for r in api.requests] == ["POST", "GET"]


async def test_unassign_that_did_not_land_raises(client, api, payloads):
    api.on("POST", "/deliveries/d1/unassign", api.error(503, None))
    api.on("GET", "/deliveries/d1", api.reply(200, matched_with(payloads, "r1")))
    with pytest.raises(errors.UpstreamUnavailable):
        await client.unassign_rider("d1")


async def test_every_attempt_waits_its_turn_at_the_limiter(make_client, api, clock, sleeper):
    client = make_client()
    client.limiter.set_rate(2)
    api.on("GET", "/warehouses", api.error(503, "warehouses_failed"), ok_warehouses(api))
    await client.list_warehouses()
    await client.list_warehouses()
    # Three requests at a limit of two per minute: the third waited for the window.
    assert len(api.requests) == 3
    assert clock.now == pytest.approx(NOW + 60.0)


async def test_a_slow_request_does_not_make_the_next_one_a_429(make_client, api, clock, sleeper):
    # One request a minute, the service counting in fixed windows when a request arrives.
    # The first starts 2 s before a window ends but arrives 3 s into the next; counted from
    # its start, the second would go 58 s into that same window and be refused.
    service = ServiceWindows(1, clock)
    client = make_client(limiter=RequestLimiter(1, clock=clock, sleep=sleeper))
    delays = iter([5.0, 0.0])

    def warehouses(request: httpx.Request) -> httpx.Response:
        clock.advance(next(delays))  # on its way
        counted = service.hit("key")
        assert counted is not None
        if not counted.allowed:
            return rate_limited(api, counted.headers())
        return ok_warehouses(api)

    api.on("GET", "/warehouses", warehouses)
    clock.now = (clock.now // 60 + 1) * 60 - 2
    assert await client.list_warehouses() == []
    assert await client.list_warehouses() == []
    assert len(api.requests) == 2  # neither refused


@pytest.mark.parametrize("first", ["answered", "refused", "unreachable", "cancelled"])
async def test_every_attempt_gives_its_slot_back(make_client, api, clock, sleeper, first):
    # One request a minute: a slot given back at once frees the next start a minute later;
    # one kept in use would hold it for the in-use limit, then a minute.
    client = make_client(
        limiter=RequestLimiter(1, clock=clock, sleep=sleeper),
        options=ClientOptions(max_attempts=1),
    )
    sent = asyncio.Event()
    never = asyncio.Event()

    async def hangs(request: httpx.Request) -> httpx.Response:
        sent.set()
        await never.wait()
        raise AssertionError("cancelled before its answer")

    answers = {
        "answered": ok_warehouses(api),
        "refused": api.error(400, "validation_error", "no"),
        "unreachable": httpx.ConnectError("down"),
        "cancelled": hangs,
    }
    api.on("GET", "/warehouses", answers[first], ok_warehouses(api))
    started = clock.now
    call = asyncio.create_task(client.list_warehouses())
    if first == "cancelled":
        await sent.wait()
        call.cancel()
    with contextlib.suppress(errors.PartnerError, asyncio.CancelledError):
        await call
    assert await client.list_warehouses() == []
    assert clock.now - started == 60
