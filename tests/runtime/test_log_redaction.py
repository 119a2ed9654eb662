"""The log's net under libraries: every secret a config holds is redacted, WhatsApp's among
them, and a host's redaction follows the businesses it serves."""

from __future__ import annotations

import logging
from pathlib import Path

from bot.config import Config
from bot.runtime.logs import RedactSecrets, configured_secrets

ACCESS_TOKEN = "EAAG-whatsapp-access-token-0123456789"
APP_SECRET = "0123456789abcdef0123456789abcdef"
VERIFY_TOKEN = "whatsapp-verify-token-0123"


def whatsapp_config(tmp_path: Path) -> Config:
    data = {
        "partner": {"base_url": "https://partner.example/api/v1", "api_key": "sk_live_" + "k" * 24},
        "server": {"public_base_url": "https://bot.example.com"},
        "storage": {"path": "bot.sqlite3"},
        "whatsapp": {
            "phone_number_id": "1234567890",
            "access_token": ACCESS_TOKEN,
            "app_secret": APP_SECRET,
            "verify_token": VERIFY_TOKEN,
        },
    }
    return Config.model_validate(data, context={"environ": {}, "base_dir": tmp_path})


def said(redaction: RedactSecrets, message: str) -> str:
    record = logging.LogRecord("t", logging.WARNING, __file__, 1, message, None, None)
    redaction.filter(record)
    return record.getMessage()


def test_whatsapps_secrets_are_redacted(tmp_path: Path) -> None:
    redaction = RedactSecrets(configured_secrets(whatsapp_config(tmp_path)))
    line = said(redaction, f"sent with {ACCESS_TOKEN}, signed {APP_SECRET}, {VERIFY_TOKEN}")
    assert line == "sent with [redacted], signed [redacted], [redacted]"


def test_a_host_covers_the_secrets_of_the_businesses_it_has_now() -> None:
    redaction = RedactSecrets(["old-business-token"])
    redaction.cover(["new-business-token", "new-business-token-longer"])
    assert said(redaction, "old-business-token") == "old-business-token"
    assert said(redaction, "new-business-token-longer") == "[redacted]"
