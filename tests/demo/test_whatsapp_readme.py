"""README's WhatsApp demo paragraph: each command in it parses as written, and the standalone
fake's arguments agree with what the paragraph and the bot's defaults say (the port the bot's
``graph_api_base_url`` names, the bot's webhook, the default templates and their parameters)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from bot.cli import build_parser
from bot.config.server_section import ServerConfig
from bot.config.whatsapp_section import PHONE_NUMBER_ID, WHATSAPP_PATH, NewsTemplate, ReplyTemplate
from bot.whatsapp_fake import fake_server

README = Path(__file__).resolve().parents[2] / "README.md"
FAKE = ".venv/bin/python -m bot.whatsapp_fake.fake_server"


def paragraph() -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index("`deliverybot demo --channel whatsapp`")
    return text[start : text.index("\n\n", start)]


def commands() -> list[str]:
    """The paragraph's code spans, a line break in one read as a space (as Markdown does)."""
    return [" ".join(span.split()) for span in re.findall(r"`([^`]+)`", paragraph())]


def test_the_demo_command_parses_as_written() -> None:
    (demo,) = [span for span in commands() if span.startswith("deliverybot demo")]
    args = build_parser().parse_args(shlex.split(demo)[1:])
    assert args.channel == "whatsapp"


def test_the_standalone_fake_agrees_with_the_paragraph_and_the_bots_defaults(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    (command,) = [span for span in commands() if span.startswith(FAKE)]
    options = fake_server.parser().parse_args(shlex.split(command.removeprefix(FAKE)))
    graph = re.search(r'graph_api_base_url = "([^"]+)"', " ".join(paragraph().split()))
    assert graph is not None and urlsplit(graph[1]).port == options.port
    webhook = urlsplit(options.webhook)
    assert webhook.path == WHATSAPP_PATH
    assert webhook.port == ServerConfig.model_fields["listen_port"].default
    assert PHONE_NUMBER_ID.fullmatch(options.phone_number_id)
    assert (options.access_token_env, options.app_secret_env) == ("WA_TOKEN", "WA_APP_SECRET")
    assert {(t.name, t.body_parameters) for t in options.templates} == {
        (NewsTemplate().name, 2),  # {{1}} the reference, {{2}} the news
        (ReplyTemplate().name, 1),  # {{1}} a person's answer
    }
    # Without the secrets in the environment it says so and starts nothing.
    monkeypatch.delenv("WA_TOKEN", raising=False)
    assert fake_server.main(shlex.split(command.removeprefix(FAKE))) == 2
