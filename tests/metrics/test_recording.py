"""A business's ``Metrics`` and their helpers: bounded labels, nothing recorded while off, an
update failed by its error handler."""

from __future__ import annotations

import json
from types import SimpleNamespace

import httpx
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from bot.chat_ref import ChatRef
from bot.metrics.business_metrics import NO_METRICS
from bot.metrics.partner_calls import partner_operation
from bot.metrics.prometheus_metrics import PrometheusMetrics
from bot.metrics.update_kinds import kind_of
from bot.ordering.counted_creator import outcome_label
from bot.relay.channel_protocol import ChatUnreachable, SendFailed
from bot.relay.relay_sends import measured_send
from bot.telegram.application import ChatOrderedProcessor
from conversations.outcome import Refused
from tests.metrics.samples import sample


@pytest.mark.parametrize(
    ("method", "path", "operation"),
    [
        ("POST", "/api/v1/deliveries", "POST /deliveries"),
        ("GET", "/api/v1/deliveries/dl_9f2c4a", "GET /deliveries/{id}"),
        ("POST", "/api/v1/deliveries/dl_9f2c4a/cancel", "POST /deliveries/{id}/cancel"),
        ("GET", "/api/v1/capabilities", "GET /capabilities"),
        ("get", "/api/v1/riders?near=6.5,3.3", "GET /riders"),
        (
            "POST",
            "/api/v1/deliveries/abcdefghijklmnopqrstuvwxyz/assign",
            "POST /deliveries/{id}/assign",
        ),
    ],
)
def test_a_partner_operation_names_the_path_template_never_an_id(
    method: str, path: str, operation: str
) -> None:
    assert partner_operation(method, path) == operation


class _Message:
    def __init__(self, **fields: object) -> None:
        self.text = fields.get("text")
        self.photo = fields.get("photo")
        self.contact = fields.get("contact")
        self.location = fields.get("location")


class _Update:
    def __init__(self, message: _Message | None = None, callback_query: object = None) -> None:
        self.message = message
        self.callback_query = callback_query


@pytest.mark.parametrize(
    ("update", "kind"),
    [
        (_Update(_Message(text="/new")), "command"),
        (_Update(_Message(text="12 Herbert Macaulay Way")), "text"),
        (_Update(_Message(photo=[object()])), "photo"),
        (_Update(_Message(contact=object())), "contact"),
        (_Update(_Message(location=object())), "location"),
        (_Update(callback_query=object()), "callback"),
        (_Update(_Message()), "other"),
        (_Update(), "other"),
    ],
)
def test_an_update_kind_is_one_of_a_few_words(update: _Update, kind: str) -> None:
    assert kind_of(update) == kind


def test_a_create_outcome_is_labelled_by_what_it_came_to() -> None:
    assert outcome_label(Refused(reason="duplicate_held")) == "held"
    assert outcome_label(Refused(reason="unavailable", outcome_unknown=True)) == "unconfirmed"
    assert outcome_label(Refused(reason="validation", reask=("receiverPhone",))) == "refused"


def test_nothing_is_recorded_while_metrics_are_off() -> None:
    NO_METRICS.count_create("errand", "created")
    with NO_METRICS.measured_update("telegram", "text") as measure:
        measure.failed()
    NO_METRICS.count_audit_event("block", "done")
    assert NO_METRICS.exposition() == b""


def test_an_update_counts_as_failed_when_it_raises_or_its_error_handler_says_so(
    metrics: PrometheusMetrics,
) -> None:
    labels = {"channel": "telegram", "kind": "text"}
    handled = sample(metrics, "deliverybot_updates_total", **labels, outcome="handled")
    failed = sample(metrics, "deliverybot_updates_total", **labels, outcome="failed")
    timed = sample(metrics, "deliverybot_turn_seconds_count", channel="telegram")

    with metrics.measured_update("telegram", "text"):
        pass
    with metrics.measured_update("telegram", "text") as measure:
        measure.failed()  # PTB's error handler, inside the update's handling
    with pytest.raises(RuntimeError), metrics.measured_update("telegram", "text"):
        raise RuntimeError("boom")

    assert sample(metrics, "deliverybot_updates_total", **labels, outcome="handled") == handled + 1
    assert sample(metrics, "deliverybot_updates_total", **labels, outcome="failed") == failed + 2
    assert sample(metrics, "deliverybot_turn_seconds_count", channel="telegram") == timed + 3


