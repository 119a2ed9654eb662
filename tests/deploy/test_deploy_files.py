"""The shipped unit and proxy files, checked by the tools that read them.

* ``deploy/deliverybot.service``: ``systemd-analyze verify`` (a copy whose ExecStart is this
  checkout's ``deliverybot``, since verify wants the binary to exist), its exposure score from
  ``systemd-analyze security --offline`` (the unit's hardening), and the settings the
  operators' guide promises.
* ``deploy/Caddyfile``: ``caddy validate`` and ``caddy fmt`` (it is in Caddy's own layout);
  ``test_reverse_proxy`` runs it.
* ``deploy/nginx.conf``: ``nginx -t`` inside a minimal main configuration, with a throwaway
  certificate in place of Let's Encrypt's.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.deploy.conftest import DEPLOY, replaced, system_tool

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


def test_caddy_validates_the_caddyfile_in_its_own_layout(tmp_path: Path) -> None:
    caddy = system_tool("caddy")
    env_home = {"HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path)}
    validated = subprocess.run(  # noqa: S603 - a fixed argument list, no shell
        [caddy, "validate", "--config", str(DEPLOY / "Caddyfile"), "--adapter", "caddyfile"],
        capture_output=True, text=True, timeout=60, env=env_home,
    )  # fmt: skip
    assert validated.returncode == 0, validated.stderr[-2000:]
    formatted = run(caddy, "fmt", DEPLOY / "Caddyfile")
    assert formatted.stdout == (DEPLOY / "Caddyfile").read_text(encoding="utf-8")


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
    deploying = " ".join(guide[guide.index("## 11. Deploying") :].split())
    settings = unit_settings()
    assert f"`{settings['ExecStart'][0]}`" in deploying
    assert settings["EnvironmentFile"][0] in deploying
    assert f"/var/lib/{settings['StateDirectory'][0]}" in deploying
    assert f"TimeoutStopSec={settings['TimeoutStopSec'][0]}" in deploying
    for upstream in ("10.0.0.11:8080", "10.0.0.12:8080"):
        assert upstream in (DEPLOY / "Caddyfile").read_text(encoding="utf-8")
        assert upstream in (DEPLOY / "nginx.conf").read_text(encoding="utf-8")
        assert upstream in deploying
