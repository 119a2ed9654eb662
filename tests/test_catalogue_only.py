"""No sentence a customer or an operator reads is written outside the message catalogue.

An AST scan of the modules that speak to chats (the adapters, the relay, the ordering
services, the texts modules themselves): a string literal that reads as words (two or more
words of letters) is a sentence, unless it is a docstring, a log line or an exception's text
for developers, or one of the few words listed in ``NOT_FOR_CHATS`` with what they are for.
Such a sentence belongs in ``conversations/texts/messages_en.py`` (and its translations), or,
when only one channel says it, in that channel's texts module (``bot/telegram/telegram_texts.py``),
said with ``say(...)``.

The flows' declarations (questions, titles, option labels and help written where a step is
declared, in ``conversations/flows``, ``conversations/steps`` and ``conversations/rules.py``)
name catalogue messages too (``said``), said in the language of the turn that reads them; a
module that still held sentences would be listed in ``NOT_YET``, and the test checks that list
only shrinks (it is empty). The demo's business-side lines
(``bot/demo``) are not scanned.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCANNED = (
    "bot/telegram",
    "bot/console",
    "bot/relay",
    "bot/ordering",
    "conversations/texts",
    "conversations/steps",
    "conversations/flows",
    "conversations/engine",
    "conversations/rules.py",
)
CATALOGUES = frozenset(
    {
        "conversations/texts/messages_en.py",
        "conversations/texts/messages_fr.py",
        # each channel's own words (bot.channel_texts)
        "bot/telegram/telegram_texts.py",
        "bot/console/console_texts.py",
        "bot/webapp/webapp_texts.py",
    }
)
NOT_YET: frozenset[str] = frozenset()
# Read by a program or a language model answering for a customer (the agents' JSON API and MCP
# server), not by a person in a chat: how to answer each kind of question, in English, like an
# API's own documentation. What the customer reads through an agent (questions, re-asks,
# summaries) still comes from the catalogue.
FOR_PROGRAMS = frozenset({"conversations/texts/agent_texts.py"})
# Words in these modules that never reach a chat, by what they are.
NOT_FOR_CHATS: dict[str, frozenset[str]] = {
    # a transcript mismatch, for the maintainer who wrote the transcript
    "bot/console/transcript.py": frozenset(
        {
            ", but it is ",
            "expected an option like",
            "did not expect",
            "expected to be at ",
            "expected the bot to say ",
            "the bot said ",
        }
    ),
    # why an update or a tap was dropped, for the log
    "bot/telegram/application.py": frozenset(
        {
            "update_id is a ",
            ", not an integer",
            " has a message without a chat or a sender",
            " carries neither a message nor a tap",
        }
    ),
    "bot/telegram/callbacks.py": frozenset(
        {
            "no callback data",
            "not a prompt button",
            "no such option",
            "no such command",
            "no such page",
        }
    ),
    # Telegram's own error texts, matched; the reason of a dropped send, for the log
    "bot/telegram/message_sender.py": frozenset(
        {"message is not modified", "chat not found", "the group moved to chat ", "rate limited"}
    ),
    # Telegram's own error texts about a live location's edits, matched
    "bot/telegram/telegram_rider_map.py": frozenset(
        {
            "message can't be edited",
            "message to edit not found",
            "message is not modified",
            "there is no live location in the message to edit",
        }
    ),
    # HTTP reason phrases, for Telegram's servers
    "bot/telegram/webhook_route.py": frozenset(
        {"Payload Too Large", "Bad Request", "Unsupported Media Type"}
    ),
    # the rule a dropped update broke, for the log line that names it
    "bot/telegram/update_check.py": frozenset(
        {
            " has a lone surrogate",
            " has a lone surrogate beside ",
            " is missing",
            " is not a list",
            " is not a number",
            " is not a string",
            " is not an integer",
            " is not an object",
            " is not true or false",
            " is outside the 64-bit integer range",
            " is over ",
            "PTB cannot read it (",
        }
    ),
    # what could not be read, for the log; why an event waits, kept in the inbox
    "bot/ordering/catalog.py": frozenset({"service locations"}),
    # an operator alert that reached nobody, named in the log by its kind and references
    "bot/ordering/alerting.py": frozenset({" about delivery ", "; its words are not logged"}),
    "bot/relay/inbox_worker.py": frozenset(
        {
            "delivery not linked to a chat yet",
            "relay error: ",
            " message(s) not sent",
            "relay delivery ",  # an asyncio task's name
        }
    ),
    # an asyncio task's name; why a send was skipped, for the log
    "bot/relay/chat_queues.py": frozenset(
        {"relay chat ", "an earlier message of its group was not sent"}
    ),
    "bot/relay/outbox.py": frozenset({" message for event ", " is being sent"}),
    # a bad [texts] override, for check-config; a Babel date pattern
    "conversations/texts/catalogue.py": frozenset(
        {
            " (the message has none)",
            " (the message has ",
            "no such message id",
            "not a valid template (",
            "unknown placeholder ",
            "drops the placeholder ",
            "dd MMM yyyy",
        }
    ),
    # what a branch decides and when a step is asked: labels of the flow diagrams (docs/flows.md)
    "conversations/flows/errand.py": frozenset(
        {"curated or own link", "errand type", "the shop's place is not known"}
    ),
    "conversations/flows/pickup_delivery.py": frozenset(
        {"delivery mode", "the rider picks up from an address"}
    ),
    "conversations/steps/parties.py": frozenset({"who hands it over"}),
    "conversations/steps/payment.py": frozenset({"POD is enabled"}),
    "conversations/steps/place_steps.py": frozenset({"how the place was given"}),
    "conversations/steps/unit_step.py": frozenset({"the saved place has units"}),
    # words by which the service's own customer_message_hint tells a status
    "conversations/texts/deliveries_texts.py": frozenset(
        {"waiting for a rider", "picked up", "on its way", "in transit"}
    ),
}
_WORDS = re.compile(r"[A-Za-z]{2,}[,.:;!?]?\s+[A-Za-z]{2,}")
_LOGGING = frozenset({"debug", "info", "warning", "error", "exception", "critical", "log"})


def _sentences(tree: ast.AST) -> list[tuple[int, str]]:
    skipped: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            skipped.add(id(body[0].value))  # a docstring
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            skipped.add(id(node.value))  # an attribute's docstring
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr in _LOGGING:
                skipped |= {id(sub) for arg in node.args for sub in ast.walk(arg)}
        if isinstance(node, ast.Raise) and node.exc is not None:
            skipped |= {id(sub) for sub in ast.walk(node.exc)}
        if isinstance(node, ast.Assert) and node.msg is not None:
            skipped |= {id(sub) for sub in ast.walk(node.msg)}
    found = []
    for node in ast.walk(tree):
        if id(node) in skipped or not isinstance(node, ast.Constant):
            continue
        if isinstance(node.value, str) and _WORDS.search(node.value):
            found.append((node.lineno, node.value))
    return found


def _scanned_files() -> list[Path]:
    paths = [ROOT / name for name in SCANNED]
    return sorted(
        file for path in paths for file in (path.rglob("*.py") if path.is_dir() else [path])
    )


def test_chats_are_spoken_to_only_from_the_catalogue() -> None:
    written = []
    for file in _scanned_files():
        name = file.relative_to(ROOT).as_posix()
        if name in CATALOGUES or name in NOT_YET or name in FOR_PROGRAMS:
            continue
        allowed = NOT_FOR_CHATS.get(name, frozenset())
        for line, text in _sentences(ast.parse(file.read_text(encoding="utf-8"))):
            if text not in allowed:
                written.append(f"{name}:{line}: {text!r}")
    assert written == []


def test_the_lists_of_exceptions_only_shrink() -> None:
    for name in sorted(NOT_YET):
        file = ROOT / name
        assert file.exists() and _sentences(ast.parse(file.read_text(encoding="utf-8"))), name
    for name, texts in NOT_FOR_CHATS.items():
        found = {text for _, text in _sentences(ast.parse((ROOT / name).read_text("utf-8")))}
        assert texts <= found, (name, sorted(texts - found))


def test_the_scan_sees_a_sentence_built_in_an_adapter() -> None:
    code = 'async def on_x(chat):\n    await chat.send(f"Your order {ref} is ready.")\n'
    assert _sentences(ast.parse(code)) == [(2, "Your order "), (2, " is ready.")]
    log_only = 'log.warning("chat %s cannot be messaged", chat)\nraise ValueError("bad value")\n'
    assert _sentences(ast.parse(log_only)) == []
