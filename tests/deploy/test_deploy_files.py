"""The shipped unit and proxy files, checked by the tools that read them.

* ``deploy/deliverybot.service``: ``systemd-analyze verify`` (a copy whose ExecStart is this
  checkout's ``deliverybot``, since verify wants the binary to exist), its exposure score from
  ``systemd-analyze security --offline`` (the unit's hardening), and the settings the
  operators' guide promises.
* ``deploy/Caddyfile`` and ``deploy/Caddyfile.single`` (one machine): ``caddy validate``,
  ``caddy fmt`` (they are in Caddy's own layout) and ``caddy adapt`` (text answers compressed;
  the one-machine file reaches the bot where it listens by default, with automatic TLS);
  ``test_reverse_proxy`` runs the first; ``test_proxy_routes`` checks both pass every route.
* ``deploy/nginx.conf``: ``nginx -t`` inside a minimal main configuration, with a throwaway
  certificate in place of Let's Encrypt's; its gzip settings. ``test_nginx_proxy`` runs it, and
  proves over https that the gzip settings compress the map page.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.config.server_section import ServerConfig
from tests.deploy.conftest import DEPLOY, replaced, system_tool
from tests.deploy.proxy_matchers import caddy_json, caddy_site_routes, nginx_server_directives

UNIT = DEPLOY / "deliverybot.service"
INSTALLED_COMMAND = "/opt/deliverybot/bin/deliverybot"
# systemd's exposure scale runs from 0.0 (locked down) to 10.0 (unprotected); --threshold takes
# tenths. The unit scores 1.2 ("OK"); 2.0 leaves room for a newer systemd's stricter review.
MAX_EXPOSURE_TENTHS = 20


def run(*command: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(  # noqa: S603 - a fixed argument list, no shell
        [str(part) for part in command], cwd=cwd, capture_output=True, text=True, timeout=60
    )


def unit_settings() -> dict[str, list[str]]:
    """Every ``Key=value`` of the unit, values in order (a key may be given several times)."""
    settings: dict[str, list[str]] = {}
    for line in UNIT.read_text(encoding="utf-8").splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, value = line.split("=", 1)
            settings.setdefault(key, []).append(value)
    return settings


@pytest.fixture
def local_unit(tmp_path: Path) -> Path:
    """The unit with ExecStart pointing at this checkout's ``deliverybot``."""
    command = Path(sys.executable).with_name("deliverybot")
    assert command.exists(), command
    text = replaced(UNIT.read_text(encoding="utf-8"), INSTALLED_COMMAND, str(command), count=1)
    copy = tmp_path / UNIT.name
    copy.write_text(text, encoding="utf-8")
    return copy


def test_systemd_verifies_the_unit(local_unit: Path) -> None:
    verified = run(system_tool("systemd-analyze"), "verify", local_unit, cwd=local_unit.parent)
    assert verified.returncode == 0 and not verified.stderr.strip(), verified.stderr


def test_the_unit_is_hardened(local_unit: Path) -> None:
    threshold = f"--threshold={MAX_EXPOSURE_TENTHS}"
    analyze = system_tool("systemd-analyze")
    review = run(analyze, "security", "--offline=yes", threshold, local_unit, cwd=local_unit.parent)
    assert review.returncode == 0, review.stdout[-2000:] + review.stderr
    assert "Overall exposure level" in review.stdout


def test_the_unit_runs_the_bot_as_the_guide_says() -> None:
    settings = unit_settings()
    assert settings["DynamicUser"] == ["yes"]
    assert settings["StateDirectory"] == ["deliverybot"]
    assert settings["EnvironmentFile"] == ["/etc/deliverybot/deliverybot.env"]
    assert settings["ExecStart"] == [
        f"{INSTALLED_COMMAND} run --config /etc/deliverybot/config.toml"
    ]
    assert settings["Restart"] == ["on-failure"]
    assert settings["RestartPreventExitStatus"] == ["2"]  # a bad config: restarting cannot help
    assert settings["KillSignal"] == ["SIGTERM"]
    # Long enough for the updates already taken (10 s) and a create's answer (20 s).
    assert int(settings["TimeoutStopSec"][0]) >= 30
    for key in ("ProtectSystem", "ProtectHome", "PrivateTmp", "NoNewPrivileges"):
        assert settings[key] in (["strict"], ["yes"]), key


