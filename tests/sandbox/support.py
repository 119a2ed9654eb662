"""Helpers for the sandbox tests: a webhook receiver, an image host, the
default scenario's places, and the shapes of the conftest fixtures."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
from starlette.types import Scope

from bot.partner.client import PartnerClient
from bot.sandbox import Sandbox

START = 1_800_000_000.0  # a multiple of 60: rate-limit windows start here
PUBLIC_IP = "93.184.216.34"
JPEG = b"\xff\xd8\xff\xe0" + b"sandbox-test-image" * 10
IMAGE_URL = "https://media.swift-lagos.example/parcel.jpg"
# Default-scenario places: Yaba (near rider Tunde) and Ikoyi, both inside coverage.
YABA = {"lng": 3.3792, "lat": 6.5090}
IKOYI = {"lng": 3.4380, "lat": 6.4500}
WAREHOUSE_IKEJA = "5b0c8f3e-2d4a-4f0b-9a52-6f1d2c3b4a01"
WAREHOUSE_LEKKI = "9e7d6c5b-4a3f-4e2d-8c1b-0a9f8e7d6c02"


def create_scope(box: Sandbox) -> Scope:
    """A raw ASGI ``POST /deliveries`` scope, for calls no HTTP client can make."""
    return {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.4"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "https",
        "path": "/api/v1/deliveries",
        "raw_path": b"/api/v1/deliveries",
        "query_string": b"",
        "root_path": "",
        "headers": [
            (b"host", b"sandbox.invalid"),
            (b"authorization", f"Bearer {box.api_key}".encode()),
            (b"content-type", b"application/json"),
        ],
        "client": ("127.0.0.1", 50000),
        "server": ("sandbox.invalid", 443),
    }


class Receiver:
    """A webhook endpoint: records every request; can fail the next N or raise a timeout."""

    def __init__(self) -> None:
        self.requests: list[httpx.Request] = []
        self.fail_next = 0
        self.fail_status = 500
        self.time_out_next = 0
        self.arrived = asyncio.Event()

    def handle(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        self.arrived.set()
        if self.time_out_next:
            self.time_out_next -= 1
            raise httpx.ReadTimeout("receiver too slow", request=request)
        if self.fail_next:
            self.fail_next -= 1
            return httpx.Response(self.fail_status)
        return httpx.Response(204)

    @property
    def transport(self) -> httpx.MockTransport:
        return httpx.MockTransport(self.handle)

    def bodies(self) -> list[dict[str, Any]]:
        return [json.loads(request.content) for request in self.requests]

    def types(self) -> list[str]:
        return [body["type"] for body in self.bodies()]


class ImageHost:
    """Serves a small JPEG for every URL unless a test sets a different answer."""

    def __init__(self) -> None:
        self.answers: dict[str, httpx.Response] = {}
        self.requested: list[str] = []

    def handle(self, request: httpx.Request) -> httpx.Response:
        self.requested.append(str(request.url))
        answer = self.answers.get(str(request.url))
        if answer is not None:
            return answer
        return httpx.Response(200, headers={"Content-Type": "image/jpeg"}, content=JPEG)

    @property
    def transport(self) -> httpx.MockTransport:
        return httpx.MockTransport(self.handle)


async def public_resolver(host: str) -> list[str]:
    """Every name resolves to one public address, except names under ``.unresolvable``."""
    return [] if host.endswith(".unresolvable") else [PUBLIC_IP]


MakeSandbox = Callable[..., Sandbox]
Connect = Callable[..., httpx.AsyncClient]
PartnerFor = Callable[..., PartnerClient]
CreateDelivery = Callable[[httpx.AsyncClient, dict[str, Any]], Awaitable[dict[str, Any]]]
