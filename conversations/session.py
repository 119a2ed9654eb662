"""The state of one conversation: plain data, saved by the runner after every turn.

A session holds answers by step name, never objects of the flow, so it survives a restart and a
new release: a step that no longer exists is noticed and the flow restarts politely.

Stored compactly (``stored_json``), since one is kept per open chat: fields still at their
default are left out, and the visit history is written as runs of one flow,
``[["order", "service_kind"], ["pickup_delivery", "pickup_place", "dropoff_place"]]``, instead
of one ``{"flow": .., "step": ..}`` object per visit. It stays plain JSON, readable in the
database as it is; the longer form of earlier releases is still read.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, JsonValue, field_serializer, field_validator

from conversations.dialog import SessionStatus
from conversations.returning import Remembered


class Visit(BaseModel):
    """A step the customer was asked, in the flow it belongs to (flows hand off to each other)."""

    model_config = ConfigDict(frozen=True)

    flow: str
    step: str


class Session(BaseModel):
    """One customer's conversation.

    ``answers`` maps step names to JSON values. ``filled_by`` records answers another step gave
    (a shared contact fills the phone step); such steps are not asked. ``auto_answered`` lists
    steps that answered themselves because only one option was allowed. ``history`` is the visit
    order used by "back". ``prompt_version`` grows each time a step is entered, so an answer to
    an older prompt is recognised. ``pending`` is a partial answer of the current step (photos
    received so far). ``editing`` is set while the customer fixes something from the summary:
    steps that still have answers are passed over on the way back to it. ``cancel_asked`` is
    set while the customer is asked whether to cancel (the answers given would be lost);
    ``starting_over`` names the flow of the new order they asked for meanwhile, when the
    question is whether to drop this order for that one.
    ``idempotency_key`` is made once, when the draft is first confirmed, and reused by every
    retry of the same create. ``customer`` is an opaque reference to who is ordering, set by
    whoever starts the session (the bot uses the user id); flows pass it to ``OrderHistory``.
    ``out_of_area`` holds the places a create was refused for (``coverage.place_key``), which
    this order neither offers nor takes again. ``remembered`` is what the customer's last
    orders gave (``returning``): their name and phone are pre-set and their last places offered.
    ``sender_phone_owner``, when set, is the customer's own account id in their channel: the
    sender's phone is then taken only from a shared contact of that account (a contact's
    ``user_id``), never typed; None takes a typed phone (a channel that cannot prove one).
    """

    model_config = ConfigDict(extra="ignore")

    id: str
    entry_flow: str
    flow: str
    flow_version: int
    customer: str | None = None
    step: str | None = None
    answers: dict[str, JsonValue] = Field(default_factory=dict)
    filled_by: dict[str, str] = Field(default_factory=dict)
    auto_answered: list[str] = Field(default_factory=list)
    history: list[Visit] = Field(default_factory=list)
    prompt_version: int = 0
    failures: int = 0
    pending: JsonValue = None
    editing: bool = False
    cancel_asked: bool = False
    starting_over: str | None = None
    idempotency_key: str | None = None
    status: SessionStatus = "open"
    delivery_id: str | None = None
    delivery_status: str | None = None
    tracking_url: str | None = None
    out_of_area: list[str] = Field(default_factory=list)
    remembered: Remembered | None = None
    sender_phone_owner: int | None = None

    @property
    def finished(self) -> bool:
        return self.status != "open"

    def stored_json(self) -> str:
        """The session as the store keeps it: JSON without the fields at their default."""
        return self.model_dump_json(exclude_defaults=True)

    @field_serializer("history")
    def _history_as_runs(self, history: list[Visit]) -> list[list[str]]:
        runs: list[list[str]] = []
        for visit in history:
            if runs and runs[-1][0] == visit.flow:
                runs[-1].append(visit.step)
            else:
                runs.append([visit.flow, visit.step])
        return runs

    @field_validator("history", mode="before")
    @classmethod
    def _history_from_runs(cls, value: Any) -> Any:
        """Runs of one flow (``[flow, step, step ..]``) or, as earlier releases wrote them,
        one ``{"flow": .., "step": ..}`` per visit."""
        if not isinstance(value, list):
            return value
        visits: list[Any] = []
        for item in value:
            if isinstance(item, list) and len(item) >= 2:
                visits.extend({"flow": item[0], "step": step} for step in item[1:])
            else:
                visits.append(item)
        return visits

    def working_copy(self) -> Session:
        """A copy that shares nothing mutable with this session (what a turn works on).

        Equal to ``model_copy(deep=True)``, several times faster (the engine makes one per
        turn): answers are JSON values, copied by a walk over their dicts and lists instead of
        ``copy.deepcopy``'s generic machinery, and ``Visit`` is frozen, so visits are shared.
        """
        return self.model_copy(
            update={
                "answers": {name: _copy_json(value) for name, value in self.answers.items()},
                "filled_by": dict(self.filled_by),
                "auto_answered": list(self.auto_answered),
                "history": list(self.history),
                "pending": _copy_json(self.pending),
                "out_of_area": list(self.out_of_area),
            }
        )


def _copy_json(value: JsonValue) -> JsonValue:
    if isinstance(value, dict):
        return {key: _copy_json(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_copy_json(item) for item in value]
    return value  # str, int, float, bool, None: immutable
