from __future__ import annotations

from typing import Any

import httpx
import pytest

from bot.sandbox import Sandbox
from bot.sandbox.images import address_problem, host_allowlisted

from .support import IMAGE_URL, JPEG, Connect, ImageHost, MakeSandbox

Body = dict[str, Any]


@pytest.mark.parametrize(
    ("host", "allowlist", "allowed"),
    [
        ("media.example.com", ["media.example.com"], True),
        ("cdn.media.example.com", ["media.example.com"], True),
        ("MEDIA.example.com.", ["media.example.com"], True),
        ("evilmedia.example.com", ["media.example.com"], False),
        ("media.example.com.evil.net", ["media.example.com"], False),
        ("example.com", ["media.example.com"], False),
        ("cdn.example.com", ["*.example.com"], False),
        ("*.example.com", ["*.example.com"], True),
        ("anything.net", ["*"], False),
        ("anything.net", [], False),
    ],
)
def test_allowlist_is_exact_host_or_subdomain_and_literal(
    host: str, allowlist: list[str], allowed: bool
) -> None:
    assert host_allowlisted(host, allowlist) is allowed


@pytest.mark.parametrize(
    ("address", "loopback_ok", "problem"),
    [
        ("93.184.216.34", False, None),
        ("2606:2800:220:1::248", False, None),
        ("127.0.0.1", False, "loopback"),
        ("127.0.0.1", True, None),
        ("::1", True, None),
        ("10.1.2.3", True, "private"),
        ("192.168.1.20", False, "private"),
        ("172.16.0.1", False, "private"),
        ("100.64.0.1", False, "private"),
        ("169.254.169.254", True, "link-local"),
        ("fe80::1", False, "link-local"),
        ("::ffff:10.0.0.1", False, "private"),
        ("0.0.0.0", True, "private"),  # noqa: S104 - an address to refuse, not to bind
    ],
)
def test_resolved_addresses(address: str, loopback_ok: bool, problem: str | None) -> None:
    found = address_problem(address, loopback_ok)
    if problem is None:
        assert found is None
    else:
        assert found is not None and problem in found


async def rejected(api: httpx.AsyncClient, body: Body, url: str) -> str:
    body["packageImages"] = [IMAGE_URL, url]
    response = await api.post("/deliveries", json=body)
    assert response.status_code == 400, response.text
    payload = response.json()
    assert payload["code"] == "image_host_rejected"
    assert payload["fieldErrors"]["packageImages"][0].startswith("image 2:")
    message: str = payload["error"]
    return message


async def test_images_are_downloaded_and_stored(
    sandbox: Sandbox, api: httpx.AsyncClient, pickup_body: Body, image_host: ImageHost
) -> None:
    second = "https://cdn.media.swift-lagos.example/b.png"
    image_host.answers[second] = httpx.Response(
        200, headers={"Content-Type": "image/png; charset=binary"}, content=b"png-bytes"
    )
    pickup_body["packageImages"] = [IMAGE_URL, second]
    response = await api.post("/deliveries", json=pickup_body)
    assert response.status_code == 201
    assert image_host.requested == [IMAGE_URL, second]
    admin = httpx.AsyncClient(
        transport=httpx.ASGITransport(app=sandbox.app),
        base_url="https://sandbox.invalid",
        headers={"Authorization": f"Bearer {sandbox.admin_token}"},
    )
    async with admin:
        detail = await admin.get(f"/sandbox/admin/deliveries/{response.json()['delivery']['id']}")
    images = detail.json()["sandbox"]["images"]
    assert [(i["content_type"], i["size"]) for i in images] == [
        ("image/jpeg", len(JPEG)),
        ("image/png", 9),
    ]


async def test_https_only_by_default(
    make_sandbox: MakeSandbox, connect: Connect, scenario_data: Body, pickup_body: Body
) -> None:
    scenario_data["network"] = {}
    scenario_data["webhooks"] = []
    api = connect(make_sandbox(scenario_data))
    message = await rejected(api, pickup_body, "http://media.swift-lagos.example/a.jpg")
    assert "https" in message


