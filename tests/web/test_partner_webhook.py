"""POST /hooks/partner: size limit, signature, shape, the durable inbox, redelivery, logging."""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
import pytest

from bot.partner.signing import sign
from bot.store import Store

PATH = "/hooks/partner"
PREVIOUS_SECRET = "whsec_web_tests_previous_secret_1"
STRANGER_SECRET = "whsec_someone_elses_secret_0001"


async def test_a_signed_event_is_stored_raw_before_the_answer_and_wakes_the_relay(
    client: httpx.AsyncClient,
    store: Store,
    make_body: Callable[..., bytes],
    sign_headers: Any,
    wakes: Any,
) -> None:
    body = make_body("evt_a", delivery_id="dlv-1", event_type="delivery.status_changed")

    response = await client.post(PATH, content=body, headers=sign_headers(body))

    assert response.status_code == 200
    assert response.json() == {"ok": True}
    [stored] = await store.inbox.next_batch()
    assert (stored.event_id, stored.delivery_id, stored.event_type) == (
        "evt_a",
        "dlv-1",
        "delivery.status_changed",
    )
    assert stored.raw_body == body  # byte for byte: what was signed is what the relay reads
    assert wakes.count == 1


async def test_a_redelivered_event_is_acknowledged_and_not_stored_again(
    client: httpx.AsyncClient, store: Store, make_body: Any, sign_headers: Any, wakes: Any
) -> None:
    body = make_body("evt_twice")
    first = await client.post(PATH, content=body, headers=sign_headers(body))
    second = await client.post(PATH, content=body, headers=sign_headers(body))

    assert (first.status_code, second.status_code) == (200, 200)
    assert (await store.inbox.counts()).pending == 1
    assert wakes.count == 1


async def test_a_redelivery_after_processing_is_not_processed_again(
    client: httpx.AsyncClient, store: Store, make_body: Any, sign_headers: Any, wakes: Any
) -> None:
    body = make_body("evt_done")
    await client.post(PATH, content=body, headers=sign_headers(body))
    await store.inbox.mark_processed("evt_done")

    again = await client.post(PATH, content=body, headers=sign_headers(body))

    assert again.status_code == 200
    assert await store.inbox.next_batch() == []
    assert wakes.count == 1


@pytest.mark.parametrize(
    "headers",
    [
        pytest.param({}, id="missing"),
        pytest.param({"Service-Signature": "t=1800000000"}, id="no-v1"),
        pytest.param({"Service-Signature": "garbage"}, id="malformed"),
        pytest.param({"Service-Signature": "t=1800000000,v1=" + "0" * 64}, id="forged-digest"),
    ],
)
async def test_a_bad_signature_is_refused_without_detail(
    client: httpx.AsyncClient, store: Store, make_body: Any, headers: dict[str, str], wakes: Any
) -> None:
    body = make_body()

    response = await client.post(PATH, content=body, headers=headers)

    assert response.status_code == 400
    assert response.text == "Bad Request"
    assert (await store.inbox.counts()).pending == 0
    assert wakes.count == 0


async def test_a_body_signed_with_another_secret_is_refused(
    client: httpx.AsyncClient, store: Store, make_body: Any, sign_headers: Any
) -> None:
    body = make_body()

    response = await client.post(
        PATH, content=body, headers=sign_headers(body, secret=STRANGER_SECRET)
    )

    assert response.status_code == 400
    assert (await store.inbox.counts()).pending == 0


async def test_a_body_changed_after_signing_is_refused(
    client: httpx.AsyncClient, store: Store, make_body: Any, sign_headers: Any
) -> None:
    body = make_body()
    headers = sign_headers(body)
    tampered = body.replace(b"matched", b"delivered")

    response = await client.post(PATH, content=tampered, headers=headers)

    assert response.status_code == 400
    assert (await store.inbox.counts()).pending == 0


@pytest.mark.parametrize("age", [301, -301], ids=["stale", "future"])
async def test_a_signature_outside_five_minutes_is_refused(
    client: httpx.AsyncClient,
    store: Store,
    make_body: Any,
    sign_headers: Any,
    clock: Any,
    age: int,
) -> None:
    body = make_body()

    response = await client.post(PATH, content=body, headers=sign_headers(body, at=clock() - age))

    assert response.status_code == 400
    assert response.text == "Bad Request"
    assert (await store.inbox.counts()).pending == 0


async def test_a_signature_just_inside_five_minutes_is_accepted(
    client: httpx.AsyncClient, make_body: Any, sign_headers: Any, clock: Any
) -> None:
    body = make_body()

    response = await client.post(PATH, content=body, headers=sign_headers(body, at=clock() - 300))

    assert response.status_code == 200


async def test_every_configured_secret_is_tried_during_a_rotation(
    make_client: Any, store: Store, make_body: Any, sign_headers: Any
) -> None:
    client = make_client(signing_secrets=["whsec_web_tests_current_secret_01", PREVIOUS_SECRET])
    old = make_body("evt_old_secret")
    new = make_body("evt_new_secret")

    by_old = await client.post(PATH, content=old, headers=sign_headers(old, secret=PREVIOUS_SECRET))
    by_new = await client.post(PATH, content=new, headers=sign_headers(new))

    assert (by_old.status_code, by_new.status_code) == (200, 200)
    assert (await store.inbox.counts()).pending == 2


