"""Creating the delivery, and what to do when the service refuses it.

Each refusal becomes a ``Recovery``: what to tell the customer, whether the capabilities must
be re-fetched (the spec asks for it after service, payment and coverage rejections), which
request fields must be asked again, and whether the idempotency key may be reused. The key is
kept only when the same body will be re-sent (the service was unavailable or rate limited), so
a retry can never create the order twice; after a real refusal the draft changes, and a new key
goes with the new body.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pydantic import ValidationError as ModelError

from bot.partner.models import CreateDeliveryRequest
from conversations.outcome import CreateOutcome, Rejected, explain_created
from conversations.services import ServiceUnavailable

if TYPE_CHECKING:
    from conversations.run import Run

# Request fields whose rejection means the allow-list the bot holds may be out of date.
CAPABILITY_FIELDS = frozenset(
    {
        "serviceKind",
        "deliveryMode",
        "warehouseId",
        "customerCollectionMethod",
        "isPODEnabled",
        "podAmount",
        "errandMode",
        "pickupLocationUnknown",
    }
)
PLACE_FIELDS = ("pickupAddress", "pickupCoords", "deliveryAddress", "deliveryCoords")

IMAGE_HOST_ALERT = (
    "The delivery service refused the package photos (image_host_rejected). The bot's media "
    "host must be on the image-host allowlist in the dashboard (Settings, API & Webhooks), "
    "and the photos must be reachable over https."
)


@dataclass
class Recovery:
    """The engine's instructions after a refused create."""

    messages: list[str]
    refresh: bool = False
    reask_fields: list[str] = field(default_factory=list)
    reask_service_kind: bool = False
    keep_key: bool = False
    operator_alert: str | None = None
    retry_after: float | None = None


def recover(rejected: Rejected) -> Recovery:
    """The recovery for one refusal."""
    said = f" ({rejected.message})" if rejected.message else ""
    match rejected.reason:
        case "validation":
            return _after_validation(rejected)
        case "service_disabled":
            return Recovery(
                ["Sorry, the business no longer offers this service here."],
                refresh=True,
                reask_service_kind=True,
            )
        case "payment":
            # The service's own words here are often its generic validation text ("Some fields
            # are missing or invalid."); the field lines that follow say what was wrong.
            return Recovery(
                ["That payment method can't be used for this order any more. Please choose again."],
                refresh=True,
                reask_fields=["customerCollectionMethod", "isPODEnabled", "podAmount"],
            )
        case "coverage":
            fields = [f for f in rejected.field_errors if f.split(".")[0] in PLACE_FIELDS]
            return Recovery(
                [
                    "The delivery service does not cover one of these places"
                    f"{said}. Please give the places again."
                ],
                refresh=True,
                reask_fields=fields or list(PLACE_FIELDS),
            )
        case "image_host":
            return Recovery(
                [
                    "The delivery service could not accept the photos. This is a setting the "
                    "business must fix; they have been told. Your order is kept here."
                ],
                operator_alert=IMAGE_HOST_ALERT,
            )
        case "unavailable":
            return Recovery(
                [
                    "The delivery service is not answering right now. Your order is saved: "
                    "please try again in a little while."
                ],
                keep_key=True,
            )
        case "rate_limited":
            wait = rejected.retry_after
            when = f"about {_seconds(wait)}" if wait else "a moment"
            return Recovery(
                [f"The delivery service is busy. Please wait {when}, then send it again."],
                keep_key=True,
                retry_after=wait,
            )
        case _:
            return Recovery(
                [f"The delivery service refused this order{said}. Nothing was created."],
                refresh=True,
            )


def _seconds(wait: float) -> str:
    whole = max(1, round(wait))
    return "1 second" if whole == 1 else f"{whole} seconds"


def _after_validation(rejected: Rejected) -> Recovery:
    names = list(rejected.field_errors)
    refresh = any(name.split(".")[0] in CAPABILITY_FIELDS for name in names)
    if not names:
        said = f": {rejected.message}" if rejected.message else "."
        return Recovery([f"The delivery service could not accept this order{said}"])
    return Recovery(
        ["The delivery service could not accept some details. Please fix them:"],
        refresh=refresh,
        reask_fields=names,
        reask_service_kind=any(name.split(".")[0] == "serviceKind" for name in names),
    )


