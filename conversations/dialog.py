"""What crosses between an adapter and the engine: answers in, turns (messages + prompt) out.

An adapter (Telegram, console, a transcript runner) turns what the customer did into one
``Answer`` and draws the ``Turn`` it gets back. It never decides what to ask: the prompt says
which inputs make sense, which options to offer, which one is pre-selected and which navigation
commands to show.

Every answer may carry the ``step`` and prompt ``version`` it answers. Buttons should always
carry both, so a tap on an old keyboard is recognised and refused kindly. Free text typed into
the chat may leave them out: it answers whatever is being asked now.

Whatever a customer sent is a ``CustomerText`` (``typed_text``): half an emoji or a control
character is dropped on the way in, so an answer can always be saved with the session.
"""

from __future__ import annotations

from typing import Annotated, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, JsonValue, computed_field

from conversations.order.delivery import Delivery
from conversations.order.request import CreateDeliveryRequest
from conversations.typed_text import CustomerText

E = TypeVar("E", bound="DeliveryCreated | AnswerLost | OperatorAlert | ResendAfter")

InputKind = Literal["choice", "text", "phone", "contact", "place", "photos", "confirm"]
AnswerKind = Literal["text", "choice", "contact", "location", "photos", "command"]
CommandName = Literal["back", "cancel", "help", "edit", "done", "skip"]
# "unconfirmed": the create was sent and its answer lost; the runner finishes it in the background.
SessionStatus = Literal["open", "created", "cancelled", "ended", "unconfirmed"]

# The option id that keeps the answer a step already has, when the step is asked again.
KEEP = "keep"
# The option id of the summary that sends the order.
CONFIRM = "confirm"
# The option id of an order on hold (the business can't take it yet): look again.
TRY_AGAIN = "try_again"
# Summary option ids "edit:<step>" jump to that step and come back to the summary.
EDIT_PREFIX = "edit:"
# Summary option ids "change:<group>" open a second menu: the "edit:<step>" options of a group
# of answers (places, people ...), so the summary offers a few choices, each field two taps away.
GROUP_PREFIX = "change:"
# The option of that second menu that goes back to the summary.
BACK_TO_SUMMARY = "summary"
# Above this many options an adapter with little room should page them.
PAGE_SIZE = 8


