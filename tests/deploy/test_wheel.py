"""``python -m build`` gives a wheel and an sdist that carry everything the bot reads at run time.

The wheel is installed into a fresh virtual environment (``python -m venv --without-pip``, no
system site packages, the wheel installed by the project's pip) and run from a directory outside
the checkout, with no ``PYTHONPATH``: ``deliverybot --help`` and ``deliverybot demo < /dev/null``
work, the sandbox's scenario and OpenAPI document are found, and the agents' OpenAPI document it
writes is ``docs/agents-openapi.json``.

Tests reach no network: the wheel is built without build isolation (setuptools from the dev
extras) and installed with ``--no-deps --no-index``; its dependencies are the project venv's,
put on the fresh venv's path by a ``.pth`` line. That line adds the directory only, so the
checkout's editable install (a finder registered by a ``.pth`` file in that directory) stays
out, and ``bot`` is the wheel's own copy, which a test checks. That the wheel names the same
dependencies as ``pyproject.toml`` (what an operator's ``pip install`` fetches) is checked
from its metadata.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import tarfile
import tomllib
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.deploy.conftest import REPO

# What the bot reads from its own package at run time, besides Python modules.
WHEEL_DATA = {
    "bot/py.typed",
    "conversations/py.typed",
    "bot/sandbox/scenarios/default.toml",
    "bot/sandbox/openapi.json",
    "conversations/texts/messages_en.py",
    "conversations/texts/messages_fr.py",
    "bot/webapp/static/place.html",
    "bot/webapp/static/place.js",
    "bot/webapp/static/telegram-bridge.js",
    "bot/webapp/static/leaflet/leaflet.js",
    "bot/webapp/static/leaflet/images/marker-icon.png",
    "bot/webapp/static/leaflet/LICENSE",
    "bot/staff_console/templates/base.html",
    "bot/staff_console/templates/deliveries.html",
    "bot/staff_console/static/console.css",
    "bot/staff_console/static/console-map.js",
    "bot/staff_console/static/console.js",
    "bot/staff_console/templates/_delivery_row.html",
}
# What an sdist adds for rebuilding, testing and deploying.
SDIST_EXTRA = {
    "docs/openapi.json",
    "docs/agents-openapi.json",
    "docs/operators.md",
    "config.example.toml",
    "Makefile",
    "MANIFEST.in",
    "deploy/deliverybot.service",
    "deploy/Caddyfile",
    "deploy/nginx.conf",
    "tests/conftest.py",
}


@dataclass
class Installed:
    wheel: Path
    sdist: Path
    bin: Path  # the fresh venv's bin directory
    outside: Path  # a working directory with no checkout in it


def clean_env() -> dict[str, str]:
    """The environment without anything pointing into this checkout or its venv."""
    dropped = {"PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME", "PYTHONSTARTUP"}
    return {key: value for key, value in os.environ.items() if key not in dropped}


def run(*command: str | Path, cwd: Path, stdin: int | None = None) -> str:
    done = subprocess.run(  # noqa: S603 - a fixed argument list, no shell
        [str(part) for part in command], cwd=cwd, env=clean_env(), stdin=stdin,
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, (
        f"{command}: {done.returncode}\n{done.stdout[-2000:]}{done.stderr[-3000:]}"
    )
    return done.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Installed]:
    base = tmp_path_factory.mktemp("wheel")
    dist = base / "dist"
    run(sys.executable, "-m", "build", "--no-isolation", "--outdir", dist, REPO, cwd=base)
    (wheel,) = dist.glob("deliverybot-*.whl")
    (sdist,) = dist.glob("deliverybot-*.tar.gz")
    venv = base / "venv"
    # No pip of its own (ensurepip took about half of this fixture's time): the project's pip
    # installs into it (``--python``), the same install an operator's pip makes.
    run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=base)
    python = venv / "bin" / "python"
    run(sys.executable, "-m", "pip", "--python", python, "install", "--quiet", "--no-deps",
        "--no-index", wheel, cwd=base)  # fmt: skip
    fresh_site = run(python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))",
                     cwd=base).strip()  # fmt: skip
    project_site = sysconfig.get_path("purelib")
    (Path(fresh_site) / "deliverybot-test-dependencies.pth").write_text(project_site + "\n")
    outside = base / "elsewhere"
    outside.mkdir()
    yield Installed(wheel, sdist, venv / "bin", outside)


def test_the_wheel_carries_the_package_data(installed: Installed) -> None:
    with zipfile.ZipFile(installed.wheel) as wheel:
        names = set(wheel.namelist())
        assert names >= WHEEL_DATA, WHEEL_DATA - names
        packaged = wheel.read("bot/sandbox/openapi.json")
    assert packaged == (REPO / "docs" / "openapi.json").read_bytes()
    assert not {name for name in names if name.startswith(("tests/", "docs/", "benchmarks/"))}


def test_the_wheel_carries_every_module_of_the_checkout(installed: Installed) -> None:
    # Subpackages included (bot.store.schema_steps: a step missing from the wheel would leave
    # an installed bot unable to open a database the checkout migrated).
    modules = {
        path.relative_to(REPO).as_posix()
        for package in ("bot", "conversations")
        for path in (REPO / package).rglob("*.py")
    }
    with zipfile.ZipFile(installed.wheel) as wheel:
        names = set(wheel.namelist())
    assert modules <= names, sorted(modules - names)
    assert any(name.startswith("bot/store/schema_steps/step_") for name in names)


def test_the_sdist_carries_the_sources_docs_and_kit(installed: Installed) -> None:
    with tarfile.open(installed.sdist) as sdist:
        root = sdist.getnames()[0].split("/")[0]
        names = {name.removeprefix(root + "/") for name in sdist.getnames()}
    assert names >= WHEEL_DATA | SDIST_EXTRA, (WHEEL_DATA | SDIST_EXTRA) - names


def test_the_installed_command_answers_from_outside_the_checkout(installed: Installed) -> None:
    where = run(installed.bin / "python", "-c", "import bot; print(bot.__file__)",
                cwd=installed.outside)  # fmt: skip
    assert where.strip().startswith(str(installed.bin.parent)), where
    usage = run(installed.bin / "deliverybot", "--help", cwd=installed.outside)
    assert "usage: deliverybot" in usage and "demo" in usage and "run" in usage


def test_the_installed_demo_greets_and_stops_at_the_end_of_its_input(
    installed: Installed,
) -> None:
    with open(os.devnull, "rb") as nothing:
        shown = run(installed.bin / "deliverybot", "demo", cwd=installed.outside,
                    stdin=nothing.fileno())  # fmt: skip
    assert "deliverybot demo:" in shown and "sandbox" in shown


def test_the_installed_openapi_documents(installed: Installed) -> None:
    sandbox_document = run(
        installed.bin / "python", "-c",
        "from bot.sandbox.asgi_app import OPENAPI_PATH; print(OPENAPI_PATH.read_text(), end='')",
        cwd=installed.outside,
    )  # fmt: skip
    assert sandbox_document == (REPO / "docs" / "openapi.json").read_text(encoding="utf-8")
    agents_document = run(installed.bin / "python", "-m", "bot.agents.openapi_document",
                          cwd=installed.outside)  # fmt: skip
    assert agents_document == (REPO / "docs" / "agents-openapi.json").read_text(encoding="utf-8")


def test_the_wheel_names_the_projects_dependencies(installed: Installed) -> None:
    with zipfile.ZipFile(installed.wheel) as wheel:
        (metadata,) = [name for name in wheel.namelist() if name.endswith(".dist-info/METADATA")]
        lines = wheel.read(metadata).decode().splitlines()
    required = {
        _requirement(line.removeprefix("Requires-Dist: "))
        for line in lines
        if line.startswith("Requires-Dist: ") and "extra ==" not in line
    }
    with open(REPO / "pyproject.toml", "rb") as file:
        declared = tomllib.load(file)["project"]["dependencies"]
    assert required == {_requirement(dependency) for dependency in declared}


def _requirement(text: str) -> tuple[str, frozenset[str]]:
    """A requirement as its canonical name and its set of version clauses."""
    parsed = Requirement(text)
    return canonicalize_name(parsed.name), frozenset(str(clause) for clause in parsed.specifier)
