"""A faithful simulator of the Delivery Partner API, for the demo, the tests and integrators.

``Sandbox(scenario)`` is an ASGI app that enforces every rule of the spec a client can break,
sends signed webhooks, and lets tests play staff and riders. ``docs/sandbox.md`` explains
scenarios and lists every choice the sandbox makes where the spec says "not shown".
"""

from bot.sandbox.error_envelope import ApiError
from bot.sandbox.sandbox import IN_PROCESS_BASE_URL, Sandbox
from bot.sandbox.scenario import (
    Scenario,
    ScenarioError,
    default_scenario,
    default_scenario_data,
    load_scenario,
    parse_scenario,
)
from bot.sandbox.webhooks import RETRY_DELAYS_SECONDS, WebhookAttempt

__all__ = [
    "IN_PROCESS_BASE_URL",
    "RETRY_DELAYS_SECONDS",
    "ApiError",
    "Sandbox",
    "Scenario",
    "ScenarioError",
    "WebhookAttempt",
    "default_scenario",
    "default_scenario_data",
    "load_scenario",
    "parse_scenario",
]
