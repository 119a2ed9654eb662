"""``[privacy]``: its defaults and checks, and the three keys an older file writes under
``[storage]``: still read, noted by ``check-config``, never written in both places."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import main
from bot.config import ConfigError, load_config
from bot.config.privacy_section import MOVED_FROM_STORAGE, PrivacyConfig
from bot.settings import CoreSettings
from tests.test_config import ENV, write

OLD_PLACE = {
    "storage.session_idle_days": 3,
    "storage.media_ttl_hours": 12,
    "storage.audit_days": 30,
}


@pytest.fixture(autouse=True)
def _environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in ENV.items():  # the secrets the base file names
        monkeypatch.setenv(name, value)


def test_the_defaults_are_the_documented_ones(tmp_path: Path) -> None:
    privacy = load_config(write(tmp_path)).privacy
    assert privacy == PrivacyConfig()
    assert privacy.model_dump() == {
        "drafts_days": 14.0,
        "transcripts_days": 90.0,
        "finished_orders_days": 365.0,
        "customer_details_days": 365.0,
        "inbox_days": 30.0,
        "photos_hours": 48.0,
        "audit_days": 90.0,
        "handoffs_days": 90.0,
    }


def test_keys_in_their_old_place_still_work_and_are_noted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, OLD_PLACE)
    config = load_config(path)
    assert (config.privacy.drafts_days, config.privacy.photos_hours, config.privacy.audit_days) == (
        3,
        12,
        30,
    )
    settings = CoreSettings.from_config(config)
    assert settings.media_ttl_seconds == 12 * 3600
    assert settings.privacy.drafts_seconds == 3 * 86_400

    assert main(["check-config", str(path)]) == 0
    out, err = capsys.readouterr()
    notes = [line for line in err.splitlines() if line.startswith("note: [storage]")]
    assert notes == [
        f"note: [storage] {old} is [privacy] {new} now: the old place still works; move it "
        f"under [privacy] as {new} when you next edit the file"
        for old, new in MOVED_FROM_STORAGE.items()
    ]
    # The effective settings show them where they belong now, and only there.
    storage = out.split("[storage]\n")[1].split("\n\n")[0]
    assert not [key for key in MOVED_FROM_STORAGE if key in storage]
    assert "[privacy]\ndrafts_days = 3" in out
    # A dump validates again, each key in one place.
    dumped = json.loads(config.model_dump_json())
    assert not [key for key in MOVED_FROM_STORAGE if key in dumped["storage"]]
    assert dumped["privacy"]["photos_hours"] == 12


@pytest.mark.parametrize(
    ("override", "problem"),
    [
        (
            {"storage.session_idle_days": 3, "privacy.drafts_days": 4},
            "[storage] session_idle_days: is [privacy] drafts_days too (its new place): keep "
            "[privacy] drafts_days only",
        ),
        (
            {"storage.session_idle_days": 0.5},
            "[storage] session_idle_days: must be greater than or equal to 1",
        ),
        (
            {"privacy.transcripts_days": 10, "privacy.drafts_days": 14},
            "[privacy] transcripts_days: must be at least drafts_days (14): an agent's open "
            "draft asks its question from the transcript's last entry",
        ),
        (
            {"privacy.transcripts_days": 10, "storage.session_idle_days": 20},
            "[privacy] transcripts_days: must be at least drafts_days (20): an agent's open "
            "draft asks its question from the transcript's last entry",
        ),
        (
            {"privacy.finished_orders_days": 3},
            "[privacy] finished_orders_days: must be greater than or equal to 7",
        ),
        ({"privacy.inbox_days": 1}, "[privacy] inbox_days: must be greater than or equal to 7"),
    ],
    ids=["both places", "old range", "transcripts", "transcripts vs old key", "books", "inbox"],
)
def test_problems_name_the_keys(tmp_path: Path, override: dict[str, object], problem: str) -> None:
    with pytest.raises(ConfigError) as raised:
        load_config(write(tmp_path, override))
    assert raised.value.problems == [problem]
