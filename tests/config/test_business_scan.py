"""``scan_businesses`` and ``diff_scans``: every business file of a host, a broken one refused
while the others load, two sharing what must be one business's both refused naming both files,
and a rescan that reads again only what changed."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot.config import ConfigError
from bot.config.business_scan import ScanChanges, diff_scans, scan_businesses
from bot.config.host_loading import SINGLE_BUSINESS, load_host
from tests.config.host_texts import (
    HOST_TEXT,
    POSTGRES_TABLES,
    business_secrets,
    business_text,
    make_host,
)

LONG_AGO_NS = 1_000_000_000_000_000_000  # 2001: older than any scan's racy window


def age(*files: Path) -> None:
    """Date ``files`` back, as files written well before the scan that reads them."""
    for file in files:
        os.utime(file, ns=(LONG_AGO_NS, LONG_AGO_NS))


def test_every_business_file_loads_sorted_and_hidden_files_are_not_businesses(
    tmp_path: Path,
) -> None:
    host = load_host(make_host(tmp_path, {"shop": business_text(1), "cafe": business_text(2)}))
    directory = tmp_path / "businesses"
    (directory / ".shop.toml.123.tmp").write_text("half a fi", encoding="utf-8")
    (directory / ".hidden.toml").write_text(business_text(3), encoding="utf-8")
    (directory / ".removed").mkdir()
    (directory / ".removed" / "old.20250101T000000Z.toml").write_text(business_text(4))
    (directory / "notes.txt").write_text("not a business", encoding="utf-8")
    scan = scan_businesses(host)
    assert list(scan.entries) == ["cafe", "shop"]
    assert list(scan.ready) == ["cafe", "shop"]
    assert scan.ready["shop"].server.public_base_url == "https://host.example.com/b/shop"
    assert scan.problems() == []


def test_a_broken_file_is_refused_with_its_problems_and_the_others_load(tmp_path: Path) -> None:
    broken = business_text(2).replace('mode = "webhook"', "mode = webhook")
    host = load_host(make_host(tmp_path, {"shop": business_text(1), "cafe": broken}))
    scan = scan_businesses(host)
    assert list(scan.ready) == ["shop"]
    cafe = tmp_path / "businesses" / "cafe.toml"
    assert scan.refused == {
        "cafe": (
            f"{cafe}:7:8: invalid TOML: [telegram] mode: a bare word is not a TOML value: put "
            'text in quotes ("..."), or use true or false',
        )
    }
    assert scan.entries["cafe"].config is None


SHARED = [
    ("token", "[telegram] token", "[telegram] token", "Telegram bot token"),
    ("secret_token", "[telegram] secret_token", "[telegram] secret_token", None),
    ("api_key", "[partner] api_key", "[partner] api_key", "Partner API key"),
    ("signing_secret", "[webhooks] signing_secret", "[webhooks] signing_secret", None),
    # A business's new secret is another's old one: still one signing secret for two.
    (
        "signing_secret",
        "[webhooks] signing_secret",
        "[webhooks] previous_signing_secret",
        "signing secret",
    ),
    ("agent_key", "[[agents.channels]] shop's key", "[[agents.channels]] shop's key", None),
    ("phone_number_id", "[whatsapp] phone_number_id", "[whatsapp] phone_number_id", None),
]


@pytest.mark.parametrize(("value", "key", "other_key", "kind"), SHARED)
def test_two_businesses_sharing_a_secret_or_number_are_both_refused_naming_both(
    tmp_path: Path, value: str, key: str, other_key: str, kind: str | None
) -> None:
    first = business_secrets(1)
    taken = first["previous_signing_secret" if "previous" in other_key else value]
    businesses = {
        "shop": business_text(1, whatsapp=True),
        "cafe": business_text(2, whatsapp=True, **{value: taken}),
        "deli": business_text(3, whatsapp=True),
    }
    scan = scan_businesses(load_host(make_host(tmp_path, businesses)))
    shop, cafe = (tmp_path / "businesses" / f"{name}.toml" for name in ("shop", "cafe"))
    assert list(scan.ready) == ["deli"]
    cafe_line, shop_line = scan.problems()
    assert cafe_line.startswith(f"{cafe}: {key}: the same as {shop}'s {other_key}: ")
    assert shop_line.startswith(f"{shop}: {other_key}: the same as {cafe}'s {key}: ")
    if kind is not None:
        assert cafe_line.endswith(f"each business has its own {kind} (compared by hash; not shown)")
    assert taken not in cafe_line + shop_line


def test_two_names_whose_lock_namespaces_meet_are_both_refused_on_postgres(
    tmp_path: Path,
) -> None:
    # One namespace for two businesses would have one wait on, or lead for, the other. These
    # two names were searched for: their derived namespaces are the same 32-bit number.
    host_text = HOST_TEXT.replace("[storage]", '[storage]\nbackend = "postgres"') + POSTGRES_TABLES
    businesses = {"b107638": business_text(1), "b127262": business_text(2), "b3": business_text(3)}
    scan = scan_businesses(load_host(make_host(tmp_path, businesses, host_text=host_text)))
    assert list(scan.ready) == ["b3"]
    key = "[storage.postgres] lock_namespace (derived from the business's name)"
    assert scan.refused["b107638"][0].endswith(
        f"b107638.toml: {key}: the same as {tmp_path / 'businesses' / 'b127262.toml'}'s {key}: "
        "each business has its own lock namespace (compared by hash; not shown)"
    )
    database = scan.ready["b3"].storage.shared_database
    assert database is not None and database.db_schema == "b_b3"


def test_two_files_naming_one_business_without_case_are_both_refused(tmp_path: Path) -> None:
    host = load_host(make_host(tmp_path, {"shop": business_text(1), "Shop": business_text(2)}))
    scan = scan_businesses(host)
    upper, lower = (tmp_path / "businesses" / f"{name}.toml" for name in ("Shop", "shop"))
    assert scan.ready == {}
    assert scan.refused["shop"] == (
        f"{lower}: names the same business as {upper} (names are compared without case): keep one",
    )
    assert scan.refused["Shop"][-1] == (
        f"{upper}: names the same business as {lower} (names are compared without case): keep one"
    )


def test_a_rescan_reuses_what_did_not_change_and_diffs_what_did(tmp_path: Path) -> None:
    host = load_host(
        make_host(tmp_path, {"a": business_text(1), "b": business_text(2), "c": business_text(3)})
    )
    directory = tmp_path / "businesses"
    age(*directory.iterdir())
    first = scan_businesses(host)
    again = scan_businesses(host, first)
    assert all(again.entries[name] is first.entries[name] for name in "abc")  # not even read
    assert diff_scans(first, again) == ScanChanges()
    assert not diff_scans(first, again)

    (directory / "a.toml").write_text(business_text(1), encoding="utf-8")  # touched, same text
    (directory / "b.toml").write_text(business_text(2).replace("[1002]", "[7]"))  # changed
    (directory / "c.toml").unlink()
    (directory / "d.toml").write_text(business_text(4), encoding="utf-8")
    (directory / "e.toml").write_text("[partner]\n", encoding="utf-8")
    later = scan_businesses(host, again)
    assert later.entries["a"].parsed is first.entries["a"].parsed  # read, hashed, not re-checked
    assert later.ready["b"].operators.chat_ids == [7]
    assert diff_scans(again, later) == ScanChanges(
        added=("d",), changed=("b",), removed=("c",), refused=("e",)
    )


def test_a_business_refused_for_a_duplicate_runs_again_once_the_other_goes(
    tmp_path: Path,
) -> None:
    token = business_secrets(1)["token"]
    businesses = {"shop": business_text(1), "cafe": business_text(2, token=token)}
    host = load_host(make_host(tmp_path, businesses))
    age(*(tmp_path / "businesses").iterdir())
    before = scan_businesses(host)
    assert before.ready == {}
    (tmp_path / "businesses" / "cafe.toml").unlink()
    after = scan_businesses(host, before)
    assert after.entries["shop"].parsed is before.entries["shop"].parsed  # reused as it was
    assert list(after.ready) == ["shop"]
    assert diff_scans(before, after) == ScanChanges(added=("shop",))


def test_a_file_written_just_before_a_scan_is_read_again_by_the_next(tmp_path: Path) -> None:
    # Its mtime may not move on a quick second write: the scan does not trust its stat yet.
    host = load_host(make_host(tmp_path, {"shop": business_text(1)}))
    first = scan_businesses(host)
    file = tmp_path / "businesses" / "shop.toml"
    stat = file.stat()
    file.write_text(business_text(1).replace("[1001]", "[1009]"), encoding="utf-8")
    os.utime(file, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert (file.stat().st_mtime_ns, file.stat().st_size) == (stat.st_mtime_ns, stat.st_size)
    assert scan_businesses(host, first).ready["shop"].operators.chat_ids == [1009]


def test_a_single_business_file_is_one_business_named_default(tmp_path: Path) -> None:
    file = tmp_path / "bot.toml"
    file.write_text(
        business_text(1) + '\n[server]\npublic_base_url = "https://bot.example.com"\n',
        encoding="utf-8",
    )
    host = load_host(file)
    scan = scan_businesses(host)
    assert scan.ready == {SINGLE_BUSINESS: host.single}


def test_a_directory_that_cannot_be_listed_is_an_error_not_a_removal(tmp_path: Path) -> None:
    host = load_host(make_host(tmp_path, {"shop": business_text(1)}))
    (tmp_path / "businesses" / "shop.toml").unlink()
    (tmp_path / "businesses").rmdir()
    with pytest.raises(ConfigError, match="cannot be listed"):
        scan_businesses(host)
