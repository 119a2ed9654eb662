"""``deliverybot customers block|unblock|list`` and ``deliverybot audit`` over the config's
SQLite store; and what the block means to every channel's customer (the chat service)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.chat_ref import AGENTS, CONSOLE, TELEGRAM, WHATSAPP, ChatRef, UserRef
from bot.cli import main
from bot.periods import since_seconds
from bot.store import Store
from conversations.texts.business_texts import BusinessTexts
from conversations.texts.catalogue import DEFAULT_TEXTS
from tests.support.words import say

CONFIG = """
[partner]
base_url = "https://app.example.com/api/v1"
api_key = "sk_live_SAFETYkey0123456789abcdef"

[telegram]
token = "987654321:AAGsafetySECRETtokenVALUE0123456789ab"
mode = "polling"

[storage]
path = "bot.sqlite3"
"""


@pytest.fixture
def config_file(tmp_path: Path) -> Path:
    file = tmp_path / "bot.toml"
    file.write_text(CONFIG, encoding="utf-8")
    return file


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_customer_is_blocked_listed_and_unblocked_from_the_shell(
    config_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = ("--config", str(config_file))
    ada = UserRef(TELEGRAM, 1001)

    assert run(capsys, "customers", "list", *config) == (0, "no customer is blocked\n", "")
    code, out, _ = run(capsys, "customers", "block", *config, "1001", "--reason", "spam")
    assert (code, out) == (0, say("safety.block_done", customer=ada) + "\n")
    code, out, _ = run(capsys, "customers", "list", *config)
    assert code == 0 and out.rstrip().endswith("telegram:1001  by shell  (spam)")
    code, out, _ = run(capsys, "customers", "unblock", *config, "telegram:1001")
    assert (code, out) == (0, say("safety.unblock_done", customer=ada) + "\n")

    code, out, _ = run(capsys, "audit", *config, "--since", "1h")
    assert code == 0
    assert [line.split("  ")[1:] for line in out.splitlines()] == [
        ["shell", "block", "telegram:1001", "done", "(spam)"],
        ["shell", "unblock", "telegram:1001", "done"],
    ]


def test_a_name_that_is_no_customer_or_a_bad_period_is_bad_usage(
    config_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = ("--config", str(config_file))
    code, out, err = run(capsys, "customers", "block", *config, "shop-app:nobody")
    assert (code, out) == (2, "")
    assert err == say("safety.no_agent_customer", typed="shop-app:nobody") + "\n"
    code, _, err = run(capsys, "audit", *config, "--since", "a week")
    assert (code, err) == (2, "audit: --since: not a period such as 7d or 24h: 'a week'\n")


async def _agent_customer(path: Path, channel: str, customer: str) -> UserRef:
    """The customer ``channel``'s app knows as ``customer``, as its first conversation makes it."""
    async with Store.open(path) as store:
        user = await store.agents.user(channel, customer, create=True)
    assert user is not None
    return user


