"""``LocalPostgres``: a throwaway PostgreSQL server on a temporary directory and a loopback port.

The tests, the benchmarks and anyone trying several instances on one machine start one with
the system's server binaries (``initdb`` + ``pg_ctl``)::

    server = LocalPostgres.start(Path(tempfile.mkdtemp()))
    dsn = server.dsn("deliverybot")        # postgresql://deliverybot@127.0.0.1:<port>/...
    ...
    server.stop()

``initdb`` refuses to run as root, so when this process is root every server command runs as
the ``postgres`` system user (``runuser -u postgres``, which the server package creates) and
the data directory is handed to that user. Authentication is ``trust`` on loopback only: the
server is private to this machine and lives as long as the test session.

Failures raise ``LocalPostgresError`` naming what is missing (``make test`` installs the
binaries); they never skip, so a machine without a server fails loudly instead of passing
without the PostgreSQL tests.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import socket
import subprocess
from dataclasses import dataclass
from pathlib import Path

import asyncpg

from bot.store.store_errors import StoreError

SEARCHED_BIN_DIRS = (
    *(Path(f"/usr/lib/postgresql/{major}/bin") for major in (17, 16, 15, 14, 13)),
    Path("/usr/local/pgsql/bin"),
)
_SERVER_USER = "postgres"
_SUPERUSER = "deliverybot"
_START_TIMEOUT_SECONDS = 60


class LocalPostgresError(StoreError, RuntimeError):
    """The throwaway server could not be started (binaries missing, initdb failed ...)."""


def find_bin_dir() -> Path:
    """The directory of ``initdb`` and ``pg_ctl``: ``$PG_BIN_DIR``, then ``PATH``, then the
    Debian/Ubuntu locations, newest major first."""
    candidates: list[Path] = []
    if os.environ.get("PG_BIN_DIR"):
        candidates.append(Path(os.environ["PG_BIN_DIR"]))
    on_path = shutil.which("initdb")
    if on_path:
        candidates.append(Path(on_path).parent)
    candidates.extend(SEARCHED_BIN_DIRS)
    for directory in candidates:
        if (directory / "initdb").is_file() and (directory / "pg_ctl").is_file():
            return directory
    raise LocalPostgresError(
        "PostgreSQL server binaries (initdb, pg_ctl) not found; install the postgresql "
        "package (make test does) or set PG_BIN_DIR"
    )


def free_loopback_port() -> int:
    """A TCP port nobody listens on at the moment, on 127.0.0.1."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class LocalPostgres:
    """A running throwaway server; ``stop()`` ends it (its directory is left to the caller)."""

    bin_dir: Path
    data_dir: Path
    port: int
    run_as: str | None

    @classmethod
    def start(cls, base_dir: Path, *, durable: bool = False) -> LocalPostgres:
        """``initdb`` a cluster under ``base_dir`` and start it on a free loopback port.

        ``base_dir`` should be a fresh directory (``tempfile.mkdtemp``): as root it is handed to
        the server's user, who must be able to reach it. Tests want speed: commits do not wait
        for the disk. ``durable=True`` keeps the server's
        defaults (every commit flushed), for benchmarks that compare with SQLite's ``FULL``.
        """
        bin_dir = find_bin_dir()
        run_as = _SERVER_USER if os.geteuid() == 0 else None
        data_dir = base_dir / "pgdata"
        data_dir.mkdir(parents=True)
        if run_as is not None:
            try:
                account = pwd.getpwnam(run_as)
            except KeyError as exc:
                raise LocalPostgresError(
                    f"running as root, and there is no {run_as!r} user to run the server as"
                ) from exc
            for path in (base_dir, data_dir):
                os.chown(path, account.pw_uid, account.pw_gid)
        server = cls(bin_dir, data_dir, free_loopback_port(), run_as)
        server._run(
            "initdb",
            "-D",
            str(data_dir),
            "-U",
            _SUPERUSER,
            "--auth=trust",
            "--encoding=UTF8",
            "--no-sync",
        )
        options = (
            f"-c listen_addresses=127.0.0.1 -c port={server.port} -c unix_socket_directories='' "
            "-c max_connections=300"
        )
        if not durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        server._run(
            "pg_ctl",
            "-D",
            str(data_dir),
            "-l",
            str(data_dir / "server.log"),
            "-o",
            options,
            "-w",
            "-t",
            str(_START_TIMEOUT_SECONDS),
            "start",
        )
        return server

    def dsn(self, database: str = "postgres") -> str:
        """The connection string of ``database`` on this server."""
        return f"postgresql://{_SUPERUSER}@127.0.0.1:{self.port}/{database}"

    async def create_database(self, name: str) -> str:
        """A new, empty database ``name`` (an older one of that name is dropped); its DSN."""
        if not name.isidentifier():
            raise ValueError(f"not a plain database name: {name!r}")
        conn = await asyncpg.connect(self.dsn())
        try:
            await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            await conn.execute(f'CREATE DATABASE "{name}"')
        finally:
            await conn.close()
        return self.dsn(name)

    def stop(self) -> None:
        """Stop the server at once (``-m immediate``: nothing in it is worth keeping)."""
        with contextlib.suppress(LocalPostgresError):
            self._run("pg_ctl", "-D", str(self.data_dir), "-m", "immediate", "-w", "stop")

    def _run(self, program: str, *args: str) -> None:
        command = [str(self.bin_dir / program), *args]
        if self.run_as is not None:
            command = ["runuser", "-u", self.run_as, "--", *command]
        done = subprocess.run(  # noqa: S603 - fixed binaries, arguments built here
            command, capture_output=True, text=True, check=False, timeout=120
        )
        if done.returncode != 0:
            log = self.data_dir / "server.log"
            tail = log.read_text(errors="replace")[-2000:] if log.is_file() else ""
            raise LocalPostgresError(
                f"{program} failed ({done.returncode}): {done.stderr.strip()[-2000:]}\n{tail}"
            )
