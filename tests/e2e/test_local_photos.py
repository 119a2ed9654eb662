"""A bot whose public_base_url is plain http on loopback (what the config takes for local
tests) orders with photos against a local sandbox, which downloads them only when its
scenario allows http, as the default scenario does; the spec's https-only rule is its default."""

from __future__ import annotations

from typing import Any

from bot.chat_ref import UserRef
from tests.e2e.conftest import ADA, MakeStack

LOCAL_BASE_URL = "http://localhost"


async def test_photos_on_a_plain_http_loopback_host_complete_a_pickup_order(
    make_stack: MakeStack,
) -> None:
    stack = await make_stack(public_base_url=LOCAL_BASE_URL)

    delivery_id = await stack.order(ADA)

    assert stack.partner is not None
    (create,) = stack.partner.creates
    (image,) = create["packageImages"]
    assert image.startswith(f"{LOCAL_BASE_URL}/media/")
    assert stack.sandbox.delivery(delivery_id)["status"] in ("pending", "matched")


async def test_a_sandbox_keeping_the_spec_refuses_them_and_the_customer_is_told(
    make_stack: MakeStack,
) -> None:
    def https_only(data: dict[str, Any]) -> None:
        data["network"]["allow_http"] = False
        for endpoint in data["webhooks"]:
            endpoint["url"] = endpoint["url"].replace("http://", "https://", 1)

    stack = await make_stack(public_base_url=LOCAL_BASE_URL, edit=https_only)
    summary = await stack.fill_order(ADA)  # the photo was taken: the bot hosts it

    reply = await stack.tap(summary, "Confirm and send")

    assert await stack.bot.store.deliveries.for_user(UserRef("telegram", ADA.id), 1) == []
    said = "\n".join(message.text or "" for message in reply)
    assert "photo" in said.lower()
    assert "image_host_rejected" not in said
