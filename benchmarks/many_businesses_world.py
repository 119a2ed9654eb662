"""The businesses of ``bench_many_businesses.py``: names, secrets and files, made the same way
by the benchmark, the services' process and the host's.

Business ``n`` is named ``shop-NNNN`` (a host's business name: lowercase, digits and ``-``).
Its bot token, Telegram secret, Partner API key and signing secret are derived from ``n``, so
each process can make them without being told, and no two businesses share one. Its files
are written as the host file and business files of issue #38 (``[host] businesses_dir``, one
TOML per business): the host's sections in ``host.toml``, the business's own in
``businesses/shop-NNNN.toml``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final

from bot.sandbox import default_scenario_data

SANDBOX_PREFIX: Final = "/o/"
"""The services' process serves organisation ``name``'s Partner API under ``/o/{name}``."""


def name_of(number: int) -> str:
    """Business ``number``'s name."""
    return f"shop-{number:04d}"


def number_of(name: str) -> int:
    """The number in business ``name``."""
    return int(name.rsplit("-", 1)[1])


def token_of(name: str) -> str:
    """The bot token of business ``name`` (the Bot API's shape: ``<bot id>:<35 characters>``)."""
    number = number_of(name)
    return f"{7100000000 + number}:AAManyBusinessesBenchToken{number:09d}"


def secret_of(name: str) -> str:
    """The ``X-Telegram-Bot-Api-Secret-Token`` business ``name``'s bot is given."""
    return f"tg-secret-{name}-0123456789abcdef"


def api_key_of(name: str) -> str:
    """The Partner API key of business ``name``'s organisation (letters and digits)."""
    return f"sk_live_{name.replace('-', '')}BenchKey000000001"


def signing_secret_of(name: str) -> str:
    """The signing secret of business ``name``'s Partner webhooks."""
    return f"whsec_{name.replace('-', '')}BenchSecret0000001"


def scenario_for(name: str, host_url: str) -> dict[str, Any]:
    """The default sandbox scenario as business ``name``'s own organisation: its key, its
    signing secret, its events posted to its prefix on the host."""
    data = default_scenario_data()
    data["organization"] = {**data["organization"], "id": f"org_{name}", "slug": name}
    data["api_keys"] = [{**data["api_keys"][0], "secret": api_key_of(name)}]
    webhook = {"url": f"{host_url}/b/{name}/hooks/partner", "secret": signing_secret_of(name)}
    data["webhooks"] = [{**data["webhooks"][0], **webhook}]
    return data


def business_toml(name: str, services_url: str) -> str:
    """Business ``name``'s file: its Partner API, its bot, its webhooks' secret."""
    return f"""\
[partner]
base_url = "{services_url}{SANDBOX_PREFIX}{name}/api/v1"
api_key = "{api_key_of(name)}"

[telegram]
token = "{token_of(name)}"
mode = "webhook"
secret_token = "{secret_of(name)}"
api_base_url = "{services_url}/bot"
file_base_url = "{services_url}/file/bot"

[webhooks]
enabled = true
signing_secret = "{signing_secret_of(name)}"

[geocoding]
provider = "none"
"""


def host_toml(port: int, metrics_port: int, *, idle_minutes: int, watch_seconds: float) -> str:
    """The host's file: its address, its store beside it, its businesses' directory, its
    ``/metrics`` on a loopback port of its own; logging warnings only (a line per business
    built would be a thousand lines)."""
    return f"""\
[host]
businesses_dir = "businesses"
idle_minutes = {idle_minutes}
watch_seconds = {watch_seconds}

[server]
listen_host = "127.0.0.1"
listen_port = {port}
public_base_url = "http://127.0.0.1:{port}"
drain_seconds = 0  # stopped by the bench itself: no load balancer waits on /health

[storage]
path = "host.sqlite3"

[metrics]
enabled = true
listen_port = {metrics_port}

[logging]
level = "WARNING"
"""


def single_toml(name: str, services_url: str, port: int, metrics_port: int) -> str:
    """A single-business file (no ``[host]``): business ``name`` as ``deliverybot run`` of
    today serves it, for the turn's cost on a host of one (metrics and logging as the
    host's)."""
    return f"""\
{business_toml(name, services_url)}
[server]
listen_host = "127.0.0.1"
listen_port = {port}
public_base_url = "http://127.0.0.1:{port}"
drain_seconds = 0  # stopped by the bench itself: no load balancer waits on /health

[storage]
path = "{name}.sqlite3"

[metrics]
enabled = true
listen_port = {metrics_port}

[logging]
level = "WARNING"
"""


def write_business(directory: Path, name: str, services_url: str) -> Path:
    """Write business ``name``'s file into ``directory`` whole (a watcher never reads half)."""
    path = directory / f"{name}.toml"
    partial = directory / f".{name}.toml.partial"
    partial.write_text(business_toml(name, services_url))
    partial.replace(path)
    return path
