"""How a demo run is set up: the sandbox scenario, edited by a transcript's setup lines.

=================================  =============================================================
``@scenario default``              the built-in scenario (the default)
``@scenario FILE``                 a scenario TOML file, relative to the transcript
``@set KEY = VALUE``               change one scenario key (``capabilities.pod.enabled = false``);
                                   VALUE is TOML (``"text"``, ``[1, 2]``, ``{ lat = 6.5 }``)
``@stale KEY = VALUE``             the bot's first capabilities read shows KEY as VALUE (KEY inside
                                   the Capabilities object): the business changed it since
``@flow NAME``                     start in the flow NAME instead of the entry flow (as a deep
                                   link would)
``@language CODE``                 the customer's language (``--language``)
``@channel whatsapp``              the customer is on WhatsApp (``--channel``; or ``console``)
=================================  =============================================================
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.console.transcript import Directive, TranscriptError
from bot.demo.demo_bot import DemoChannel
from bot.demo.transports import set_path
from bot.sandbox import Scenario, ScenarioError, default_scenario_data, parse_scenario

CHANNELS: dict[str, DemoChannel] = {"console": "console", "whatsapp": "whatsapp"}


@dataclass(frozen=True)
class DemoSetup:
    scenario: Scenario
    stale: dict[str, Any] = field(default_factory=dict)
    flow: str | None = None
    language: str | None = None  # the customer's language code, as ``--language`` gives it
    channel: DemoChannel | None = None  # where the customer orders, as ``--channel`` gives it


def _assignment(directive: Directive, source: str) -> tuple[str, Any]:
    key, equals, raw = directive.argument.partition("=")
    key = key.strip()
    if not equals or not key or any(not part for part in key.split(".")):
        raise TranscriptError(f"{source}:{directive.line}: write @{directive.name} KEY = VALUE")
    try:
        value = tomllib.loads(f"value = {raw.strip()}")["value"]
    except tomllib.TOMLDecodeError:
        raise TranscriptError(
            f"{source}:{directive.line}: {raw.strip()!r} is not a TOML value "
            '(text needs quotes: "like this")'
        ) from None
    return key, value


def _scenario_data(argument: str, base_dir: Path) -> dict[str, Any]:
    if argument in ("", "default"):
        return default_scenario_data()
    path = Path(argument).expanduser()
    path = path if path.is_absolute() else base_dir / path
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except OSError as exc:
        raise ScenarioError(f"{path}: cannot read the scenario file ({exc.strerror})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"{path}: not valid TOML: {exc}") from None


def demo_setup(
    directives: Sequence[Directive] = (),
    *,
    source: str = "<transcript>",
    base_dir: Path | None = None,
    scenario_file: Path | None = None,
) -> DemoSetup:
    """The run ``directives`` describe, starting from ``scenario_file`` (or the default).

    Raises ``TranscriptError`` for a bad setup line, ``ScenarioError`` for a bad scenario.
    """
    here = base_dir or Path.cwd()
    data = _scenario_data(str(scenario_file) if scenario_file else "", Path.cwd())
    name = str(scenario_file) if scenario_file else "default"
    stale: dict[str, Any] = {}
    flow: str | None = None
    language: str | None = None
    channel: DemoChannel | None = None
    for directive in directives:
        if directive.name == "scenario":
            data = _scenario_data(directive.argument, here)
            name = directive.argument or "default"
        elif directive.name == "set":
            key, value = _assignment(directive, source)
            set_path(data, key, value)
        elif directive.name == "stale":
            key, value = _assignment(directive, source)
            stale[key] = value
        elif directive.name == "flow" and directive.argument:
            flow = directive.argument
        elif directive.name == "language" and directive.argument:
            language = directive.argument
        elif directive.name == "channel" and directive.argument in CHANNELS:
            channel = CHANNELS[directive.argument]
        else:
            raise TranscriptError(
                f"{source}:{directive.line}: unknown setup line @{directive.name} "
                "(known: @scenario FILE, @set KEY = VALUE, @stale KEY = VALUE, @flow NAME, "
                "@language CODE, @channel console|whatsapp)"
            )
    edited = any(directive.name == "set" for directive in directives)
    label = f"{name}, with the @set lines of {source}" if edited else name
    return DemoSetup(parse_scenario(data, label), stale, flow, language, channel)