@pytest.mark.parametrize("name", ["Caddyfile", "Caddyfile.single"])
def test_caddy_validates_the_caddyfile_in_its_own_layout(name: str, tmp_path: Path) -> None:
    caddy = system_tool("caddy")
    env_home = {"HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path)}
    validated = subprocess.run(  # noqa: S603 - a fixed argument list, no shell
        [caddy, "validate", "--config", str(DEPLOY / name), "--adapter", "caddyfile"],
        capture_output=True, text=True, timeout=60, env=env_home,
    )  # fmt: skip
    assert validated.returncode == 0, validated.stderr[-2000:]
    formatted = run(caddy, "fmt", DEPLOY / name)
    assert formatted.stdout == (DEPLOY / name).read_text(encoding="utf-8")


@pytest.mark.parametrize("name", ["Caddyfile", "Caddyfile.single"])
def test_caddy_compresses_text_answers(name: str, tmp_path: Path) -> None:
    routes = caddy_site_routes(caddy_json(DEPLOY / name, tmp_path))
    encoders = [h for route in routes for h in _handlers(route) if h["handler"] == "encode"]
    assert len(encoders) == 1, encoders
    assert set(encoders[0]["encodings"]) == {"gzip", "zstd"}
    types = encoders[0]["match"]["headers"]["Content-Type"]
    for text in ("text/html*", "text/css*", "application/javascript*", "application/json*"):
        assert text in types
    assert not any("event-stream" in kind for kind in types)  # SSE goes out as it comes


def _handlers(route: dict[str, Any]) -> list[dict[str, Any]]:
    """Every handler of ``route``, those of its subroutes included."""
    found = []
    for handler in route.get("handle", []):
        found.append(handler)
        for inner in handler.get("routes", []):
            found += _handlers(inner)
    return found


def test_the_one_machine_caddyfile_reaches_the_bot_where_it_listens(tmp_path: Path) -> None:
    routes = caddy_site_routes(caddy_json(DEPLOY / "Caddyfile.single", tmp_path))
    proxies = [h for route in routes for h in _handlers(route) if h["handler"] == "reverse_proxy"]
    dials = {upstream["dial"] for proxy in proxies for upstream in proxy["upstreams"]}
    defaults = ServerConfig.model_fields
    assert dials == {f"{defaults['listen_host'].default}:{defaults['listen_port'].default}"}
    # Automatic TLS: no internal CA, no certificate files, one public host.
    text = (DEPLOY / "Caddyfile.single").read_text(encoding="utf-8")
    settings = [line.split() for line in text.splitlines() if not line.lstrip().startswith("#")]
    assert not any(words[:1] == ["tls"] for words in settings)
    assert routes[0]["match"] == [{"host": ["bot.example.com"]}]


def test_nginx_compresses_text_answers() -> None:
    site = (DEPLOY / "nginx.conf").read_text(encoding="utf-8")
    settings = {
        name: args for name, args, _ in nginx_server_directives(site) if name.startswith("gzip")
    }
    assert settings["gzip"] == ["on"]
    for text in ("text/css", "application/javascript", "application/json"):
        assert text in settings["gzip_types"]  # text/html is always compressed with gzip on
    assert "text/event-stream" not in settings["gzip_types"]


def test_nginx_accepts_the_site(tmp_path: Path) -> None:
    certificate, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    openssl = system_tool("openssl")
    made = run(openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
               "-subj", "/CN=bot.example.com", "-keyout", key, "-out", certificate)  # fmt: skip
    assert made.returncode == 0, made.stderr
    site = (DEPLOY / "nginx.conf").read_text(encoding="utf-8")
    live = "/etc/letsencrypt/live/bot.example.com"
    site = replaced(site, f"{live}/fullchain.pem", str(certificate), count=1)
    site = replaced(site, f"{live}/privkey.pem", str(key), count=1)
    (tmp_path / "site.conf").write_text(site, encoding="utf-8")
    main = tmp_path / "nginx.conf"
    main.write_text(
        f"pid {tmp_path}/nginx.pid;\nerror_log stderr;\nevents {{}}\n"
        f"http {{\n    include {tmp_path}/site.conf;\n}}\n",
        encoding="utf-8",
    )
    tested = run(system_tool("nginx"), "-t", "-q", "-e", "stderr", "-p", tmp_path, "-c", main)
    assert tested.returncode == 0, tested.stderr


def test_the_operators_guide_names_what_the_kit_uses() -> None:
    guide = (DEPLOY.parent / "docs" / "operators.md").read_text(encoding="utf-8")
    # Its words on one line each, so a command wrapped in a paragraph is found too.
    deploying = " ".join(guide[guide.index("## 12. Deploying") :].split())
    settings = unit_settings()
    assert f"`{settings['ExecStart'][0]}`" in deploying
    assert settings["EnvironmentFile"][0] in deploying
    assert f"/var/lib/{settings['StateDirectory'][0]}" in deploying
    assert f"TimeoutStopSec={settings['TimeoutStopSec'][0]}" in deploying
    for upstream in ("10.0.0.11:8080", "10.0.0.12:8080"):
        assert upstream in (DEPLOY / "Caddyfile").read_text(encoding="utf-8")
        assert upstream in (DEPLOY / "nginx.conf").read_text(encoding="utf-8")
        assert upstream in deploying
