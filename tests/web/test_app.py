"""The app as a whole: health, adapter routes, media URLs, argument checks."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from bot.store import Store
from bot.web import create_web_app, media_url


async def test_health_reports_the_inbox_pending_count(
    client: httpx.AsyncClient, store: Store
) -> None:
    await store.inbox.add("evt_1", "dlv-1", "delivery.created", 1, b"{}")
    await store.inbox.add("evt_2", "dlv-1", "delivery.updated", 2, b"{}")
    await store.inbox.mark_processed("evt_1")

    response = await client.get("/health")

    assert response.status_code == 200
    assert response.json() == {"ok": True, "inbox_pending": 1}


async def test_health_says_503_when_the_store_is_gone(
    client: httpx.AsyncClient, store: Store
) -> None:
    await store.close()

    response = await client.get("/health")

    assert response.status_code == 503
    assert response.json() == {"ok": False}


async def test_extra_routes_are_served_beside_the_bot_routes(make_client: Any) -> None:
    async def telegram(request: Request) -> Response:
        return PlainTextResponse("telegram " + (await request.body()).decode())

    client = make_client(extra_routes=[Route("/telegram", telegram, methods=["POST"])])

    extra = await client.post("/telegram", content=b"update")
    health = await client.get("/health")

    assert extra.text == "telegram update"
    assert health.status_code == 200


async def test_unknown_paths_are_404(client: httpx.AsyncClient) -> None:
    assert (await client.get("/")).status_code == 404
    assert (await client.get("/hooks")).status_code == 404


@pytest.mark.parametrize("path", ["hooks/partner", "/hooks/partner/"])
async def test_a_webhook_path_must_be_a_plain_absolute_path(store: Store, path: str) -> None:
    with pytest.raises(ValueError, match="webhook_path"):
        create_web_app(store=store, signing_secrets=["whsec_x_0000000000000000"], webhook_path=path)


async def test_an_empty_secret_is_a_mistake_not_an_open_door(store: Store) -> None:
    with pytest.raises(ValueError, match="signing secret"):
        create_web_app(store=store, signing_secrets=["whsec_x_0000000000000000", ""])


def test_media_url_joins_the_public_base_url_and_the_token() -> None:
    assert media_url("https://bot.example.com", "tok") == "https://bot.example.com/media/tok"
    assert media_url("https://bot.example.com/", "tok") == "https://bot.example.com/media/tok"
