"""examples/host: the shipped host file and its two business files check as written, and
docs/operators.md's "Hosting many businesses" names what they show."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from bot.config.business_scan import scan_businesses
from bot.config.host_loading import load_host

ROOT = Path(__file__).resolve().parents[2]
HOST = ROOT / "examples" / "host" / "host.toml"
SECRETS = {
    "CORNER_SHOP_PARTNER_API_KEY": "sk_live_cornershop0123456789",
    "CORNER_SHOP_TELEGRAM_TOKEN": "123456789:AAcornerSHOPtoken0123456789abcdefgh",
    "CORNER_SHOP_TELEGRAM_SECRET_TOKEN": "corner-shop-secret",
    "CORNER_SHOP_SIGNING_SECRET": "whsec_cornershop0123",
    "CITY_PHARMACY_PARTNER_API_KEY": "sk_live_citypharmacy0123456789",
    "CITY_PHARMACY_WHATSAPP_ACCESS_TOKEN": "EAAGcitypharmacyACCESStoken0",
    "CITY_PHARMACY_WHATSAPP_APP_SECRET": "0123456789abcdef0123456789abcdef",
    "CITY_PHARMACY_WHATSAPP_VERIFY_TOKEN": "pharmacy-verify",
}


@pytest.fixture(autouse=True)
def _secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in SECRETS.items():
        monkeypatch.setenv(name, value)


def test_the_example_host_and_both_businesses_check(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check-config", str(HOST)]) == 0
    out, err = capsys.readouterr()
    assert ": 2 ready, 0 refused" in out
    assert "https://bots.example.com/b/corner-shop/hooks/partner" in out
    assert "https://bots.example.com/b/city-pharmacy/whatsapp" in out
    assert "(set by the host, by secret token): https://bots.example.com/telegram" in out
    assert all(line.startswith("warning: ") for line in err.splitlines())
    assert not any(secret in out + err for secret in SECRETS.values())


def test_the_example_hosts_derivations_are_as_its_comments_say() -> None:
    ready = scan_businesses(load_host(HOST)).ready
    shop = ready["corner-shop"]
    assert shop.storage.path == Path("/var/lib/deliverybot/businesses/corner-shop.sqlite3")
    assert shop.storage.media_dir == Path("/var/lib/deliverybot/media/corner-shop")
    assert shop.partner_webhook_url() == "https://bots.example.com/b/corner-shop/hooks/partner"


def test_the_operators_guide_has_the_hosting_section_naming_the_examples() -> None:
    guide = (ROOT / "docs" / "operators.md").read_text(encoding="utf-8")
    section = guide.split("## 13. Hosting many businesses", 1)[1]
    for named in (
        "examples/host/host.toml",
        "deliverybot businesses",
        "b_<name>",
        "/b/<name>",
        ".removed/",
    ):
        assert named in section, named
