"""Pure conversation state machine: flows, steps and sessions with no I/O imports.

What an adapter or a runner needs, in one place::

    from conversations import Engine, Services, ChoiceAnswer, TextAnswer, ...
    from conversations.flows import default_registry, ENTRY_FLOW

    engine = Engine(default_registry(), Services(catalog=..., creator=..., geocoder=...))
    session, turn = await engine.start(ENTRY_FLOW)
    turn = await engine.handle(session, TextAnswer(text="Ada Obi"))
"""

from conversations.dialog import (
    CONFIRM,
    EDIT_PREFIX,
    KEEP,
    Answer,
    AnswerKind,
    ChoiceAnswer,
    CommandAnswer,
    CommandName,
    ContactAnswer,
    InputKind,
    LocationAnswer,
    Option,
    PhotoCount,
    PhotosAnswer,
    Prompt,
    SessionStatus,
    TextAnswer,
    Turn,
)
from conversations.engine import Engine
from conversations.outcome import Created, CreateOutcome, Rejected, RejectionReason
from conversations.services import (
    CapabilitySource,
    DeliveryCreator,
    GeocodedPlace,
    Geocoder,
    OrderHistory,
    Services,
    ServiceUnavailable,
    SessionCheckpoint,
)
from conversations.session import Session, Visit

__all__ = [
    "CONFIRM",
    "EDIT_PREFIX",
    "KEEP",
    "Answer",
    "AnswerKind",
    "CapabilitySource",
    "ChoiceAnswer",
    "CommandAnswer",
    "CommandName",
    "ContactAnswer",
    "CreateOutcome",
    "Created",
    "DeliveryCreator",
    "Engine",
    "GeocodedPlace",
    "Geocoder",
    "InputKind",
    "LocationAnswer",
    "Option",
    "OrderHistory",
    "PhotoCount",
    "PhotosAnswer",
    "Prompt",
    "Rejected",
    "RejectionReason",
    "ServiceUnavailable",
    "Services",
    "Session",
    "SessionCheckpoint",
    "SessionStatus",
    "TextAnswer",
    "Turn",
    "Visit",
]
