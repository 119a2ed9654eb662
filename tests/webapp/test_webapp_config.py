"""``[webapp]``: off by default; when on, where the page is, or why the button is off."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import Config, ConfigError, load_config
from bot.config.webapp_section import OSM_ATTRIBUTION, OSM_TILES

TOKEN = "123456789:AAHsecretTOKENvalue0123456789abcdefg"


def _config(
    tmp_path: Path, webapp: str, *, public: str | None = "https://bot.example.com"
) -> Config:
    telegram = f'token = "{TOKEN}"\n' + (f'public_base_url = "{public}"\n' if public else "")
    text = (
        '[partner]\nbase_url = "https://app.example.com/api/v1"\napi_key = "sk_live_x0123456789"\n'
        f"[telegram]\n{telegram}[operators]\nchat_ids = [42]\n{webapp}\n"
    )
    file = tmp_path / "config.toml"
    file.write_text(text, encoding="utf-8")
    return load_config(file)


def test_off_by_default_with_openstreetmap_tiles(tmp_path: Path) -> None:
    config = _config(tmp_path, "")
    assert not config.webapp.enabled and config.webapp_url() is None
    assert (config.webapp.tiles.url_template, config.webapp.tiles.attribution) == (
        OSM_TILES,
        OSM_ATTRIBUTION,
    )
    assert config.webapp.init_data_max_age == 3600
    assert not any("[webapp]" in line for line in config.warnings())


def test_on_with_a_public_https_host(tmp_path: Path) -> None:
    config = _config(tmp_path, "[webapp]\nenabled = true")
    assert config.webapp_url() == "https://bot.example.com/webapp"
    assert not any("[webapp]" in line for line in config.warnings())


@pytest.mark.parametrize(
    ("public", "why"),
    [
        (None, "needs [server] public_base_url"),
        ("http://127.0.0.1:8080", "Mini Apps over https only"),
    ],
)
def test_check_config_says_why_the_button_is_off(
    tmp_path: Path, public: str | None, why: str
) -> None:
    config = _config(tmp_path, "[webapp]\nenabled = true", public=public)
    assert config.webapp_url() is None
    (line,) = [line for line in config.warnings() if line.startswith("[webapp]")]
    assert "the map button is off" in line and why in line


def test_tiles_must_be_a_template_on_https(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as raised:
        _config(tmp_path, '[webapp.tiles]\nurl_template = "http://tiles.example/{z}/{x}.png"')
    assert any("[webapp.tiles] url_template" in problem for problem in raised.value.problems)
