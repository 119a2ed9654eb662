"""How a flow is declared: named steps, each with a question, a parser and a next step.

A flow is one value, readable in one place, in the spirit of python-telegram-bot's
``conversationbot`` and aiogram-dialog's declarative dialogs::

    Flow(
        name="pickup_delivery", title="Pickup & delivery", version=1, start=State.MODE,
        steps=(
            choice(State.MODE, title=..., question=..., options=delivery_modes,
                   next=Branch("delivery mode", by_answer(State.MODE),
                               {"pickup": "pickup_place", "warehouse": State.WAREHOUSE})),
            ...
            summary(State.SUMMARY, ...),  # leads to CREATE
        ),
        service_kind="pickup_delivery",  # the request's serviceKind
    )

A step's ``ask`` looks at the context (capabilities, places, answers so far) and returns a
``Question``, an ``AutoAnswer`` (only one option is allowed, or the bot looked the answer up:
the step answers itself), a ``Reask`` (nothing to offer now: an earlier answer is asked again)
or a ``Stop`` (the business's settings make it impossible to go on).
It may be a coroutine function when the question needs I/O through a service. Its ``accept``
turns an answer into a ``Result``: ``Accept`` (a value, maybe filling other steps too),
``Invalid`` (re-ask with a reason), ``Partial`` (stay: photos so far) or ``Redo`` (go back to
another step).

A step declares the request fields it fills (``fields``) and how its answer fills them
(``write``), once: ``Flow.assemble`` builds the create request from those declarations alone,
so no flow maps answers to a request by hand and a stored draft can be replayed into the flow
that made it ("repeat my last delivery").
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field

from pydantic import JsonValue

from conversations.context import Context
from conversations.dialog import Answer, AnswerKind, InputKind, Option, PhotoCount
from conversations.order.kinds import ServiceKind
from conversations.order.request import CreateDeliveryRequest
from conversations.request_fields import required_fields
from conversations.session import Session
from conversations.texts.catalogue import Catalogue
from conversations.texts.said import Words, words

REQUEST_FIELDS = frozenset(CreateDeliveryRequest.model_fields)
_COMMAND = re.compile(r"[a-z0-9_]{1,32}")  # what Telegram accepts as a bot command


class FlowError(Exception):
    """A flow is declared wrongly (a bug in a flow file, found when it is built)."""


# --- what a step says -------------------------------------------------------------------------


@dataclass(frozen=True)
class Question:
    text: str
    accepts: tuple[AnswerKind, ...]
    options: tuple[Option, ...] = ()
    default: str | None = None
    allow_skip: bool = False
    photos: PhotoCount | None = None
    input: InputKind | None = None  # overrides the step's kind for this question
    # Typed text, numbers too, is a value matched to the options (a room "12"), never an
    # option's position; see ``Prompt.numbers_are_values``.
    numbers_are_values: bool = False


@dataclass(frozen=True)
class AutoAnswer:
    """The step answers itself (only one option is allowed, or the bot looked the answer up):
    ``value`` is the answer and ``note`` tells the customer so. ``fills`` answers other steps
    too, as a shared contact does; the walk then passes over them (they stay editable)."""

    value: JsonValue
    note: str
    fills: Mapping[str, JsonValue] = field(default_factory=dict)


@dataclass(frozen=True)
class Stop:
    """The flow cannot go on (the business's settings forbid it); ``message`` says why."""

    message: str


@dataclass(frozen=True)
class Reask:
    """The step has nothing to offer now, but an earlier answer can be given again: ``step``
    is cleared (with what was built on it) and the walk goes on from there after ``note``;
    every other answer is kept (warehouse drop-off switched off mid-order re-asks how the
    package is picked up, not the whole order)."""

    step: str
    note: str


Ask = Question | AutoAnswer | Stop | Reask


@dataclass(frozen=True)
class Preset:
    """A sensible default a step takes without asking on the way to the summary ("Me" hands
    the package over, not fragile): the summary shows it, the customer's confirm accepts it,
    and "Change ..." from the summary asks the step like any other."""

    value: JsonValue


@dataclass(frozen=True)
class Accept:
    value: JsonValue
    fills: Mapping[str, JsonValue] = field(default_factory=dict)
    note: str | None = None


@dataclass(frozen=True)
class Invalid:
    reason: str


@dataclass(frozen=True)
class Partial:
    """Keep collecting on this step (``pending`` so far) and say ``note`` (when not empty).

    ``new_options``: the question now offers other options (a search narrowed them), so it is
    drawn as a new prompt version and a tap on the old keyboard is refused as stale instead of
    picking whatever option now sits at its place.
    """

    pending: JsonValue
    note: str = ""
    new_options: bool = False


@dataclass(frozen=True)
class Redo:
    """Go to ``step`` of this flow instead, clearing its answer, and say ``note`` (when any).
    With ``answer`` (an option id), ``step`` is answered with it and the walk goes on from
    there: the pickup place's "I'll drop it at a warehouse" answers the delivery mode."""

    step: str
    note: str
    answer: str | None = None


Result = Accept | Invalid | Partial | Redo


# --- where a step leads -----------------------------------------------------------------------


@dataclass(frozen=True)
class Handoff:
    """Continue in another flow of the registry (answers are shared)."""

    flow: str


@dataclass(frozen=True)
class CreateDelivery:
    """Build the request from the answers and create the delivery."""


CREATE = CreateDelivery()
Target = str | Handoff | CreateDelivery


@dataclass(frozen=True)
class Branch:
    """Pick the next step by a key ``decide`` computes; ``on`` names the decision for diagrams."""

    on: str
    decide: Callable[[Context], str]
    routes: Mapping[str, Target]


Next = Target | Branch


@dataclass(frozen=True)
class Condition:
    """A step is asked only when ``test`` holds; ``label`` says when, for diagrams and docs."""

    label: str
    test: Callable[[Context], bool]


def by_answer(step: str) -> Callable[[Context], str]:
    """A ``Branch.decide`` that routes on the option chosen at ``step``."""

    def decide(ctx: Context) -> str:
        return ctx.answers.option(step) or ""

    return decide


Write = Callable[[Context, JsonValue], Mapping[str, object]]


def describe_plain(ctx: Context, value: JsonValue) -> str:
    """An answer as words: text as it is; a structured answer by its ``name`` and ``address``
    (never Python's rendering of a dict or a list)."""
    if value in ("", None, [], {}):
        return ctx.catalogue.say("steps.none")
    if isinstance(value, bool):
        return ctx.catalogue.say("steps.yes") if value else ctx.catalogue.say("steps.no")
    if isinstance(value, dict):
        parts = [value.get(key) for key in ("name", "label", "address")]
        words = [str(part) for part in parts if isinstance(part, str) and part.strip()]
        return " — ".join(dict.fromkeys(words)) or "-"
    if isinstance(value, list):
        return ", ".join(describe_plain(ctx, item) for item in value)
    return str(value)


_EMPTY: tuple[JsonValue, ...] = ("", None, [], {})


def _not_asked(session: Session, name: str) -> bool:
    """Whether ``name``'s answer came without its question being asked in this order: a
    pre-set default, another step's fill, an earlier order's answer, or one it gave itself."""
    return name in session.filled_by or name in session.auto_answered


@dataclass(frozen=True)
class Step:
    """One named question of a flow.

    ``when`` makes the step conditional; a skipped step leads to ``skip_to`` (needed when
    ``next`` branches on the step's own answer, which a skipped step does not have).
    ``depends_on`` names the steps whose answers this one was built from: when one of them
    changes, this answer is cleared. ``fields`` names the request fields it fills, so a
    validation error from the service brings the customer back here; ``write`` turns its
    answer into those fields' values (a step of a group may name fields and leave the writing
    to the group's main step). ``replay`` is False for answers that cannot be reused in a new
    order (re-hosted photos expire). ``preset`` gives the answer the step takes without
    asking (None: ask); the customer changes it from the summary. ``summary`` marks the
    step that shows the draft and confirms it. ``ask`` may return an awaitable (a lookup
    through a service, such as the customer's last order); the engine awaits it.
    ``titled`` is the title as the customer reads it now, when it depends on the answers (a
    saved place's unit is its "room" or its "floor"); ``title`` stays the step's name in
    diagrams and docs. ``title`` and ``help`` are usually catalogue messages (``said``),
    said in the language of the turn that reads them. ``changeable`` says whether the summary
    may offer the answer for a change now (None: always): a choice left with one possible
    value has nothing to change to.
    """

    name: str
    title: Words
    input: InputKind
    ask: Callable[[Context], Ask | Awaitable[Ask]]
    accept: Callable[[Context, Answer], Awaitable[Result]]
    next: Next
    when: Condition | None = None
    skip_to: Target | None = None
    depends_on: tuple[str, ...] = ()
    fields: tuple[str, ...] = ()
    write: Write | None = None
    replay: bool = True
    help: Words = ""
    describe: Callable[[Context, JsonValue], str] = describe_plain
    still_valid: Callable[[Context, JsonValue], bool] | None = None
    skip_value: JsonValue = None
    summarize: bool = True
    editable: bool = True
    summary: bool = False
    titled: Callable[[Context], str] | None = None
    preset: Callable[[Context], Preset | None] | None = None
    changeable: Callable[[Context], bool] | None = None

    def applies(self, ctx: Context) -> bool:
        return self.when is None or self.when.test(ctx)

    def title_in(self, ctx: Context) -> str:
        """The title the customer reads (``titled`` when the step has one)."""
        return self.titled(ctx) if self.titled is not None else self.said_title(ctx.catalogue)

    def said_title(self, catalogue: Catalogue) -> str:
        """The step's title in the language of the turn."""
        return words(self.title, catalogue)

    def said_help(self, catalogue: Catalogue) -> str:
        """The step's own help in the language of the turn (empty: the input kind's help)."""
        return words(self.help, catalogue)


def targets_of(next_: Next) -> list[tuple[str, Target]]:
    """Every (label, target) a step may lead to."""
    if isinstance(next_, Branch):
        return list(next_.routes.items())
    return [("", next_)]


@dataclass(frozen=True)
class Flow:
    """A declared graph of steps, checked when it is built.

    ``version`` is stored in each session and with each delivery the flow made; raise it when
    steps are renamed or removed or their answers change shape (a session parked on a step
    that is gone restarts politely, and an order of another version is not replayed).
    ``guard`` says why the flow cannot run for this org (then it ends at once). A flow that
    creates (a step leads to ``CREATE``, always its summary) names its ``service_kind``; the
    request is that kind, the ``fixed`` values, and what each answered step on the route
    writes (``assemble``). ``label`` is how the entry menu offers the flow (its title when
    empty) and ``listed`` puts it there; ``command`` is a channel's shortcut for starting it
    (``/return`` in Telegram's menu). Every registered flow can also be started by name.
    """

    name: str
    title: Words
    version: int
    start: str
    steps: tuple[Step, ...]
    service_kind: ServiceKind | None = None
    fixed: Mapping[str, object] = field(default_factory=dict)
    guard: Callable[[Context], str | None] | None = None
    label: Words = ""
    listed: bool = False
    command: str | None = None
    _index: dict[str, Step] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "start", str(self.start))  # a StrEnum member becomes its value
        index: dict[str, Step] = {}
        for step in self.steps:
            if step.name in index:
                raise FlowError(f"{self.name}: step {step.name!r} is declared twice")
            index[step.name] = step
        object.__setattr__(self, "_index", index)
        self._check()

    def _check(self) -> None:
        if self.start not in self._index:
            raise FlowError(f"{self.name}: start step {self.start!r} is not declared")
        for step in self.steps:
            if step.when is not None and isinstance(step.next, Branch) and step.skip_to is None:
                raise FlowError(f"{self.name}: {step.name} may be skipped but has no skip_to")
            for _, target in targets_of(step.next) + self.skip_edges(step):
                if isinstance(target, str) and target not in self._index:
                    raise FlowError(f"{self.name}: {step.name} leads to unknown {target!r}")
                if isinstance(target, CreateDelivery) and self.service_kind is None:
                    raise FlowError(f"{self.name}: {step.name} creates but names no service_kind")
                if isinstance(target, CreateDelivery) and not step.summary:
                    raise FlowError(f"{self.name}: only the summary may create ({step.name})")
            for name in step.depends_on:
                if name not in self._index:
                    raise FlowError(f"{self.name}: {step.name} depends on unknown {name!r}")
            unknown = set(step.fields) - REQUEST_FIELDS
            if unknown:
                raise FlowError(f"{self.name}: {step.name} names unknown fields {sorted(unknown)}")
            if step.write is not None and not step.fields:
                raise FlowError(f"{self.name}: {step.name} writes but names no fields")
        unknown = set(self.fixed) - REQUEST_FIELDS
        if unknown:
            raise FlowError(f"{self.name}: fixed values for unknown fields {sorted(unknown)}")
        if self.command is not None and not _COMMAND.fullmatch(self.command):
            raise FlowError(f"{self.name}: command {self.command!r} is not 1-32 of a-z, 0-9, _")
        if self.service_kind is not None:
            self._check_required_fields(self.service_kind)

    def _check_required_fields(self, kind: ServiceKind) -> None:
        """Every route from the start to the create fills each field ``kind`` requires (see
        ``request_fields``): a step on it that writes the field, or a ``fixed`` value. A step
        with a ``when`` may be passed over, so it fills nothing on the route that skips it."""
        needed = set(required_fields(kind)) - {"serviceKind"} - set(self.fixed)
        for route, filled in self._routes_to_create():
            missing = [name for name in required_fields(kind) if name in needed - filled]
            if missing:
                raise FlowError(
                    f"{self.name}: the {kind} request must carry {missing}, but the route "
                    f"{' > '.join(route)} fills none of them; add a step that writes them, "
                    f'or fixed={{...}} values (errands send theirs even when empty: "")'
                )

    def _routes_to_create(self) -> Iterable[tuple[list[str], set[str]]]:
        """Each route from the start to a step leading to ``CREATE``: its step names (a step
        passed over in brackets) and the fields its steps write."""
        stack: list[tuple[str, list[str], set[str]]] = [(self.start, [], set())]
        while stack:
            name, route, filled = stack.pop()
            if name in route or f"({name})" in route:
                continue  # a loop leads nowhere new
            step = self._index[name]
            asked = [*route, name]
            ways = [(asked, filled | self._written(step), to) for _, to in targets_of(step.next)]
            if step.when is not None:
                passed_over = [*route, f"({name})"]
                skipped = step.skip_to if step.skip_to is not None else step.next
                ways += [(passed_over, filled, to) for _, to in targets_of(skipped)]
            for way, written, target in ways:
                if isinstance(target, CreateDelivery):
                    yield way, written
                elif isinstance(target, str):
                    stack.append((target, way, written))

    @staticmethod
    def _written(step: Step) -> set[str]:
        return set(step.fields) if step.write is not None else set()

    def menu_label(self, catalogue: Catalogue) -> str:
        """How the entry menu and a channel's command list name this flow, in the language
        of the turn."""
        return words(self.label, catalogue) or words(self.title, catalogue)

    def __contains__(self, name: object) -> bool:
        return name in self._index

    def step(self, name: str) -> Step:
        return self._index[name]

    @property
    def summary_step(self) -> Step | None:
        return next((s for s in self.steps if s.summary), None)

    def next_target(self, step: Step, ctx: Context) -> Target | None:
        """Where ``step`` leads with the answers as they are (None: a branch has no route)."""
        if isinstance(step.next, Branch):
            return step.next.routes.get(step.next.decide(ctx))
        return step.next

    def skip_edges(self, step: Step) -> list[tuple[str, Target]]:
        """The route a skipped step takes, when it differs from its ``next``."""
        return [("skipped", step.skip_to)] if step.skip_to is not None else []

    def onward(self, step: Step, ctx: Context) -> Target | None:
        """Where the walk goes after ``step``: its next, or ``skip_to`` when it does not apply."""
        if not step.applies(ctx) and step.skip_to is not None:
            return step.skip_to
        return self.next_target(step, ctx)

    def dependents(self, name: str) -> set[str]:
        """Steps whose answers were built on ``name``'s, directly or not."""
        found: set[str] = set()
        frontier = [name]
        while frontier:
            current = frontier.pop()
            for step in self.steps:
                if current in step.depends_on and step.name not in found:
                    found.add(step.name)
                    frontier.append(step.name)
        return found

    def path(self, ctx: Context) -> list[Step]:
        """The steps on the route the current answers take, up to the first unanswered one."""
        route: list[Step] = []
        target: Target | None = self.start
        while isinstance(target, str) and len(route) <= len(self.steps):
            step = self._index[target]
            if step.applies(ctx):
                route.append(step)
                if step.name not in ctx.session.answers:
                    break
            target = self.onward(step, ctx)
        return route

    def steps_for_field(self, field_name: str, ctx: Context) -> list[str]:
        """Steps on the current route that fill ``field_name`` (``pickupCoords.lat`` counts)."""
        base = field_name.split(".", 1)[0].split("[", 1)[0]
        return [step.name for step in self.path(ctx) if base in step.fields]

    def summary_lines(self, ctx: Context) -> list[tuple[str, str]]:
        """(title, description) of every answered step on the current route, in order.

        An empty answer the customer was never asked (a pre-set "no email") has no line when
        all it would say is "none": "Your email: none" only shows a question nobody asked. It
        stays changeable from the summary; a step that says what its empty answer means ("No
        cash to collect") keeps its line."""
        session = ctx.session
        answers = session.answers
        lines = []
        for step in self.path(ctx):
            if not step.summarize or step.name not in answers:
                continue
            value = answers[step.name]
            described = step.describe(ctx, value)
            unasked = value in _EMPTY and _not_asked(session, step.name)
            if not (unasked and described == ctx.catalogue.say("steps.none")):
                lines.append((step.said_title(ctx.catalogue), described))
        return lines

    def assemble(self, ctx: Context) -> CreateDeliveryRequest:
        """The create request: the kind, the fixed values, then what each answered step on the
        route writes, in route order (a later step may refine an earlier one's value).

        Raises pydantic's ``ValidationError`` when the result breaks a rule of the request
        model; the engine treats that like the service's own validation refusal.
        """
        body: dict[str, object] = {"serviceKind": self.service_kind, **self.fixed}
        answers = ctx.session.answers
        for step in self.path(ctx):
            if step.write is not None and step.name in answers:
                body.update(step.write(ctx, answers[step.name]))
        return CreateDeliveryRequest.model_validate(body)


