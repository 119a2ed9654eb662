"""Businesses' web apps served side by side under ``/b/{name}``, as a host of many businesses
serves them (``bot.hosting.host_app``), and the paths a page names, to check they stay there.

``PrefixedApps`` hands ``/b/{name}/...`` to business ``name``'s app the way the ASGI spec, a
reverse proxy mounting an app under a sub-path (uvicorn's ``--root-path``) and Starlette's own
``Mount`` do: ``root_path`` is the prefix and ``path`` stays the whole path, which Starlette's
routing reads the prefix off again. Anything else is 404.
"""

from __future__ import annotations

from collections.abc import Mapping
from html.parser import HTMLParser

from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Receive, Scope, Send

LINKING: frozenset[tuple[str, str]] = frozenset(
    {("a", "href"), ("link", "href"), ("form", "action"), ("script", "src"), ("img", "src")}
)


class PrefixedApps:
    """``apps[name]`` at ``/b/{name}``; see the module docstring."""

    def __init__(self, apps: Mapping[str, ASGIApp]) -> None:
        self._apps = dict(apps)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            path: str = scope["path"]
            for name, app in self._apps.items():
                prefix = f"/b/{name}"
                if path.startswith(prefix + "/"):
                    root = scope.get("root_path", "") + prefix
                    await app({**scope, "root_path": root}, receive, send)
                    return
        await PlainTextResponse("Not Found", status_code=404)(scope, receive, send)


class _Paths(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value is not None and ((tag, name) in LINKING or name == "data-live"):
                self.found.append((tag, value))


def paths_in(html: str) -> list[str]:
    """Every URL the page links, posts, loads or streams from (``href``, ``action``, ``src``,
    ``data-live``), as written."""
    parser = _Paths()
    parser.feed(html)
    return [value for _, value in parser.found]


def links_in(html: str) -> list[str]:
    """The URLs of the page's links (``<a href>``): what a reader can follow."""
    parser = _Paths()
    parser.feed(html)
    return [value for tag, value in parser.found if tag == "a"]