def test_an_agent_customer_is_named_by_channel_and_reference_in_every_answer(
    config_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = ("--config", str(config_file))
    user = asyncio.run(_agent_customer(config_file.parent / "bot.sqlite3", "shop-app", "cust-42"))
    assert str(user) == "agents:1"  # the bot's inner name, never shown to staff

    code, out, _ = run(capsys, "customers", "block", *config, "shop-app:cust-42")
    assert (code, out) == (0, say("safety.block_done", customer="shop-app:cust-42") + "\n")
    code, out, _ = run(capsys, "customers", "list", *config)
    assert code == 0 and out.rstrip().endswith("  shop-app:cust-42  by shell")
    code, out, _ = run(capsys, "customers", "unblock", *config, "shop-app:cust-42")
    assert (code, out) == (0, say("safety.unblock_done", customer="shop-app:cust-42") + "\n")
    code, out, _ = run(capsys, "audit", *config, "--since", "1h")
    assert [line.split("  ")[1:4] for line in out.splitlines()] == [
        ["shell", "block", "shop-app:cust-42"],
        ["shell", "unblock", "shop-app:cust-42"],
    ]
    assert "agents:" not in out


def test_a_bare_customer_reference_is_answered_with_the_channel_form(
    config_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = ("--config", str(config_file))
    asyncio.run(_agent_customer(config_file.parent / "bot.sqlite3", "shop-app", "cust-42"))
    missing = say("safety.no_such_delivery", ref="CUST-99")

    code, out, err = run(capsys, "customers", "block", *config, "cust-99")
    example = say("safety.agent_customer_form", example="shop-app:cust-99")
    assert (code, out, err) == (2, "", f"{missing} {example}\n")

    code, out, err = run(capsys, "customers", "block", *config, "cust-42")
    known = say("safety.agent_customer_known_as", names="shop-app:cust-42")
    assert (code, out) == (2, "")
    assert err == f"{say('safety.no_such_delivery', ref='CUST-42')} {known}\n"


def test_periods_are_days_or_hours() -> None:
    assert since_seconds("7d") == 7 * 86_400
    assert since_seconds("24h") == 86_400
    assert since_seconds("1.5d") == 1.5 * 86_400
    for wrong in ("7w", "0d", "d", "-1h"):
        with pytest.raises(ValueError, match="not a period"):
            since_seconds(wrong)


@pytest.mark.parametrize(
    ("chat", "user"),
    [
        (ChatRef(TELEGRAM, 1001), UserRef(TELEGRAM, 1001)),
        (ChatRef(CONSOLE, 1), UserRef(CONSOLE, 1)),
        (ChatRef(AGENTS, 5), UserRef(AGENTS, 7)),
    ],
    ids=["telegram", "console", "agents"],
)
async def test_a_blocked_customer_of_any_channel_has_their_drafts_dropped(
    tmp_path: Path, chat: ChatRef, user: UserRef
) -> None:
    from bot.safety.customer_blocking import CustomerBlocking, blocked_turn

    async with Store.open(tmp_path / "bot.db", synchronous="NORMAL") as store:
        await store.sessions.save(chat, user.id, "{}")
        blocking = CustomerBlocking(store)

        done = await blocking.block(user, by="shell")
        assert (done.new, done.drafts) == (True, 1)
        assert await store.sessions.get(chat) is None
        catalogue = BusinessTexts(DEFAULT_TEXTS).catalogue_for(None)
        assert await blocking.refusal(user, catalogue) == blocked_turn(catalogue)
        assert await blocking.refusal(UserRef(user.channel, user.id + 1), catalogue) is None
        assert await blocking.unblock(user, by="shell") is True
        assert await blocking.refusal(user, catalogue) is None


WEBHOOKS_ON = CONFIG.replace('mode = "polling"', 'public_base_url = "https://bot.example.com"') + (
    '\n[webhooks]\nenabled = true\nsigning_secret = "whsec_safety0123456789abcdef"\n'
)


@pytest.mark.parametrize(
    ("config", "limits", "refused"),
    [
        (CONFIG, "creates_per_hour = 10\ncreates_per_day = 5", "creates_per_day (5) is below"),
        # The payments are seen in the service's events: the status poller misses most.
        (CONFIG, "unpaid_deliveries = 3", "[limits] unpaid_deliveries: needs [webhooks]"),
        (WEBHOOKS_ON, "unpaid_deliveries = 3", None),
    ],
    ids=["day below the hour", "unpaid without events", "unpaid with events"],
)
def test_check_config_refuses_limits_that_cannot_hold(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    config: str,
    limits: str,
    refused: str | None,
) -> None:
    file = tmp_path / "bot.toml"
    file.write_text(f"{config}\n[limits]\n{limits}\n")

    code, _, err = run(capsys, "check-config", str(file))

    assert code == (0 if refused is None else 2), err
    assert refused is None or refused in err


ADA = UserRef(TELEGRAM, 1001)
ADA_NAME = "Ada Obi"


async def _ada_ordered(path: Path, *, open_delivery: bool) -> None:
    """Ada (Telegram user 1001) with remembered details, a delivered order and, if
    ``open_delivery``, one on its way."""
    chat = ChatRef(TELEGRAM, ADA.id)
    async with Store.open(path) as store:
        await store.customers.put(ADA, f'{{"name": "{ADA_NAME}"}}')
        await store.deliveries.add("d0e1f2a3-done", chat, ADA.id, 1.0, "+2348022223333", None)
        assert await store.deliveries.update_view("d0e1f2a3-done", "delivered", 2)
        if open_delivery:
            await store.deliveries.add("0be2c3d4-open", chat, ADA.id, 3.0, "+2348044445555", None)


def test_a_customer_is_exported_then_forgotten_from_the_shell(
    config_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    config = ("--config", str(config_file))
    asyncio.run(_ada_ordered(config_file.parent / "bot.sqlite3", open_delivery=True))

    code, out, _ = run(capsys, "customers", "export", *config, "1001")
    assert code == 0
    document = json.loads(out)
    assert document["details"]["value"] == {"name": ADA_NAME}
    assert [d["delivery_id"] for d in document["deliveries"]] == ["d0e1f2a3-done", "0be2c3d4-open"]
    written = config_file.parent / "ada.json"
    code, out, _ = run(capsys, "customers", "export", *config, "d0e1f2a3", "--out", str(written))
    assert (code, out) == (0, f"telegram:1001: written to {written}\n")
    assert json.loads(written.read_text(encoding="utf-8"))["details"] == document["details"]
    assert written.stat().st_mode & 0o777 == 0o600  # the customer's data: its owner's only

    code, out, _ = run(capsys, "customers", "forget", *config, "telegram:1001", "--yes")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "telegram:1001: forgotten, pending"
    assert lines[1].startswith("erased: ") and "customer_details 1" in lines[1]
    assert lines[2:] == [
        "deliveries kept anonymous for the books: 1",
        "open, erased once they end: 0be2c3d4-open",
    ]
    code, out, _ = run(capsys, "customers", "export", *config, "1001")
    after = json.loads(out)
    assert after["details"] is None and ADA_NAME not in out
    assert [d["delivery_id"] for d in after["deliveries"]] == ["0be2c3d4-open"]

    code, out, _ = run(capsys, "audit", *config, "--since", "1h")
    assert [line.split("  ")[1:3] for line in out.splitlines()] == [
        ["shell", "customer_export"],
        ["shell", "customer_export"],
        ["shell", "customer_forget"],
        ["shell", "customer_export"],
    ]
    assert ADA_NAME not in out


class _Terminal:
    """A terminal's stdin where the person types ``answer``."""

    def __init__(self, answer: str) -> None:
        self.answer = answer

    def isatty(self) -> bool:
        return True

    def readline(self) -> str:
        return self.answer + "\n"


@pytest.mark.parametrize(
    ("stdin", "erased"),
    [(None, False), (_Terminal("n"), False), (_Terminal(""), False), (_Terminal("y"), True)],
    ids=["no terminal", "no", "enter", "yes"],
)
def test_forget_asks_the_terminal_first_and_erases_only_on_yes(
    config_file: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    stdin: _Terminal | None,
    erased: bool,
) -> None:
    import io

    config = ("--config", str(config_file))
    asyncio.run(_ada_ordered(config_file.parent / "bot.sqlite3", open_delivery=False))
    monkeypatch.setattr("sys.stdin", io.StringIO("y\n") if stdin is None else stdin)

    code, out, err = run(capsys, "customers", "forget", *config, "1001")

    if erased:
        assert code == 0 and out.startswith("telegram:1001: forgotten\n")
        assert "deliveries kept anonymous for the books: 1" in out
    else:
        assert (code, out) == (2, "")
        assert err.rstrip().endswith("nothing was erased" if stdin else "add --yes to erase")
    code, out, _ = run(capsys, "customers", "export", *config, "1001")
    assert (ADA_NAME in out) is not erased


def test_a_whatsapp_customer_is_exported_and_blocked_by_their_number(
    config_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    config = ("--config", str(config_file))
    bola = UserRef(WHATSAPP, 2348012345678)

    async def bola_ordered(path: Path) -> None:
        async with Store.open(path) as store:
            await store.customers.put(bola, '{"name": "Bola"}')
            chat = ChatRef(WHATSAPP, bola.id)
            await store.deliveries.add("wa0e1f2a3", chat, bola.id, 1.0, None, None)

    asyncio.run(bola_ordered(config_file.parent / "bot.sqlite3"))

    code, out, _ = run(capsys, "customers", "export", *config, "whatsapp:+234 801 234 5678")
    assert code == 0
    document = json.loads(out)
    assert document["details"]["value"] == {"name": "Bola"}
    assert [d["delivery_id"] for d in document["deliveries"]] == ["wa0e1f2a3"]
    code, out, _ = run(capsys, "customers", "block", *config, "+234-801-234-5678")
    shown = "whatsapp:+2348012345678"  # as typed back, and as the trail is read
    assert (code, out) == (0, say("safety.block_done", customer=shown) + "\n")
    code, out, _ = run(capsys, "customers", "list", *config)
    assert out.rstrip().endswith(f"  {shown}  by shell")
    code, out, _ = run(capsys, "audit", *config, "--since", "1h")
    assert [line.split("  ")[3] for line in out.splitlines()] == [shown, shown]

    code, out, err = run(capsys, "customers", "export", *config, "whatsapp:0801 234 5678")
    assert (code, out) == (2, "")
    assert err == say("safety.not_a_whatsapp_number", typed="whatsapp:0801 234 5678") + "\n"
