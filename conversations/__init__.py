"""Pure conversation state machine: flows, steps and sessions with no I/O imports.

What an adapter or a runner needs, in one place::

    from conversations import Engine, Services, ChoiceAnswer, TextAnswer, ...
    from conversations.flows import default_registry, ENTRY_FLOW

    engine = Engine(default_registry(), Services(catalog=..., creator=..., geocoder=...))
    session, turn = await engine.start()  # the entry flow; or start("return_parcel")
    turn = await engine.handle(session, TextAnswer(text="Ada Obi"), before_create=save)
    session, turn = await engine.replay(turn.order)  # order the same again
    # turn.effects: what the runner must do (link the delivery, alert operators ...)
"""

from conversations.dialog import (
    CONFIRM,
    EDIT_PREFIX,
    GROUP_PREFIX,
    KEEP,
    Answer,
    AnswerKind,
    AnswerLost,
    ChoiceAnswer,
    CommandAnswer,
    CommandName,
    ContactAnswer,
    DeliveryCreated,
    Effect,
    InputKind,
    LocationAnswer,
    OperatorAlert,
    Option,
    PhotoCount,
    PhotosAnswer,
    Prompt,
    ResendAfter,
    SavedOrder,
    SessionStatus,
    TextAnswer,
    Turn,
    UnconfirmedOrder,
)
from conversations.engine import Engine
from conversations.outcome import Created, CreateOutcome, RefusalReason, Refused
from conversations.services import (
    BeforeCreate,
    CapabilitySource,
    DeliveryCreator,
    GeocodedPlace,
    Geocoder,
    Services,
    ServiceUnavailable,
)
from conversations.session import Session, Visit

__all__ = [
    "CONFIRM",
    "EDIT_PREFIX",
    "GROUP_PREFIX",
    "KEEP",
    "Answer",
    "AnswerKind",
    "AnswerLost",
    "BeforeCreate",
    "CapabilitySource",
    "ChoiceAnswer",
    "CommandAnswer",
    "CommandName",
    "ContactAnswer",
    "CreateOutcome",
    "Created",
    "DeliveryCreated",
    "DeliveryCreator",
    "Effect",
    "Engine",
    "GeocodedPlace",
    "Geocoder",
    "InputKind",
    "LocationAnswer",
    "OperatorAlert",
    "Option",
    "PhotoCount",
    "PhotosAnswer",
    "Prompt",
    "RefusalReason",
    "Refused",
    "ResendAfter",
    "SavedOrder",
    "ServiceUnavailable",
    "Services",
    "Session",
    "SessionStatus",
    "TextAnswer",
    "Turn",
    "UnconfirmedOrder",
    "Visit",
]
