"""The refusal table: one decision per reason, followed by the engine as it stands."""

from __future__ import annotations

import pytest

from bot.partner.models import PAYMENT_FIELDS, PLACE_FIELDS
from conversations.outcome import Refused
from conversations.refusals import DECISIONS, TABLE, decide, table_markdown
from conversations.texts import dialogue
from tests.support.words import SHIPPED


def test_every_reason_has_exactly_one_row():
    reasons = [row.reason for row in TABLE]
    assert len(reasons) == len(set(reasons)) == len(DECISIONS)
    assert set(reasons) == set(Refused.model_fields["reason"].annotation.__args__)


@pytest.mark.parametrize(
    ("reason", "kwargs", "reask", "refresh", "keep_key", "alert"),
    [
        ("validation", {"field_errors": {"receiverPhone": ["bad"]}}, ("receiverPhone",),
         False, False, False),
        ("validation", {"field_errors": {"deliveryMode": ["off"], "x.y": ["?"]}},
         ("deliveryMode", "x.y"), True, False, False),  # a capability field: refresh
        ("validation", {"field_errors": {"podAmount[0]": ["?"]}}, ("podAmount[0]",),
         True, False, False),
        ("validation", {"message": "Something is off"}, (), False, False, False),
        ("payment", {"field_errors": {"podAmount": ["no"]}}, tuple(sorted(PAYMENT_FIELDS)),
         True, False, False),
        ("service_disabled", {}, ("serviceKind",), True, False, False),
        ("coverage", {}, PLACE_FIELDS, True, False, False),
        ("coverage", {"field_errors": {"deliveryCoords.lat": ["out"], "senderName": ["?"]}},
         ("deliveryCoords.lat",), True, False, False),
        ("image_host", {}, (), False, False, True),
        ("photo_link", {"message": "host not allowlisted"}, ("packageImages",), False, False,
         False),
        ("photos_expired", {}, ("packageImages",), False, False, False),
        ("unavailable", {}, (), False, True, False),
        ("rate_limited", {"retry_after": 3.0}, (), False, True, False),
        ("other", {"message": "key revoked"}, (), True, False, True),
        ("duplicate_held", {}, (), False, True, False),
    ],
)  # fmt: skip
def test_each_reason_decides_what_is_asked_refreshed_kept_and_told(
    reason, kwargs, reask, refresh, keep_key, alert
):
    refused = decide(reason, **kwargs)
    assert refused.reason == reason
    assert refused.reask == reask
    assert (refused.refresh, refused.keep_key, refused.alert_operators) == (
        refresh,
        keep_key,
        alert,
    )
    assert refused.message == kwargs.get("message", "")
    assert refused.field_errors == kwargs.get("field_errors", {})
    assert (dialogue.operator_alert(SHIPPED, refused) is not None) is alert


def test_only_a_lost_answer_leaves_the_outcome_unknown():
    unknown = [row.reason for row in TABLE if decide(row.reason).outcome_unknown]
    assert unknown == ["unavailable"]
    assert decide("unavailable").keep_key  # the background retries send the same key


def test_only_a_rate_limit_carries_a_wait():
    assert decide("rate_limited", retry_after=12.5).retry_after == 12.5
    assert decide("unavailable", retry_after=12.5).retry_after is None


def test_the_service_s_words_reach_operators_never_the_customer_as_a_whole():
    image = decide("image_host", message="host not allowlisted")
    assert dialogue.operator_alert(SHIPPED, image) == dialogue.IMAGE_HOST_ALERT.render(SHIPPED)
    other = decide("other", message="key revoked")
    assert "key revoked" in dialogue.operator_alert(SHIPPED, other)
    payment = decide("payment", message="cash is off")
    assert "cash is off" not in dialogue.refusal(SHIPPED, payment)
    assert dialogue.operator_alert(SHIPPED, payment) is None


def test_the_markdown_table_has_a_row_per_reason():
    lines = table_markdown().splitlines()
    assert len(lines) == 2 + len(TABLE)
    for row, line in zip(TABLE, lines[2:], strict=True):
        assert f"| `{row.reason}` |" in line
        assert line.startswith(f"| {row.answer} |")