def rejection_from_model_error(error: ModelError) -> Rejected:
    """A request the flow built fails our own model: treat it like the service's validation."""
    field_errors: dict[str, list[str]] = {}
    for item in error.errors():
        name = ".".join(str(part) for part in item["loc"])
        field_errors.setdefault(name, []).append(str(item["msg"]))
    return Rejected(reason="validation", message="", field_errors=field_errors)


# --- applied to a turn ---------------------------------------------------------------------------


async def submit(run: Run) -> None:
    """Build the request from the draft and create it (the summary was confirmed)."""
    flow, ctx = run.flow, run.ctx()
    problem = flow.guard(ctx) if flow.guard else None
    if problem:
        run.end(problem)
        return
    if run.drop_outdated_answers(ctx) or not run.draft_complete(ctx):
        # The allow-list changed since the summary was shown: ask what it now needs.
        run.work.editing = True
        await run.move(flow.start)
        return
    assert flow.build is not None, "a flow that creates has a build (checked when declared)"
    try:
        draft = flow.build(ctx)
    except ModelError as error:
        await apply_rejection(run, rejection_from_model_error(error))
        return
    if run.work.idempotency_key is None:
        run.work.idempotency_key = run.new_idempotency_key()
        if run.services.checkpoint is not None:
            await run.services.checkpoint(run.work)
    request = CreateDeliveryRequest.model_validate(
        {**draft.model_dump(exclude_none=True), "idempotencyKey": run.work.idempotency_key}
    )
    outcome: CreateOutcome
    try:
        outcome = await run.services.creator.create(request)
    except ServiceUnavailable:
        outcome = Rejected(reason="unavailable")
    if isinstance(outcome, Rejected):
        await apply_rejection(run, outcome)
        return
    run.work.status = "created"
    run.work.step = None
    run.work.delivery_id = outcome.delivery.id
    run.work.delivery_status = outcome.delivery.status
    run.work.tracking_url = outcome.delivery.tracking_url
    run.delivery = outcome.delivery
    run.request = request
    run.messages.extend(explain_created(outcome.delivery))
    run.prompt = None


async def apply_rejection(run: Run, rejected: Rejected) -> None:
    """Tell the customer, refresh what must be, and ask again what the refusal concerns."""
    plan = recover(rejected)
    run.messages.extend(plan.messages)
    run.operator_alert = plan.operator_alert
    run.retry_after = plan.retry_after
    if not plan.keep_key:
        run.work.idempotency_key = None
    if plan.refresh:
        await run.load(fresh=True)
    summary = run.flow.summary_step
    assert summary is not None, "a flow that creates has a summary"
    ctx = run.ctx()
    steps: list[str] = []
    for name in plan.reask_fields:
        found = run.flow.steps_for_field(name, ctx)
        steps += [step for step in found if step not in steps]
        title = run.flow.step(found[0]).title if found else (name or "Order")
        run.messages += [f"• {title}: {text}" for text in rejected.field_errors.get(name, [])]
    if plan.reask_service_kind and await _reask_service_kind(run):
        return
    problem = run.flow.guard(ctx) if run.flow.guard else None
    if problem:
        run.end(problem)
        return
    if not steps:
        await run.move(summary.name, revisit=True)
        return
    for name in steps:
        run.clear(name)
    run.remember_visit(summary.name)
    run.work.editing = True
    await run.move(run.flow.start)


async def _reask_service_kind(run: Run) -> bool:
    """Back to the step that chose the service kind (in the flow that handed off), if any."""
    for visit in reversed(run.work.history):
        flow = run.registry.get(visit.flow)
        if flow is None or visit.step not in flow:
            continue
        if "serviceKind" in flow.step(visit.step).fields:
            summary = run.flow.summary_step
            if summary is not None:
                run.remember_visit(summary.name)
            run.work.flow = flow.name  # so the answer is cleared in the flow it belongs to
            run.clear(visit.step)
            run.work.editing = True
            await run.enter_flow(flow.name)
            return True
    return False
