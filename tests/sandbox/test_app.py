"""Routing edges: every answer, even to a wrong URL or method, is the error envelope."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from bot.sandbox import Sandbox
from bot.sandbox import asgi_app as app_module


async def test_unknown_route_is_a_404_envelope(api: httpx.AsyncClient) -> None:
    for url in ("/nope", "https://sandbox.invalid/", "https://sandbox.invalid/api/v2/capabilities"):
        response = await api.get(url)
        assert response.status_code == 404
        assert response.json() == {
            "ok": False,
            "error": response.json()["error"],
            "code": "not_found",
        }


async def test_wrong_method_is_a_405_envelope(api: httpx.AsyncClient) -> None:
    response = await api.delete("/capabilities")
    assert response.status_code == 405
    assert response.json()["code"] == "method_not_allowed"
    assert "GET" in response.headers["Allow"]


async def test_catalogue_endpoints(api: httpx.AsyncClient) -> None:
    caps = (await api.get("/capabilities")).json()["capabilities"]
    assert caps["organization"] == {
        "id": "org_swift_lagos",
        "name": "Swift Lagos Deliveries",
        "slug": "swift-lagos",
    }
    assert caps["plan"] == "pro" and caps["features"] == {
        "serviceLocations": True,
        "maxWarehouses": None,
    }
    warehouses = (await api.get("/warehouses")).json()["warehouses"]
    assert [w["name"] for w in warehouses] == ["Ikeja Hub", "Lekki Depot"]
    assert set(warehouses[0]) == {"id", "name", "address", "latitude", "longitude"}
    locations = (await api.get("/service-locations")).json()["serviceLocations"]
    assert len(locations) == 6
    moremi = next(loc for loc in locations if loc["id"] == "loc_moremi_hall")
    assert moremi["coords"] == {"lng": 3.399, "lat": 6.5155}
    assert moremi["unit"]["ranges"][0] == {
        "prefix": "A",
        "suffix": "",
        "start": 1,
        "end": 40,
        "pad": 3,
    }


async def test_service_locations_empty_without_the_feature(
    make_sandbox: Any, connect: Any, scenario_data: dict[str, Any]
) -> None:
    scenario_data["capabilities"]["features"]["serviceLocations"] = False
    api = connect(make_sandbox(scenario_data))
    assert (await api.get("/service-locations")).json() == {"ok": True, "serviceLocations": []}


async def test_openapi_document_is_served_from_docs(
    api: httpx.AsyncClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    document = tmp_path / "openapi.json"
    document.write_text('{"openapi": "3.1.0"}', encoding="utf-8")
    monkeypatch.setattr(app_module, "OPENAPI_PATH", document)
    response = await api.get("/openapi.json", headers={"Authorization": ""})
    assert response.status_code == 200 and response.json() == {"openapi": "3.1.0"}
    monkeypatch.setattr(app_module, "OPENAPI_PATH", tmp_path / "missing.json")
    missing = await api.get("/openapi.json")
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"


def test_openapi_path_points_at_the_repository_docs() -> None:
    expected = Path(__file__).resolve().parents[2] / "docs" / "openapi.json"
    assert expected == app_module.OPENAPI_PATH.resolve()


async def test_in_process_base_url(sandbox: Sandbox) -> None:
    assert sandbox.base_url == "https://sandbox.invalid/api/v1"
