"""``/health`` of a stopping instance: 503 ``{"ok": false, "stopping": true}``, the rest served."""

from __future__ import annotations

import httpx

from bot.store import Store
from bot.web import create_web_app
from bot.web.health import mark_stopping


async def test_a_stopping_app_fails_health_and_serves_the_rest(store: Store) -> None:
    app = create_web_app(store=store, signing_secrets=[])
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://bot") as client:
        before = await client.get("/health")
        mark_stopping(app)
        after = await client.get("/health")
        media = await client.get("/media/no-such-token")

    assert (before.status_code, before.json()) == (200, {"ok": True, "inbox_pending": 0})
    assert (after.status_code, after.json()) == (503, {"ok": False, "stopping": True})
    assert media.status_code == 404  # answered by the app: only /health fails