async def test_a_declared_oversized_body_is_refused_before_it_is_read(
    make_client: Any, store: Store, make_body: Any, sign_headers: Any
) -> None:
    client = make_client(max_body_bytes=1024)
    body = make_body().replace(b'"summary":"', b'"summary":"' + b"x" * 2000)

    response = await client.post(PATH, content=body, headers=sign_headers(body))

    assert response.status_code == 413
    assert (await store.inbox.counts()).pending == 0


async def test_an_oversized_streamed_body_is_cut_off_while_counting(
    make_client: Any, store: Store, make_body: Any, sign_headers: Any
) -> None:
    client = make_client(max_body_bytes=1024)
    body = make_body().replace(b'"summary":"', b'"summary":"' + b"x" * 2000)
    pulled: list[int] = []

    async def chunks() -> AsyncIterator[bytes]:
        for start in range(0, len(body), 256):
            pulled.append(start)
            yield body[start : start + 256]

    # An async iterator is sent chunked, with no Content-Length to check up front.
    response = await client.post(PATH, content=chunks(), headers=sign_headers(body))

    assert response.status_code == 413
    assert len(pulled) < len(range(0, len(body), 256))  # refused before the end
    assert (await store.inbox.counts()).pending == 0


async def test_a_body_at_the_limit_is_accepted(
    make_client: Any, make_body: Any, sign_headers: Any
) -> None:
    body = make_body()
    client = make_client(max_body_bytes=len(body))

    response = await client.post(PATH, content=body, headers=sign_headers(body))

    assert response.status_code == 200


@pytest.mark.parametrize("length", [b"12abc", b"\xb2", b"-5"])
async def test_an_unreadable_content_length_is_refused(
    client: httpx.AsyncClient, make_body: Any, sign_headers: Any, length: bytes
) -> None:
    body = make_body()
    headers = {**sign_headers(body), "Content-Length": length}

    response = await client.post(PATH, content=body, headers=headers)

    assert response.status_code == 400


@pytest.mark.parametrize(
    "body",
    [
        pytest.param(b"{not json", id="bad-json"),
        pytest.param(b'{"id": "evt_x", "type": "delivery.updated"}', id="no-data"),
        pytest.param(
            json.dumps(
                {
                    "id": "evt_x",
                    "type": "t",
                    "created": "soon",
                    "data": {"object": {"id": "d", "status": "s"}},
                }
            ).encode(),
            id="bad-created",
        ),
        pytest.param(b"[]", id="not-an-object"),
    ],
)
async def test_a_signed_body_that_is_not_an_event_is_refused_and_logged_without_the_body(
    client: httpx.AsyncClient,
    store: Store,
    body: bytes,
    caplog: pytest.LogCaptureFixture,
    clock: Any,
) -> None:
    signature = sign(body, "whsec_web_tests_current_secret_01", int(clock()))
    caplog.set_level(logging.DEBUG, logger="bot")

    response = await client.post(PATH, content=body, headers={"Service-Signature": signature})

    assert response.status_code == 400
    assert response.text == "Bad Request"
    assert (await store.inbox.counts()).pending == 0
    assert "not an event" in caplog.text
    assert body.decode() not in caplog.text


async def test_logs_never_hold_the_body_the_signature_or_the_secret(
    client: httpx.AsyncClient,
    make_body: Any,
    sign_headers: Any,
    caplog: pytest.LogCaptureFixture,
    clock: Any,
) -> None:
    # The bot's own loggers, at their most talkative (aiosqlite's DEBUG log quotes every SQL
    # parameter, so a deployment must never run that logger at DEBUG).
    caplog.set_level(logging.DEBUG, logger="bot")
    body = make_body("evt_otp", event_type="delivery.otp_issued", otp_code="482913")
    good = sign_headers(body)
    stale = sign_headers(body, at=clock() - 1000)
    forged = sign_headers(body, secret=STRANGER_SECRET)

    for headers in (good, good, stale, forged):
        await client.post(PATH, content=body, headers=headers)

    assert "refused" in caplog.text and "redelivered" in caplog.text
    for secret_text in ("482913", "whsec_", good["Service-Signature"], forged["Service-Signature"]):
        assert secret_text not in caplog.text


async def test_without_signing_secrets_there_is_no_webhook_route(
    make_client: Any, make_body: Any, sign_headers: Any
) -> None:
    client = make_client(signing_secrets=[])
    body = make_body()

    response = await client.post(PATH, content=body, headers=sign_headers(body))

    assert response.status_code == 404


async def test_the_webhook_path_is_configurable(
    make_client: Any, make_body: Any, sign_headers: Any
) -> None:
    client = make_client(webhook_path="/partner/events")
    body = make_body()

    moved = await client.post("/partner/events", content=body, headers=sign_headers(body))
    default = await client.post(PATH, content=body, headers=sign_headers(body))

    assert (moved.status_code, default.status_code) == (200, 404)


async def test_only_post_is_allowed(client: httpx.AsyncClient) -> None:
    response = await client.get(PATH)

    assert response.status_code == 405