class FlowRegistry:
    """The flows a bot offers, by name; checks that every hand-off lands on a known flow.

    ``entry`` is the flow a plain "new order" starts (the first flow when not named). Every
    registered flow can be started by name; ``with_commands`` are those a channel may put in
    its command menu.
    """

    def __init__(self, flows: Iterable[Flow], *, entry: str | None = None) -> None:
        self._flows: dict[str, Flow] = {}
        for flow in flows:
            if flow.name in self._flows:
                raise FlowError(f"flow {flow.name!r} is registered twice")
            self._flows[flow.name] = flow
        if not self._flows:
            raise FlowError("a registry needs at least one flow")
        self.entry = entry if entry is not None else next(iter(self._flows))
        if self.entry not in self._flows:
            raise FlowError(f"the entry flow {self.entry!r} is not registered")
        commands = [flow.command for flow in self._flows.values() if flow.command]
        if len(commands) != len(set(commands)):
            raise FlowError(f"two flows declare the same command: {sorted(commands)}")
        for flow in self._flows.values():
            for step in flow.steps:
                for _, target in targets_of(step.next) + flow.skip_edges(step):
                    if isinstance(target, Handoff):
                        self._check_handoff(flow, target.flow)

    def _check_handoff(self, source: Flow, name: str) -> None:
        target = self._flows.get(name)
        if target is None:
            raise FlowError(f"{source.name} hands off to unknown flow {name!r}")
        shared = {s.name for s in source.steps} & {s.name for s in target.steps}
        if shared:
            raise FlowError(f"{source.name} and {name} both declare {sorted(shared)}")

    def get(self, name: str) -> Flow | None:
        return self._flows.get(name)

    def __getitem__(self, name: str) -> Flow:
        return self._flows[name]

    def __contains__(self, name: object) -> bool:
        return name in self._flows

    @property
    def names(self) -> list[str]:
        return list(self._flows)

    @property
    def with_commands(self) -> list[Flow]:
        """Flows that declare a command, in registration order."""
        return [flow for flow in self._flows.values() if flow.command]

    def by_command(self, command: str) -> Flow | None:
        """The flow started by ``command`` (without its slash), if one declares it."""
        return next((f for f in self._flows.values() if f.command == command), None)
