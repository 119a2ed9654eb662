"""Package photos on create: the URL rules, the host allowlist, DNS, and the download.

Each URL is checked in this order, and the first failure is 400 ``image_host_rejected`` naming
the image: a well-formed URL (parsed once, by the parser the download uses; a port from 1 to
65535; no spaces or control characters); https (plain http only with ``[network] allow_http``);
host on the allowlist (the exact host or any subdomain of an entry; ``*`` in an entry is a
literal character, not a wildcard); every address the host resolves to is public (loopback only with
``[network] allow_loopback``; private, link-local, reserved and multicast never); then a GET
without redirects that must answer 200 with an allowed image content type and at most
``max_bytes`` (5 MB).
"""

from __future__ import annotations

import asyncio
import hashlib
import ipaddress
import re
import socket
from collections.abc import Awaitable, Callable, Sequence

import httpx

from bot.sandbox.error_envelope import ApiError
from bot.sandbox.sandbox_errors import SandboxError
from bot.sandbox.scenario import NetworkSettings
from bot.sandbox.scenario_parts import ImageSettings
from bot.sandbox.state import StoredImage

_HOST_NAME = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9.])?$")

Resolver = Callable[[str], Awaitable[list[str]]]
"""Host name -> the IP address strings it resolves to (empty when it does not resolve)."""


async def system_resolver(host: str) -> list[str]:
    """Resolve ``host`` with the operating system's resolver."""
    loop = asyncio.get_running_loop()
    try:
        infos = await loop.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except OSError:
        return []
    return sorted({str(info[4][0]) for info in infos})


class ImageRejected(SandboxError):
    """One image failed a rule; the reason is safe to show the caller."""


def host_allowlisted(host: str, allowlist: Sequence[str]) -> bool:
    """Exact host or a subdomain of an entry; matching is literal, so ``*`` matches only ``*``."""
    host = host.lower().rstrip(".")
    for entry in allowlist:
        entry = entry.lower().rstrip(".")
        if entry and (host == entry or host.endswith("." + entry)):
            return True
    return False


def address_problem(address: str, allow_loopback: bool) -> str | None:
    """Why a resolved address may not be fetched from, or None when it is public."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return "resolves to an unusable address"
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip.is_loopback:
        return None if allow_loopback else "resolves to a loopback address"
    if ip.is_link_local:
        return "resolves to a link-local address"
    if ip.is_private or ip.is_reserved or ip.is_unspecified or ip.is_multicast or not ip.is_global:
        return "resolves to a private or reserved address"
    return None


def parse_image_url(url: str) -> httpx.URL:
    """``url`` parsed as the download will parse it; ``ImageRejected`` when it is malformed.

    Refused here: anything httpx cannot parse (a port that is not a number, a control
    character), whitespace or non-printable characters anywhere, a port outside 1-65535, and a
    host name that is neither an IP literal nor letters, digits, dots and hyphens.
    """
    if any(ch.isspace() or not ch.isprintable() for ch in url):
        raise ImageRejected("not a valid URL (it contains spaces or control characters)")
    try:
        parsed = httpx.URL(url)
        port = parsed.port
        raw_host = parsed.raw_host.decode("ascii")
    except (httpx.InvalidURL, ValueError, UnicodeError):
        raise ImageRejected("not a valid URL") from None
    if port is not None and not 1 <= port <= 65535:
        raise ImageRejected("not a valid URL (the port must be from 1 to 65535)")
    if raw_host and not _HOST_NAME.fullmatch(raw_host):
        try:
            ipaddress.ip_address(raw_host)
        except ValueError:
            raise ImageRejected("not a valid URL (the host name is malformed)") from None
    return parsed


class ImageFetcher:
    """Checks and downloads the images of one create; reused across creates."""

    def __init__(
        self,
        settings: ImageSettings,
        network: NetworkSettings,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        resolver: Resolver | None = None,
    ) -> None:
        self._settings = settings
        self._network = network
        self._transport = transport
        self._resolve = resolver or system_resolver
        self._client: httpx.AsyncClient | None = None

    async def fetch_all(self, urls: Sequence[str]) -> list[StoredImage]:
        """Every image downloaded, or 400 ``image_host_rejected`` for the first that fails."""
        stored: list[StoredImage] = []
        for number, url in enumerate(urls, start=1):
            try:
                stored.append(await self.fetch(url))
            except ImageRejected as exc:
                raise ApiError(
                    400,
                    "image_host_rejected",
                    f"Package image {number} was rejected: {exc}.",
                    field_errors={"packageImages": [f"image {number}: {exc}"]},
                ) from None
        return stored

    async def fetch(self, url: str) -> StoredImage:
        return await self._download(url, await self._checked(url))

    async def check_url(self, url: str) -> str:
        """Everything but the download; returns the host. Raises ``ImageRejected``."""
        return (await self._checked(url)).host

    async def _checked(self, url: str) -> httpx.URL:
        # Parsed once, by the same parser the download uses, so the host that is checked is
        # the host that is fetched from.
        parsed = parse_image_url(url)
        host = parsed.host
        allowed_schemes = ("https", "http") if self._network.allow_http else ("https",)
        if parsed.scheme not in allowed_schemes or not host:
            raise ImageRejected("the URL must use https")
        if parsed.userinfo:
            raise ImageRejected("the URL must not carry credentials")
        if not host_allowlisted(host, self._settings.allowlist):
            raise ImageRejected(f"host {host} is not on the business's image allowlist")
        try:
            addresses = [str(ipaddress.ip_address(host))]
        except ValueError:
            addresses = await self._resolve(host)
        if not addresses:
            raise ImageRejected(f"host {host} does not resolve")
        for address in addresses:
            problem = address_problem(address, self._network.allow_loopback)
            if problem:
                raise ImageRejected(f"host {host} {problem}")
        return parsed

    async def _download(self, url: str, parsed: httpx.URL) -> StoredImage:
        limit = self._settings.max_bytes
        host = parsed.host
        client = self._http()
        digest = hashlib.sha256()
        size = 0
        try:
            async with client.stream("GET", parsed, follow_redirects=False) as response:
                if response.status_code != 200:
                    raise ImageRejected(f"download answered HTTP {response.status_code}")
                content_type = response.headers.get("content-type", "").split(";")[0].strip()
                if content_type.lower() not in self._settings.content_types:
                    raise ImageRejected(f"content type {content_type or 'unknown'} is not allowed")
                declared = response.headers.get("content-length", "")
                if declared.isdigit() and int(declared) > limit:
                    raise ImageRejected(f"image is larger than {limit} bytes")
                async for chunk in response.aiter_bytes():
                    size += len(chunk)
                    if size > limit:
                        raise ImageRejected(f"image is larger than {limit} bytes")
                    digest.update(chunk)
        except httpx.TimeoutException:
            raise ImageRejected(f"download from {host} timed out") from None
        except (httpx.HTTPError, httpx.InvalidURL):
            raise ImageRejected(f"download from {host} failed") from None
        if size == 0:
            raise ImageRejected("image is empty")
        return StoredImage(url, content_type.lower(), size, digest.hexdigest())

    def _http(self) -> httpx.AsyncClient:
        if self._client is None:
            self._client = httpx.AsyncClient(
                transport=self._transport,
                timeout=httpx.Timeout(self._settings.timeout_seconds),
                headers={"User-Agent": "partner-sandbox-image-fetcher"},
            )
        return self._client

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()
            self._client = None
