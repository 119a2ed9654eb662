"""The Partner API's refusals in plain words, for operators (``explain``)."""

from __future__ import annotations

from bot.partner import errors
from conversations.texts.deliveries_texts import short_ref


def explain(
    error: errors.PartnerError, delivery_id: str | None = None, rider_id: str | None = None
) -> str:
    """A Partner API refusal in plain words, for operators."""
    ref = f"Delivery {short_ref(delivery_id)}" if delivery_id else "The delivery"
    rider = f"rider {rider_id}" if rider_id else "that rider"
    if isinstance(error, errors.FeeRequired):
        return f"{ref} has no delivery fee yet (it is awaiting a price). Set the fee first."
    if isinstance(error, errors.RiderNotFound):
        return f"There is no {rider} on this fleet. /riders <delivery ref> lists the riders."
    if isinstance(error, errors.RiderNotActive):
        return f"The {rider} has not accepted the fleet invite yet, so cannot be assigned."
    if isinstance(error, errors.AssignNotAllowed):
        return f"The pickup of {ref.lower()} has started, so its rider can no longer change."
    if isinstance(error, errors.UnassignNotAllowed):
        return (
            f"{ref} has no rider to take off: a rider can only be unassigned while the "
            "delivery is matched (assigned, not picked up yet)."
        )
    if isinstance(error, errors.CancelNotAllowed):
        return f"{ref} can no longer be cancelled."
    if isinstance(error, errors.NotFound):
        return f"There is no delivery {_echo(delivery_id)}." if delivery_id else "No such delivery."
    return _general(error)


def _general(error: errors.PartnerError) -> str:
    if isinstance(error, errors.RateLimited):
        wait = f" in {error.retry_after:.0f} seconds" if error.retry_after else " in a minute"
        return f"The Partner API asks the bot to slow down; try again{wait}."
    if isinstance(error, errors.ValidationError):
        problems = [f"{field} {'; '.join(texts)}" for field, texts in error.field_errors.items()]
        return "Not accepted: " + ("; ".join(problems) if problems else error.message)
    if isinstance(error, errors.AuthenticationError | errors.ForbiddenError):
        return f"The Partner API refused the bot's key ({error.code or error.status}): check it."
    if isinstance(error, errors.ServerError | errors.TransportError):
        return f"The Partner API failed ({error.code or error.message}); try again shortly."
    return f"The Partner API refused: {error.message}"


def _echo(typed: str) -> str:
    return typed if len(typed) <= 60 else typed[:59] + "…"
