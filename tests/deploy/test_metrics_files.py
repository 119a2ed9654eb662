"""The shipped alerting rules, checked and unit-tested by Prometheus's own ``promtool``.

``deploy/prometheus-alerts.yml`` must pass ``promtool check rules``, fire as
``prometheus_alerts_test.yml`` expects (``promtool test rules``: inbox lag, failing creates,
429s, stuck follow-ups, one alert for several instances), and be what docs/operators.md shows.
The exposition itself is checked with ``promtool check metrics`` where a running bot serves it
(tests/e2e/test_metrics_and_logs.py).
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from tests.deploy.conftest import DEPLOY, REPO, replaced, system_tool

RULES = DEPLOY / "prometheus-alerts.yml"
RULE_TESTS = Path(__file__).with_name("prometheus_alerts_test.yml")


def promtool(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(  # noqa: S603 - a fixed argument list, no shell
        [system_tool("promtool"), *map(str, args)], capture_output=True, text=True, timeout=60
    )


def test_the_alerting_rules_pass_promtool_check_rules() -> None:
    checked = promtool("check", "rules", RULES)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "SUCCESS: 5 rules found" in checked.stdout


def test_the_alerts_fire_when_and_only_when_they_should(tmp_path: Path) -> None:
    tests = replaced(RULE_TESTS.read_text(encoding="utf-8"), "RULES", str(RULES), count=1)
    (tmp_path / "alerts_test.yml").write_text(tests, encoding="utf-8")
    tested = promtool("test", "rules", tmp_path / "alerts_test.yml")
    assert tested.returncode == 0, tested.stdout + tested.stderr


def test_the_operators_guide_shows_the_shipped_rules() -> None:
    guide = (REPO / "docs" / "operators.md").read_text(encoding="utf-8")
    blocks = re.findall(
        r"```yaml\n(# Prometheus alerting rules for deliverybot.*?)```", guide, re.S
    )
    assert blocks == [RULES.read_text(encoding="utf-8")]
