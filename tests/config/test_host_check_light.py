"""``check-config`` on a host file stays as light as on one business's file: the configuration's
models for the host and every business file, nothing of the flows or the running bot."""

from __future__ import annotations

from pathlib import Path

from tests.config.host_texts import business_text, make_host
from tests.test_startup_imports import THE_FLOWS, THE_RUNNING_BOT, loaded, present


def test_checking_a_host_and_its_businesses_loads_only_the_configuration(tmp_path: Path) -> None:
    host = make_host(tmp_path, {"shop": business_text(1), "cafe": business_text(2)})
    code, modules = loaded(["check-config", str(host)])
    assert code == 0
    assert "bot.config.business_scan" in modules  # the probe did check the businesses
    assert present(modules, THE_FLOWS + THE_RUNNING_BOT) == []