async def test_http_allowed_when_the_scenario_says_so(
    api: httpx.AsyncClient, pickup_body: Body
) -> None:
    pickup_body["packageImages"] = ["http://media.swift-lagos.example/a.jpg"]
    assert (await api.post("/deliveries", json=pickup_body)).status_code == 201


async def test_host_not_on_allowlist(api: httpx.AsyncClient, pickup_body: Body) -> None:
    message = await rejected(api, pickup_body, "https://images.example.org/a.jpg")
    assert "not on the business's image allowlist" in message


@pytest.mark.parametrize(
    "url",
    [
        "not a url",
        "https:///nohost.jpg",
        "https://[::1/a.jpg",
        "https://u:p@media.swift-lagos.example/a.jpg",
        "https://media.swift-lagos.example:abc/a.jpg",
        "https://media.swift-lagos.example:99999/a.jpg",
        "https://media.swift-lagos.example:65536/a.jpg",
        "https://media.swift-lagos.example:0/a.jpg",
        "https://media.swift-lagos.example:-1/a.jpg",
        "https://media.swift-lagos.example/a\x00.jpg",
        "https://media.swift-lagos.example/a\x7f.jpg",
        "https://media.swift-lagos.example/a\u0085.jpg",
        "https://media.swift-lagos.example/a b.jpg",
        "https://media.swift-lagos.example\\@evil.example/a.jpg",
        "https://evil.example\\.media.swift-lagos.example/a.jpg",
    ],
)
async def test_malformed_urls(api: httpx.AsyncClient, pickup_body: Body, url: str) -> None:
    # A 400 image_host_rejected naming the image, never a crash (httpx.InvalidURL) or a 500.
    await rejected(api, pickup_body, url)


@pytest.mark.parametrize(
    "url",
    [
        "https://media.swift-lagos.example:443/a.jpg",
        "https://media.swift-lagos.example:65535/a.jpg",
        "https://MEDIA.swift-lagos.example./a.jpg",
    ],
)
async def test_well_formed_urls_with_a_port_or_odd_case(
    api: httpx.AsyncClient, pickup_body: Body, url: str, image_host: ImageHost
) -> None:
    pickup_body["packageImages"] = [url]
    assert (await api.post("/deliveries", json=pickup_body)).status_code == 201
    (fetched,) = image_host.requested
    assert httpx.URL(fetched).host.rstrip(".") == "media.swift-lagos.example"


async def test_the_host_checked_is_the_host_fetched(
    api: httpx.AsyncClient, pickup_body: Body, image_host: ImageHost
) -> None:
    # "#@allowed" puts the allowlisted name in the fragment: the real host is evil.example.
    message = await rejected(
        api, pickup_body, "https://evil.example#@media.swift-lagos.example/a.jpg"
    )
    assert "evil.example is not on the business's image allowlist" in message
    assert image_host.requested == [IMAGE_URL]  # the first, good image only


async def test_host_that_does_not_resolve(
    make_sandbox: MakeSandbox, connect: Connect, scenario_data: Body, pickup_body: Body
) -> None:
    scenario_data["images"]["allowlist"].append("photos.unresolvable")
    api = connect(make_sandbox(scenario_data))
    assert "does not resolve" in await rejected(
        api, pickup_body, "https://photos.unresolvable/a.jpg"
    )


@pytest.mark.parametrize(
    ("address", "allow_loopback", "accepted"),
    [
        ("10.0.0.7", True, False),
        ("169.254.1.1", True, False),
        ("127.0.0.1", False, False),
        ("127.0.0.1", True, True),
    ],
)
async def test_dns_answers_are_checked(
    make_sandbox: MakeSandbox,
    connect: Connect,
    scenario_data: Body,
    pickup_body: Body,
    address: str,
    allow_loopback: bool,
    accepted: bool,
) -> None:
    async def resolver(host: str) -> list[str]:
        return (
            ["93.184.216.34", address]
            if host == "inside.swift-lagos.example"
            else ["93.184.216.34"]
        )

    scenario_data["images"]["allowlist"].append("inside.swift-lagos.example")
    scenario_data["network"] = {"allow_http": False, "allow_loopback": allow_loopback}
    scenario_data["webhooks"] = []
    api = connect(make_sandbox(scenario_data, resolver=resolver))
    url = "https://inside.swift-lagos.example/a.jpg"
    if accepted:
        pickup_body["packageImages"] = [url]
        assert (await api.post("/deliveries", json=pickup_body)).status_code == 201
    else:
        await rejected(api, pickup_body, url)


