"""What ``deliverybot run`` writes, read line by line from the real process (docs/operators.md,
"What is logged"): no personal data at DEBUG, and with ``format = "json"`` nothing but JSON.

* Without a Telegram token (one agent channel, the log as the operators' chat), a whole order
  over the JSON API and its news to delivered, at DEBUG, in text and in JSON: no name, phone,
  address or parcel text of the order is in any line of stdout or stderr, while the operators'
  lines name the delivery by its reference.
* ``format = "json"``: every line of stdout and stderr is one JSON object, the start-up
  warnings, a refused configuration's problems and a fatal start-up error included.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import socket
import sys
from pathlib import Path
from typing import Any

import httpx

from bot.sandbox import parse_scenario
from bot.sandbox.scenario import default_scenario_data
from bot.sandbox.server import SandboxServer
from conversations.texts.deliveries_texts import short_ref

from .test_run_command import _free_port
from .test_run_without_telegram import KEY, ROOT, _config, _lines, order_over_api

# Everything personal the order holds (tests/e2e/test_agent_channels.py's ANSWERS), in the
# forms a line could carry it: typed, normalised, or as words.
PERSONAL = [
    r"Herbert Macaulay",
    r"Yaba",
    r"UNILAG Main Gate",
    r"\bAda\b",
    r"\bObi\b",
    r"8031234567",
    r"803 ?123 ?4567",
    r"Bola",
    r"Ahmed",
    r"802 ?222 ?3333",
    r"pair of shoes",
    r"shoes in a box",
]


async def _start(tmp_path: Path, config: str, *, environ: dict[str, str] | None = None) -> Any:
    path = tmp_path / "bot.toml"
    path.write_text(config)
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "run",
        "--config",
        str(path),
        cwd=tmp_path,
        env={**os.environ, "SHOP_KEY": KEY, "PYTHONPATH": str(ROOT), **(environ or {})},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


async def _stopped(process: Any) -> tuple[str, str]:
    """Everything ``process`` still writes once told to stop with SIGTERM: stdout, stderr."""
    process.send_signal(signal.SIGTERM)
    async with asyncio.timeout(20):
        out, err = await process.communicate()
    return out.decode(), err.decode()


def _json_objects(output: str) -> list[dict[str, Any]]:
    """Each line of ``output`` as the JSON object it must be."""
    objects = []
    for line in output.splitlines():
        parsed = json.loads(line)
        assert isinstance(parsed, dict), line
        assert {"time", "level", "logger", "message"} <= parsed.keys(), line
        objects.append(parsed)
    return objects


async def _order_to_delivered(partner: SandboxServer, port: int) -> str:
    """An agent's order over the JSON API, paid and moved on to delivered, its events
    followed until the last one; the delivery's id."""
    headers = {"Authorization": f"Bearer {KEY}"}
    async with httpx.AsyncClient(
        base_url=f"http://127.0.0.1:{port}", headers=headers, timeout=20
    ) as api:
        path, delivery_id = await order_over_api(api, "c-1")
        partner.sandbox.mark_paid(delivery_id)
        while partner.sandbox.delivery(delivery_id)["status"] != "delivered":
            partner.sandbox.advance_status(delivery_id)
        async with asyncio.timeout(20):
            while True:  # the bot has relayed the last event once its agent can read it
                events = (await api.get(path + "/events")).json()["events"]
                if any(event.get("status") == "delivered" for event in events):
                    return delivery_id
                await asyncio.sleep(0.05)


async def _whole_order_logged(tmp_path: Path, log_format: str) -> tuple[str, str, str]:
    port = _free_port()
    data = default_scenario_data()
    data["webhooks"][0]["url"] = f"http://127.0.0.1:{port}/hooks/partner"
    async with SandboxServer(parse_scenario(data), port=0) as partner:
        config = _config(partner, port, partner.sandbox.signing_secret)
        config += f'\n[logging]\nlevel = "DEBUG"\nformat = "{log_format}"\n'
        process = await _start(tmp_path, config)
        try:
            started = await _lines(process, "bot running without Telegram")
            delivery_id = await _order_to_delivered(partner, port)
        finally:
            out, err = await _stopped(process)
    assert process.returncode == 0, err
    return delivery_id, out, "".join(started) + err


async def test_a_whole_agent_order_logged_at_debug_as_text_names_nobody(tmp_path: Path) -> None:
    delivery_id, out, err = await _whole_order_logged(tmp_path, "text")

    found = [p for p in PERSONAL if re.search(p, out + err)]
    assert found == [], err
    reference = short_ref(delivery_id)
    assert f"for operators (no Telegram): news about delivery {reference}" in err
    assert " DEBUG " in err  # the level did apply: DEBUG lines were written


async def test_a_whole_agent_order_logged_at_debug_as_json_is_json_and_names_nobody(
    tmp_path: Path,
) -> None:
    _, out, err = await _whole_order_logged(tmp_path, "json")

    lines = _json_objects(out) + _json_objects(err)
    found = [p for p in PERSONAL if re.search(p, out + err)]
    assert found == [], err
    assert {line["level"] for line in lines} >= {"DEBUG", "INFO", "WARNING"}
    warnings = [line["message"] for line in lines if line["logger"] == "bot.cli"]
    assert warnings and all(
        line["level"] == "WARNING" for line in lines if line["logger"] == "bot.cli"
    )
    operators = [line for line in lines if line["logger"] == "bot.agents.chatless_channel"]
    assert operators and {"delivery", "event", "sending"} <= operators[0].keys()


async def test_a_refused_configuration_asking_for_json_says_so_in_json(tmp_path: Path) -> None:
    config = '[partner]\nbase_url = "http://127.0.0.1:9"\nbogus = 1\n\n[logging]\nformat = "json"\n'
    process = await _start(tmp_path, config)
    async with asyncio.timeout(20):
        out, err = await process.communicate()

    assert process.returncode == 2
    lines = _json_objects(out.decode()) + _json_objects(err.decode())
    assert lines and all(line["level"] == "ERROR" for line in lines)
    assert any("bogus" in line["message"] for line in lines)


async def test_a_bot_that_cannot_start_says_why_in_json(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        async with SandboxServer(parse_scenario(default_scenario_data()), port=0) as partner:
            config = _config(partner, port, partner.sandbox.signing_secret)
            process = await _start(tmp_path, config + '\n[logging]\nformat = "json"\n')
            async with asyncio.timeout(20):
                out, err = await process.communicate()

    assert process.returncode == 1
    lines = _json_objects(out.decode()) + _json_objects(err.decode())
    assert lines[-1]["level"] == "ERROR" and lines[-1]["logger"] == "bot.cli"
