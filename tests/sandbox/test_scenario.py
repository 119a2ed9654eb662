from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.sandbox import ScenarioError, default_scenario, load_scenario, parse_scenario
from bot.sandbox.scenario import PLAN_REQUESTS_PER_MINUTE


def test_default_scenario_is_the_lagos_demo() -> None:
    scenario = default_scenario()
    caps = scenario.capabilities
    assert scenario.organization.plan == "pro"
    assert caps.currency == "NGN"
    assert caps.enabledServiceKinds == ["pickup_delivery", "errand"]
    assert caps.errand is not None and caps.errand.enabledModes == ["at_place", "link", "photo"]
    assert caps.errand.allowUnknownShopLocation and caps.errand.curatedLinks
    assert caps.paymentCollection.cashOnDelivery and caps.paymentCollection.onlineCheckout
    assert caps.pod.enabled and caps.requireDeliveryOtp and scenario.organization.otp_via_webhook
    assert caps.publicRequest.autoDispatch and not caps.publicRequest.requireApproval
    assert caps.publicRequest.pricingMode in ("fixed", "starting_from")
    assert caps.publicRequest.pricingAmountNgn > 0
    assert scenario.coverage.mode == "radius_from_hub" and scenario.coverage.radius_km == 40
    assert len(scenario.warehouses) == 2
    assert [k.scopes for k in scenario.api_keys] == [["deliveries:read", "deliveries:write"]]
    assert [(w.url, w.events) for w in scenario.webhooks] == [
        ("http://127.0.0.1:8080/hooks/partner", ["*"])
    ]
    assert {"127.0.0.1", "localhost"} <= set(scenario.images.allowlist)


def test_default_service_locations_cover_every_unit_mode() -> None:
    units = [location.unit for location in default_scenario().service_locations]
    kinds = {(u.mode, u.required, u.allowCustom, bool(u.values), bool(u.ranges)) for u in units}
    assert ("none", False, False, False, False) in kinds
    assert ("free_text", True, False, False, False) in kinds
    assert ("free_text", False, False, False, False) in kinds
    assert ("list", True, False, True, True) in kinds
    assert ("list", False, True, True, True) in kinds
    assert any(r.pad > 0 for u in units for r in u.ranges)


def test_default_riders_cover_each_fleet_situation() -> None:
    riders = {r.id: r for r in default_scenario().riders}
    assert riders["rdr_tunde"].presence == "available"
    assert riders["rdr_tunde"].location and riders["rdr_tunde"].location.age_minutes < 30
    assert riders["rdr_chiamaka"].presence == "on_delivery"
    assert riders["rdr_emeka"].location and riders["rdr_emeka"].location.age_minutes > 30
    assert riders["rdr_aisha"].fleet_link_status == "pending"


def test_the_model_defaults_are_strict() -> None:
    minimal = {
        "organization": {"id": "o", "name": "O", "slug": "o", "plan": "basic"},
        "capabilities": {
            "enabledServiceKinds": ["pickup_delivery"],
            "defaultServiceKind": "pickup_delivery",
        },
    }
    scenario = parse_scenario(minimal)
    assert not scenario.network.allow_http and not scenario.network.allow_loopback
    assert not scenario.capabilities.paymentCollection.cashOnDelivery
    assert not scenario.capabilities.pod.enabled
    assert scenario.max_warehouses == 1
    assert scenario.organization.requests_per_minute == 60


@pytest.mark.parametrize(("plan", "limit"), sorted(PLAN_REQUESTS_PER_MINUTE.items()))
def test_plan_rate_limits(scenario_data: dict[str, Any], plan: str, limit: int | None) -> None:
    scenario_data["organization"]["plan"] = plan
    assert parse_scenario(scenario_data).organization.requests_per_minute == limit


def test_explicit_rate_limit_overrides_the_plan(scenario_data: dict[str, Any]) -> None:
    scenario_data["organization"]["rate_limit_per_minute"] = 5
    assert parse_scenario(scenario_data).organization.requests_per_minute == 5


def _error(data: dict[str, Any]) -> str:
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(data, "test.toml")
    return str(caught.value)


def test_unknown_key_is_named(scenario_data: dict[str, Any]) -> None:
    scenario_data["capabilities"]["enabledServiceKind"] = ["errand"]
    assert "test.toml: capabilities.enabledServiceKind: Extra inputs" in _error(scenario_data)


