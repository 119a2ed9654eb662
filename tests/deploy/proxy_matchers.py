"""Which paths the shipped proxy files pass on to the bot, read from the files themselves.

* Caddy: the file as Caddy itself reads it (``caddy adapt`` to its JSON), then the routes
  walked the way Caddy runs them: in order, one route of a ``group`` at most, ``subroute``
  handlers entered, until a ``reverse_proxy`` (passed on) or a ``static_response`` (answered by
  Caddy). Matchers: ``host`` (the site's), ``path`` (Caddy's case-insensitive patterns with
  ``*``) and ``path_regexp``; any other matcher fails the test, which cannot judge it.
* nginx: the ``location`` blocks of the ``server`` listening on 443, chosen as nginx chooses
  (an exact ``=`` match; else the longest prefix, kept when it is ``^~``; else the first
  regular expression that matches; else that longest prefix). Passed on when the chosen block
  has ``proxy_pass``.
"""

from __future__ import annotations

import fnmatch
import json
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.deploy.conftest import system_tool

PASSED = "passed on"


def caddy_json(caddyfile: Path, home: Path) -> dict[str, Any]:
    """``caddyfile`` adapted by Caddy to its JSON configuration."""
    adapted = subprocess.run(  # noqa: S603 - a fixed argument list, no shell
        [system_tool("caddy"), "adapt", "--config", str(caddyfile), "--adapter", "caddyfile"],
        capture_output=True, text=True, timeout=60,
        env={"HOME": str(home), "XDG_DATA_HOME": str(home), "XDG_CONFIG_HOME": str(home)},
    )  # fmt: skip
    assert adapted.returncode == 0, adapted.stderr[-2000:]
    loaded: dict[str, Any] = json.loads(adapted.stdout)
    return loaded


def caddy_site_routes(adapted: dict[str, Any]) -> list[dict[str, Any]]:
    """The routes of the one https server (the site block's, host matcher included)."""
    servers = adapted["apps"]["http"]["servers"]
    https = [server for server in servers.values() if ":443" in server["listen"]]
    assert len(https) == 1, f"expected one server on :443, got {list(servers)}"
    routes: list[dict[str, Any]] = https[0]["routes"]
    return routes


def caddy_answer(routes: list[dict[str, Any]], path: str) -> str | None:
    """``PASSED``, ``"answered <status>"`` by Caddy, or None when no route ends the request."""
    groups_done: set[str] = set()
    for route in routes:
        group = route.get("group")
        if group in groups_done or not _caddy_matches(route.get("match"), path):
            continue
        if group is not None:
            groups_done.add(group)
        for handler in route.get("handle", []):
            kind = handler["handler"]
            if kind == "subroute":
                found = caddy_answer(handler["routes"], path)
                if found is not None:
                    return found
            elif kind == "reverse_proxy":
                return PASSED
            elif kind == "static_response":
                return f"answered {handler.get('status_code', 200)}"
        if route.get("terminal"):
            return None
    return None


def _caddy_matches(match_sets: list[dict[str, Any]] | None, path: str) -> bool:
    if not match_sets:
        return True
    return any(_caddy_set_matches(matchers, path) for matchers in match_sets)


def _caddy_set_matches(matchers: dict[str, Any], path: str) -> bool:
    for name, value in matchers.items():
        if name == "host":
            continue  # every request here is for the site's own host
        if name == "path":
            if not any(fnmatch.fnmatchcase(path.lower(), pattern.lower()) for pattern in value):
                return False
        elif name == "path_regexp":
            if re.search(value["pattern"], path) is None:
                return False
        else:
            raise AssertionError(f"a Caddy matcher this test cannot judge: {name}")
    return True


@dataclass(frozen=True)
class Location:
    """One nginx ``location``: its modifier ("" for a plain prefix), pattern and directives."""

    modifier: str
    pattern: str
    directives: tuple[str, ...]

    @property
    def passes_on(self) -> bool:
        return "proxy_pass" in self.directives


def nginx_server_directives(conf: str) -> list[Directive]:
    """The directives of the ``server`` block that listens on 443."""
    found = []
    for server in _blocks(_tokens(conf), "server"):
        listens = [args for name, args, _ in server if name == "listen"]
        if any(args and args[0].split(":")[-1] == "443" for args in listens):
            found.append(server)
    assert len(found) == 1, f"expected one server listening on 443, found {len(found)}"
    return found[0]


def nginx_locations(conf: str) -> list[Location]:
    """The ``location`` blocks of the ``server`` block that listens on 443."""
    return [
        Location(*_location_args(args), tuple(name for name, _, _ in body or []))
        for name, args, body in nginx_server_directives(conf)
        if name == "location"
    ]


def nginx_answer(locations: list[Location], path: str) -> str:
    """``PASSED``, or ``"answered here"`` by nginx (or no location: nginx's own 404)."""
    for location in locations:
        if location.modifier == "=" and location.pattern == path:
            return _answer(location)
    prefixes = [
        location
        for location in locations
        if location.modifier in ("", "^~") and path.startswith(location.pattern)
    ]
    longest = max(prefixes, key=lambda location: len(location.pattern), default=None)
    if longest is not None and longest.modifier == "^~":
        return _answer(longest)
    for location in locations:
        flags = re.IGNORECASE if location.modifier == "~*" else 0
        if location.modifier in ("~", "~*") and re.search(location.pattern, path, flags):
            return _answer(location)
    return "answered here" if longest is None else _answer(longest)


def _answer(location: Location) -> str:
    return PASSED if location.passes_on else "answered here"


def _location_args(args: list[str]) -> tuple[str, str]:
    if len(args) == 2:
        return args[0], args[1]
    assert len(args) == 1, f"a location this test cannot read: {args}"
    return "", args[0]


# A directive: its name, its arguments, and its block's directives (None without a block).
Directive = tuple[str, list[str], "list[Directive] | None"]


def _tokens(conf: str) -> list[str]:
    without_comments = re.sub(r"#[^\n]*", "", conf)
    return re.findall(r"[{};]|[^\s{};]+", without_comments)


def _parse(tokens: list[str], start: int = 0) -> tuple[list[Directive], int]:
    directives: list[Directive] = []
    words: list[str] = []
    index = start
    while index < len(tokens):
        token = tokens[index]
        index += 1
        if token == ";":
            directives.append((words[0], words[1:], None))
            words = []
        elif token == "{":
            body, index = _parse(tokens, index)
            directives.append((words[0], words[1:], body))
            words = []
        elif token == "}":
            return directives, index
        else:
            words.append(token)
    return directives, index


def _blocks(tokens: list[str], name: str) -> list[list[Directive]]:
    """The bodies of every top-level block called ``name``."""
    directives, _ = _parse(tokens)
    return [body for found, _, body in directives if found == name and body is not None]
