"""The Partner API's refusals in plain words, for operators (``explain``), and as the audit
trail keeps them (``refused_outcome``): one copy for every door staff act through (Telegram's
operator commands, the web console)."""

from __future__ import annotations

from bot.partner import errors
from conversations.texts.catalogue import Catalogue
from conversations.texts.deliveries_texts import short_ref


def explain(
    words: Catalogue,
    error: errors.PartnerError,
    delivery_id: str | None = None,
    rider_id: str | None = None,
) -> str:
    """A Partner API refusal in plain words (``words``'), for operators."""
    if delivery_id:
        delivery = words.say("ops.the_delivery_ref", ref=short_ref(delivery_id))
    else:
        delivery = words.say("ops.the_delivery")
    if isinstance(error, errors.FeeRequired):
        return words.say("ops.fee_required", delivery=delivery)
    if isinstance(error, errors.RiderNotFound):
        if rider_id:
            return words.say("ops.rider_not_found", rider=rider_id)
        return words.say("ops.that_rider_not_found")
    if isinstance(error, errors.RiderNotActive):
        if rider_id:
            return words.say("ops.rider_not_active", rider=rider_id)
        return words.say("ops.that_rider_not_active")
    if isinstance(error, errors.AssignNotAllowed):
        return words.say("ops.assign_not_allowed", delivery=delivery)
    if isinstance(error, errors.UnassignNotAllowed):
        return words.say("ops.unassign_not_allowed", delivery=delivery)
    if isinstance(error, errors.CancelNotAllowed):
        return words.say("ops.cancel_not_allowed", delivery=delivery)
    if isinstance(error, errors.NotFound):
        if delivery_id:
            return words.say("ops.no_such_delivery_named", typed=_echo(delivery_id))
        return words.say("ops.no_such_delivery")
    return _general(words, error)


def _general(words: Catalogue, error: errors.PartnerError) -> str:
    # Operators may read the service's own words: they fix what it says.
    if isinstance(error, errors.RateLimited):
        if error.retry_after:
            return words.say("ops.slow_down_in", seconds=f"{error.retry_after:.0f}")
        return words.say("ops.slow_down")
    if isinstance(error, errors.InvalidFields):
        problems = [f"{field} {'; '.join(texts)}" for field, texts in error.field_errors.items()]
        return words.say(
            "ops.not_accepted", problems="; ".join(problems) if problems else error.message
        )
    if isinstance(error, errors.AuthenticationError | errors.ForbiddenError):
        return words.say("ops.key_refused", code=error.code or error.status)
    if isinstance(error, errors.ServerError | errors.PartnerUnreachable):
        return words.say("ops.api_failed", code=error.code or error.message)
    return words.say("ops.api_refused", message=error.message)


def refused_outcome(error: errors.PartnerError) -> str:
    """A refusal as the audit trail keeps it (``refused: <code>``): the API's code, never its
    message's details."""
    return f"refused: {error.code or error.status}"


def _echo(typed: str) -> str:
    return typed if len(typed) <= 60 else typed[:59] + "…"