def test_bad_value_is_named_with_its_index(scenario_data: dict[str, Any]) -> None:
    scenario_data["riders"][2]["presence"] = "asleep"
    assert "riders[2].presence" in _error(scenario_data)


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (
            lambda d: d["capabilities"].update(
                defaultServiceKind="errand", enabledServiceKinds=["pickup_delivery"]
            ),
            "defaultServiceKind must be one of enabledServiceKinds",
        ),
        (
            lambda d: d["capabilities"]["errand"].update(
                defaultMode="link", enabledModes=["photo"]
            ),
            "defaultMode must be one of enabledModes",
        ),
        (lambda d: d["coverage"].pop("hub"), "radius_from_hub needs hub and radius_km"),
        (lambda d: d["warehouses"][0].update(id="not-a-uuid"), "warehouse id must be a UUID"),
        (lambda d: d["riders"][1].update(id="rdr_tunde"), "riders: duplicate id 'rdr_tunde'"),
        (
            lambda d: d["api_keys"][0].update(secret="sk_test_abcdefghijklmnopqrstu"),
            "secret must be sk_live_",
        ),
        (
            lambda d: d["api_keys"][0].update(secret="sk_live_" + "\u00e9" * 16),
            "secret must be sk_live_",
        ),
        (
            lambda d: d["api_keys"][0].update(secret="sk_live_" + "\u0663" * 16),
            "secret must be sk_live_",
        ),
        (lambda d: d["webhooks"][0].update(secret="secret"), "secret must be whsec_"),
        (lambda d: d["webhooks"][0].update(events=["delivery.exploded"]), "events must be"),
        (lambda d: d["service_locations"][0].update(coords={"lng": 0, "lat": 0}), "zero pin"),
        (
            lambda d: d["service_locations"][3]["unit"]["ranges"][0].update(start=9, end=1),
            "end must not be smaller than start",
        ),
    ],
)
def test_inconsistent_settings_are_refused(
    scenario_data: dict[str, Any], edit: Any, expected: str
) -> None:
    edit(scenario_data)
    assert expected in _error(scenario_data)


def test_webhook_urls_follow_the_network_switches(scenario_data: dict[str, Any]) -> None:
    scenario_data["network"] = {"allow_http": False, "allow_loopback": True}
    assert "must be https" in _error(scenario_data)
    scenario_data["network"] = {"allow_http": True, "allow_loopback": False}
    assert "loopback" in _error(scenario_data)
    scenario_data["network"] = {"allow_http": True, "allow_loopback": True}
    scenario_data["webhooks"][0]["url"] = "http://bot.example.com/hooks"
    assert "plain http only to loopback" in _error(scenario_data)
    scenario_data["webhooks"][0]["url"] = "https://10.0.0.5/hooks"
    assert "private" in _error(scenario_data)
    scenario_data["webhooks"][0]["url"] = "https://bot.example.com/hooks"
    scenario_data["network"] = {}
    assert parse_scenario(scenario_data).webhooks[0].url == "https://bot.example.com/hooks"


def test_load_scenario_reads_a_file(tmp_path: Path) -> None:
    path = tmp_path / "tiny.toml"
    path.write_text(
        'name = "tiny"\n'
        '[organization]\nid = "o"\nname = "O"\nslug = "o"\nplan = "scale"\n'
        '[capabilities]\nenabledServiceKinds = ["errand"]\ndefaultServiceKind = "errand"\n'
        '[capabilities.errand]\nenabledModes = ["photo"]\ndefaultMode = "photo"\n',
        encoding="utf-8",
    )
    scenario = load_scenario(path)
    assert scenario.name == "tiny" and scenario.organization.requests_per_minute is None


def test_load_scenario_reports_bad_toml_and_missing_files(tmp_path: Path) -> None:
    broken = tmp_path / "broken.toml"
    broken.write_text("[organization\n", encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"broken\.toml: not valid TOML"):
        load_scenario(broken)
    with pytest.raises(ScenarioError, match="cannot read"):
        load_scenario(tmp_path / "missing.toml")


def test_missing_required_table_is_named(tmp_path: Path) -> None:
    path = tmp_path / "empty.toml"
    path.write_text('name = "empty"\n', encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"empty\.toml: organization: Field required"):
        load_scenario(path)


def test_repr_hides_secrets() -> None:
    scenario = default_scenario()
    text = repr(scenario)
    assert scenario.api_keys[0].secret not in text
    assert scenario.webhooks[0].secret not in text
