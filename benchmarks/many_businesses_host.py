"""The host process of ``bench_many_businesses.py``: ``HostRuntime`` served on loopback.

Run as ``python benchmarks/many_businesses_host.py HOST_TOML``. It stands in for ``deliverybot
run --config host.toml`` until that serves a host file (issue #38's integrator is writing it):
it reads the same files (``many_businesses_world.host_toml`` and one ``businesses/*.toml`` per
business), derives each business's ``Config`` as the plan for #38 says (``[server]
public_base_url`` + ``/b/{name}``, a SQLite file per business under ``businesses/`` beside the
host's store, media under ``{media_dir}/{name}``), and serves ``HostRuntime.app`` with the
bot's own uvicorn set-up (``bot.runtime.serving``), its jobs running: the directory watched
every ``[host] watch_seconds``, idle businesses released after ``[host] idle_minutes``.

A file's ``Config`` is parsed again only when its content changes (its SHA-256 fingerprint),
so a scan of a thousand unchanged files reads and hashes them and nothing more.

SIGUSR1 starts a cProfile of the event loop's thread, SIGUSR2 stops it and writes it to the
path given by ``--profile``; SIGTERM or SIGINT stops the host.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import hashlib
import logging
import signal
import tomllib
from pathlib import Path
from typing import Any

import httpx

from bot.config import Config
from bot.hosting.announcements import Announcements
from bot.hosting.built_runtime import build_runtime_business, with_shared_tls
from bot.hosting.business_slot import BuiltBusiness
from bot.hosting.host_metrics import HostMetrics
from bot.hosting.host_runtime import HostRuntime, Scan
from bot.hosting.hosted_business import HostedBusiness
from bot.runtime.serving import listening_socket, start_web_server
from bot.seams import Seams

HOST_SECTIONS = ("server", "storage", "metrics", "logging")


class Directory:
    """The businesses' directory, scanned as the host's loader would (see the module
    docstring); parsed configs are kept by fingerprint."""

    def __init__(self, host_file: Path) -> None:
        data = tomllib.loads(host_file.read_text())
        self.base_dir = host_file.parent.absolute()
        self.host = data["host"]
        self.path = self.base_dir / self.host["businesses_dir"]
        self.shared = {section: data.get(section, {}) for section in HOST_SECTIONS}
        self._parsed: dict[str, HostedBusiness] = {}

    def derive(self, name: str, own: dict[str, Any]) -> dict[str, Any]:
        """Business ``name``'s whole config data: the host's sections and its file's."""
        server = {**self.shared["server"]}
        server["public_base_url"] = f"{server['public_base_url']}/b/{name}"
        storage = {**self.shared["storage"]}
        host_store = Path(storage.get("path", "bot.sqlite3"))
        storage["path"] = str(host_store.parent / "businesses" / f"{name}.sqlite3")
        storage["media_dir"] = str(Path(storage.get("media_dir", "media")) / name)
        return {**own, **self.shared, "server": server, "storage": storage}

    async def scan(self) -> Scan:
        return await asyncio.to_thread(self._scan)

    def _scan(self) -> Scan:
        businesses: dict[str, HostedBusiness] = {}
        broken: set[str] = set()
        for file in sorted(self.path.glob("*.toml")):
            name = file.stem
            content = file.read_bytes()
            fingerprint = hashlib.sha256(content).hexdigest()
            known = self._parsed.get(name)
            if known is not None and known.fingerprint == fingerprint:
                businesses[name] = known
                continue
            try:
                data = self.derive(name, tomllib.loads(content.decode()))
                context = {"environ": {}, "base_dir": self.base_dir}
                config = Config.model_validate(data, context=context)
            except (ValueError, tomllib.TOMLDecodeError) as error:
                logging.getLogger(__name__).error("business %s: %s", name, error)
                broken.add(name)
                continue
            businesses[name] = self._parsed[name] = HostedBusiness(name, config, fingerprint)
        return Scan(businesses, frozenset(broken))


async def serve(host_file: Path, profile_path: Path | None) -> None:
    directory = Directory(host_file)
    server_section = directory.shared["server"]
    host_url: str = server_section["public_base_url"]
    metrics = HostMetrics(business_label=False, cap=0)
    tls = httpx.create_ssl_context()  # one for every business, as the host makes it

    async def build(business: HostedBusiness, announce: bool) -> BuiltBusiness:
        seams = with_shared_tls(Seams(metrics=metrics.for_business(business.name)), tls)
        return await build_runtime_business(business, announce, host_url=host_url, seams=seams)

    host = HostRuntime(
        directory.scan,
        build,
        Announcements(directory.path),
        idle_seconds=float(directory.host["idle_minutes"]) * 60,
        watch_seconds=float(directory.host["watch_seconds"]),
        metrics=metrics,
    )
    stop = asyncio.Event()
    profiler = cProfile.Profile()
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    loop.add_signal_handler(signal.SIGINT, stop.set)
    if profile_path is not None:
        loop.add_signal_handler(signal.SIGUSR1, profiler.enable)
        loop.add_signal_handler(signal.SIGUSR2, _dump, profiler, profile_path)
    await host.start()
    sockets = [listening_socket(server_section["listen_host"], server_section["listen_port"])]
    server = await start_web_server(host.app, sockets)  # type: ignore[arg-type]
    try:
        await stop.wait()
    finally:
        await server.shutdown(sockets=sockets)
        await host.stop()


def _dump(profiler: cProfile.Profile, path: Path) -> None:
    profiler.disable()
    profiler.dump_stats(path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("host_file", type=Path)
    parser.add_argument("--profile", type=Path, help="where SIGUSR2 writes the cProfile")
    arguments = parser.parse_args()
    logging.basicConfig(level=logging.WARNING, format="host %(levelname)s %(name)s %(message)s")
    asyncio.run(serve(arguments.host_file, arguments.profile))


if __name__ == "__main__":
    main()