async def test_the_error_handler_marks_only_the_update_being_processed_failed(
    metrics: PrometheusMetrics,
) -> None:
    """PTB hands a handler's exception to the error handler, not back to the processor: the
    handler's ``update_failed`` finds the measure by the update's id."""
    processor = ChatOrderedProcessor(metrics=metrics)
    failing, fine = SimpleNamespace(update_id=41), SimpleNamespace(update_id=42)

    async def handlers_failing() -> None:
        processor.update_failed(failing)  # what the error handler does

    async def handlers_fine() -> None:
        return None

    await processor.do_process_update(failing, handlers_failing())
    await processor.do_process_update(fine, handlers_fine())
    processor.update_failed(fine)  # no longer processed: nothing to mark

    labels = {"channel": "telegram", "kind": "other"}
    assert sample(metrics, "deliverybot_updates_total", **labels, outcome="failed") == 1
    assert sample(metrics, "deliverybot_updates_total", **labels, outcome="handled") == 1


async def test_an_endpoint_counts_by_the_class_of_its_answer(metrics: PrometheusMetrics) -> None:
    async def answer(request: Request) -> Response:
        return JSONResponse({}, status_code=int(request.query_params["status"]))

    app = Starlette(routes=[Route("/x", metrics.measured_endpoint("api", "answer", answer))])
    updates = "deliverybot_updates_total"
    before = {
        outcome: sample(metrics, updates, channel="api", kind="answer", outcome=outcome)
        for outcome in ("ok", "refused", "rate_limited", "failed")
    }
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
        for status in (200, 201, 404, 429, 503):
            await c.get("/x", params={"status": status})

    after = {
        outcome: sample(metrics, updates, channel="api", kind="answer", outcome=outcome)
        for outcome in before
    }
    assert {k: after[k] - before[k] for k in before} == {
        "ok": 2,
        "refused": 1,
        "rate_limited": 1,
        "failed": 1,
    }


async def test_a_relayed_send_is_timed_and_its_failures_counted_by_reason(
    metrics: PrometheusMetrics,
) -> None:
    chat = ChatRef("telegram", 5)
    reasons = ("unreachable", "send_failed", "error")
    failures = "deliverybot_relay_failures_total"
    before = [sample(metrics, failures, channel="telegram", reason=r) for r in reasons]
    sent = sample(metrics, "deliverybot_relay_send_seconds_count", channel="telegram")

    async def ok(chat: ChatRef, text: str) -> int | None:
        return 7

    assert await measured_send(metrics, ok, chat, "hello") == 7
    for error in (ChatUnreachable(), SendFailed("later"), OSError("down")):

        async def failing(chat: ChatRef, text: str, error: Exception = error) -> int | None:
            raise error

        with pytest.raises(type(error)):
            await measured_send(metrics, failing, chat, "hello")

    after = [sample(metrics, failures, channel="telegram", reason=r) for r in reasons]
    assert [a - b for a, b in zip(after, before, strict=True)] == [1, 1, 1]
    assert sample(metrics, "deliverybot_relay_send_seconds_count", channel="telegram") == sent + 1


def test_settled_later_reads_the_flow_from_the_kept_order(metrics: PrometheusMetrics) -> None:
    creates = "deliverybot_creates_total"
    before = sample(metrics, creates, flow="errand", outcome="settled_later")
    metrics.count_settled_later(json.dumps({"flow": "errand", "answers": {}}))
    metrics.count_settled_later("not json")
    assert sample(metrics, creates, flow="errand", outcome="settled_later") == before + 1
    assert sample(metrics, creates, flow="unknown", outcome="settled_later") >= 1


def test_the_build_info_says_the_version_once_the_metrics_are_built() -> None:
    metrics = PrometheusMetrics("1.2.3")
    assert sample(metrics, "deliverybot_build_info", version="1.2.3") == 1
    assert b'deliverybot_build_info{version="1.2.3"} 1.0' in metrics.exposition()