async def test_loopback_literal_host_for_the_demo(
    make_sandbox: MakeSandbox, connect: Connect, scenario_data: Body, pickup_body: Body
) -> None:
    pickup_body["packageImages"] = ["http://127.0.0.1:8080/media/abc.jpg"]
    api = connect(make_sandbox(scenario_data))
    assert (await api.post("/deliveries", json=dict(pickup_body))).status_code == 201
    scenario_data["network"]["allow_loopback"] = False
    scenario_data["webhooks"] = []
    strict = connect(make_sandbox(scenario_data))
    assert "loopback" in await rejected(strict, pickup_body, "http://127.0.0.1:8080/media/abc.jpg")


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        (httpx.Response(404), "HTTP 404"),
        (httpx.Response(302, headers={"Location": "http://10.0.0.1/x.jpg"}), "HTTP 302"),
        (
            httpx.Response(200, headers={"Content-Type": "text/html"}, content=b"<html>"),
            "content type",
        ),
        (httpx.Response(200, headers={"Content-Type": "image/jpeg"}, content=b""), "empty"),
        (
            httpx.Response(
                200, headers={"Content-Type": "image/jpeg"}, content=b"x" * (5 * 1024 * 1024 + 1)
            ),
            "larger than",
        ),
    ],
)
async def test_download_failures(
    api: httpx.AsyncClient,
    pickup_body: Body,
    image_host: ImageHost,
    answer: httpx.Response,
    reason: str,
) -> None:
    url = "https://media.swift-lagos.example/bad.jpg"
    image_host.answers[url] = answer
    assert reason in await rejected(api, pickup_body, url)


async def test_exactly_five_megabytes_is_accepted(
    api: httpx.AsyncClient, pickup_body: Body, image_host: ImageHost
) -> None:
    url = "https://media.swift-lagos.example/big.jpg"
    image_host.answers[url] = httpx.Response(
        200, headers={"Content-Type": "image/jpeg"}, content=b"x" * (5 * 1024 * 1024)
    )
    pickup_body["packageImages"] = [url]
    assert (await api.post("/deliveries", json=pickup_body)).status_code == 201


async def test_oversize_stream_without_content_length_is_cut_off(
    make_sandbox: MakeSandbox, connect: Connect, pickup_body: Body
) -> None:
    chunks_sent = 0

    async def endless() -> Any:
        nonlocal chunks_sent
        while True:
            chunks_sent += 1
            yield b"x" * 65536

    def handler(request: httpx.Request) -> httpx.Response:
        content = endless() if "stream" in request.url.path else JPEG
        return httpx.Response(200, headers={"Content-Type": "image/jpeg"}, content=content)

    api = connect(make_sandbox(image_transport=httpx.MockTransport(handler)))
    message = await rejected(api, pickup_body, "https://media.swift-lagos.example/stream.jpg")
    assert "larger than" in message
    assert chunks_sent <= 5 * 16 + 2  # stopped just past 5 MB


async def test_download_timeout_and_connection_errors(
    make_sandbox: MakeSandbox, connect: Connect, pickup_body: Body
) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        if "slow" in request.url.path:
            raise httpx.ReadTimeout("slow", request=request)
        if "down" in request.url.path:
            raise httpx.ConnectError("refused", request=request)
        return httpx.Response(200, headers={"Content-Type": "image/jpeg"}, content=JPEG)

    api = connect(make_sandbox(image_transport=httpx.MockTransport(handler)))
    assert "timed out" in await rejected(
        api, dict(pickup_body), "https://media.swift-lagos.example/slow.jpg"
    )
    assert "failed" in await rejected(
        api, pickup_body, "https://media.swift-lagos.example/down.jpg"
    )