class _Data(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _Out(BaseModel):
    # What the engine says may be stored and read back (transcripts): computed fields such as
    # ``Turn.finished`` are written out and ignored on the way in.
    model_config = ConfigDict(extra="ignore", frozen=True)


# --- answers -----------------------------------------------------------------------------------


class _AnswerBase(_Data):
    step: str | None = None
    version: int | None = None


class TextAnswer(_AnswerBase):
    """Text the customer typed."""

    kind: Literal["text"] = "text"
    text: CustomerText


class ChoiceAnswer(_AnswerBase):
    """A tapped option, by its id."""

    kind: Literal["choice"] = "choice"
    option: CustomerText


class ContactAnswer(_AnswerBase):
    """A shared contact card: fills a name and a phone at once."""

    kind: Literal["contact"] = "contact"
    phone: CustomerText
    first_name: CustomerText = ""
    last_name: CustomerText = ""
    user_id: int | None = None

    @property
    def full_name(self) -> str:
        return " ".join(part for part in (self.first_name.strip(), self.last_name.strip()) if part)


class LocationAnswer(_AnswerBase):
    """A shared map pin. ``address`` is set when the pin is a venue that came with one."""

    kind: Literal["location"] = "location"
    lat: float
    lng: float
    address: CustomerText | None = None


class PhotosAnswer(_AnswerBase):
    """Photos already re-hosted by the adapter: URLs the service may download (``is_image_url``)."""

    kind: Literal["photos"] = "photos"
    urls: list[str]


class CommandAnswer(_AnswerBase):
    """Navigation: back, cancel, help, done (photos), skip, or edit ``target`` (at the summary)."""

    kind: Literal["command"] = "command"
    name: CommandName
    target: CustomerText | None = None


Answer = Annotated[
    TextAnswer | ChoiceAnswer | ContactAnswer | LocationAnswer | PhotosAnswer | CommandAnswer,
    Field(discriminator="kind"),
]


# --- prompts and turns ---------------------------------------------------------------------------


class Option(_Out):
    """One choice: ``id`` goes back in a ``ChoiceAnswer``; ``detail`` is a second line (url...)."""

    id: str
    label: str
    detail: str | None = None


class PhotoCount(_Out):
    """How many photos the step has so far, and how many it needs and takes."""

    have: int
    min: int
    max: int


class Prompt(_Out):
    """The question now open, with everything an adapter needs to draw it.

    ``accepts`` lists the answer kinds that make sense here (draw a location or contact request
    button when they are listed). ``options`` are tappable whatever the input kind: on a text
    step they are shortcuts such as "Keep ...". ``default`` is the pre-selected option id.
    ``commands`` are the navigation buttons worth showing now; back, cancel and help are always
    accepted, shown or not. ``current`` describes the answer this step already has.

    ``numbers_are_values``: a number the customer types is an answer in its own right (room
    "12"), matched to the options by the step, not an option's position. An adapter that lets
    a typed number pick an option (the console) must not do so here.

    ``changes``: at the summary, every "edit:<step>" option its groups hold, one tap further
    (``GROUP_PREFIX``); each is also accepted as a choice straight from the summary (a
    program that knows the field it wants to change, ``edit <step>`` typed in the console).
    """

    step: str
    version: int
    text: str
    input: InputKind
    accepts: tuple[AnswerKind, ...]
    options: tuple[Option, ...] = ()
    default: str | None = None
    allow_skip: bool = False
    commands: tuple[CommandName, ...] = ()
    current: str | None = None
    photos: PhotoCount | None = None
    numbers_are_values: bool = False
    changes: tuple[Option, ...] = ()

    @computed_field  # type: ignore[prop-decorator]
    @property
    def paged(self) -> bool:
        """True when the options are too many to show at once on a small screen."""
        return len(self.options) > PAGE_SIZE


class SavedOrder(_Out):
    """The answers that made a delivery, in the flow (and its version) that asked them: what a
    runner keeps with the delivery, and what "repeat my last delivery" replays."""

    flow: str
    flow_version: int
    answers: dict[str, JsonValue]


class UnconfirmedOrder(_Out):
    """A create whose answer was lost: the request exactly as it was sent (its idempotency key
    included) and the answers that made it. The runner keeps both and sends the same request
    again until the service answers for certain, then links the delivery as after ``created``.
    """

    request: CreateDeliveryRequest
    order: SavedOrder


# --- what a turn asks its runner to do -----------------------------------------------------------


class DeliveryCreated(_Out):
    """The delivery was created: link ``delivery`` to the chat with ``order``, the answers that
    made it ("repeat my last delivery" replays them), and remember the customer for their next
    order. ``request`` is what was sent; ``told`` what the turn's answer said of it."""

    effect: Literal["created"] = "created"
    delivery: Delivery
    request: CreateDeliveryRequest
    order: SavedOrder
    # The facts the turn's answer told (``conversations.delivery_facts``): never again.
    told: frozenset[str] = frozenset()


class AnswerLost(_Out):
    """The create's answer was lost (status ``unconfirmed``): the customer was told it is being
    checked; keep ``unconfirmed`` and finish it in the background."""

    effect: Literal["answer_lost"] = "answer_lost"
    unconfirmed: UnconfirmedOrder


class OperatorAlert(_Out):
    """The business's operators must fix a configuration problem (the customer is told in
    plainer words)."""

    effect: Literal["alert_operators"] = "alert_operators"
    text: str


class ResendAfter(_Out):
    """The service asked to wait ``seconds`` after a rate limit: the confirm may be sent again
    then."""

    effect: Literal["resend_after"] = "resend_after"
    seconds: float


Effect = Annotated[
    DeliveryCreated | AnswerLost | OperatorAlert | ResendAfter, Field(discriminator="effect")
]


class Turn(_Out):
    """The engine's reply to one answer: messages to say, then the next prompt (if any), and
    ``effects``: what the runner must do about it, handled in one place (``ChatService``).

    ``status`` is the session's status after the turn; ``finished`` is True once the
    conversation has ended (created, cancelled, or ended because it could not go on).
    ``failures`` is the session's count after the turn (``Session.failures``): the wrong
    answers in a row at the open question, so a channel can tell a customer stuck at one
    question without reading the session back. The
    properties below read one kind of effect each, for callers that only look (an adapter
    showing the created delivery, a test).
    """

    messages: tuple[str, ...] = ()
    prompt: Prompt | None = None
    status: SessionStatus = "open"
    effects: tuple[Effect, ...] = ()
    failures: int = 0

    @computed_field  # type: ignore[prop-decorator]
    @property
    def finished(self) -> bool:
        return self.status != "open"

    def effect(self, kind: type[E]) -> E | None:
        """The turn's effect of ``kind``, if it has one (a turn has at most one of each)."""
        return next((e for e in self.effects if isinstance(e, kind)), None)

    @property
    def delivery(self) -> Delivery | None:
        created = self.effect(DeliveryCreated)
        return created.delivery if created else None

    @property
    def request(self) -> CreateDeliveryRequest | None:
        created = self.effect(DeliveryCreated)
        return created.request if created else None

    @property
    def order(self) -> SavedOrder | None:
        created = self.effect(DeliveryCreated)
        return created.order if created else None

    @property
    def unconfirmed(self) -> UnconfirmedOrder | None:
        lost = self.effect(AnswerLost)
        return lost.unconfirmed if lost else None

    @property
    def operator_alert(self) -> str | None:
        alert = self.effect(OperatorAlert)
        return alert.text if alert else None

    @property
    def retry_after(self) -> float | None:
        wait = self.effect(ResendAfter)
        return wait.seconds if wait else None
