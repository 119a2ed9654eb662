"""The walk through a flow's graph over a working copy of the session.

``Walker`` holds what one turn works on: the session copy, the org's allow-list and places,
and what the turn will say. ``move`` walks to the next step that needs the customer, passing
over steps that do not apply, steps another answer already filled (or an earlier order gave),
steps that answer themselves (one allowed option), steps that take their pre-set default
without asking (changed from the summary), and, while the customer fixes something from the
summary, steps that still have their answers, except those built on the answer just given
(picking the same saved place again asks its unit again, its answer offered to keep).
Reaching ``CREATE`` calls ``submit``, which ``TurnRun`` provides.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping

from pydantic import JsonValue

from conversations import rules
from conversations.context import Context
from conversations.dialog import TRY_AGAIN, Effect, OperatorAlert, Option, Prompt, Turn
from conversations.engine import ledger
from conversations.engine.prompting import build_prompt, cancel_prompt
from conversations.flow import (
    Ask,
    AutoAnswer,
    CreateDelivery,
    Flow,
    FlowError,
    FlowRegistry,
    Handoff,
    Preset,
    Question,
    Reask,
    Step,
    Stop,
    Target,
)
from conversations.order.business_capabilities import Capabilities
from conversations.order.locations import ServiceLocation, Warehouse
from conversations.services import Services
from conversations.session import Session
from conversations.texts import dialogue
from conversations.texts.catalogue import Catalogue

_MAX_MOVES = 500  # more steps than any flow has: a loop in a flow is a bug, not a hang

Catalog = tuple[Capabilities, tuple[Warehouse, ...], tuple[ServiceLocation, ...]]


class Walker(ABC):
    """A turn's state and the graph walk; ``TurnRun`` adds answering, commands and creating."""

    def __init__(
        self,
        registry: FlowRegistry,
        services: Services,
        phone_region: str,
        work: Session,
        catalogue: Catalogue,
    ) -> None:
        self.registry = registry
        self.catalogue = catalogue  # the turn's: every sentence of the turn is said from it
        self.services = services
        self.phone_region = phone_region
        self.work = work
        self.messages: list[str] = []
        self.prompt: Prompt | None = None
        self.effects: list[Effect] = []  # what the runner must do (``Turn.effects``)
        self._catalog: Catalog | None = None
        self._ctx: Context | None = None  # the last ``ctx()``, while its flow and catalog hold

    # --- plumbing -----------------------------------------------------------------------------

    @property
    def flow(self) -> Flow:
        return self.registry[self.work.flow]

    async def load(self, *, fresh: bool = False) -> None:
        catalog = self.services.catalog
        if fresh:
            await catalog.refresh()
        caps, warehouses, locations = await catalog.catalogue()
        # Tuples once per load: ``ctx()`` is asked for at every step of a walk.
        self._catalog = (caps, tuple(warehouses), tuple(locations))
        self._ctx = None

    def ctx(self) -> Context:
        """What the steps look at. The same value until the walk enters another flow or the
        catalog is loaded again: it reads the session, which the walk updates in place."""
        assert self._catalog is not None, "load() first"
        flow = self.flow
        if self._ctx is not None and self._ctx.flow is flow:
            return self._ctx
        caps, warehouses, locations = self._catalog
        self._ctx = Context(
            session=self.work,
            flow=flow,
            caps=caps,
            warehouses=warehouses,
            locations=locations,
            phone_region=self.phone_region,
            geocoder=self.services.geocoder,
            catalogue=self.catalogue,
            codes_by_link=self.services.codes_by_link,
        )
        return self._ctx

    def turn(self) -> Turn:
        return Turn(
            messages=tuple(self.messages),
            prompt=self.prompt,
            status=self.work.status,
            effects=tuple(self.effects),
            failures=self.work.failures,
        )

    def end(self, message: str) -> None:
        self.work.status = "ended"
        self.work.step = None
        self.messages.append(message)
        self.prompt = None

    def halt(self, problem: str) -> None:
        """The flow cannot go on, for ``problem`` (a guard's or a ``Stop``'s message): a
        business with no payment method switched on holds the order, anything else ends it."""
        if problem == rules.SETTINGS_BROKEN.render(self.catalogue):
            self.hold()
        else:
            self.end(problem)

    def alert_operators(self, text: str | None) -> None:
        """The turn's operator alert is ``text`` (None: none); the last one of a turn wins."""
        self.effects = [e for e in self.effects if not isinstance(e, OperatorAlert)]
        if text is not None:
            self.effects.append(OperatorAlert(text=text))

    def hold(self) -> None:
        """No payment method is switched on, so nothing can be created until the business
        fixes its settings: the draft stays where it is (the session stays open), the customer
        is told in one sentence with a Try again option, and the operators what to fix."""
        kept = bool(self.work.answers)
        if self.work.step is None or self.work.step not in self.flow:
            self.work.step = self.flow.start
        self.work.prompt_version += 1  # older buttons are stale now
        self.work.pending = None
        staff = self.catalogue.for_business()  # the operators', whoever's turn this is
        self.alert_operators(dialogue.NO_PAYMENT_METHOD_ALERT.render(staff))
        self.prompt = Prompt(
            step=self.work.step,
            version=self.work.prompt_version,
            text=dialogue.order_held(self.catalogue, kept=kept),
            input="choice",
            accepts=("choice",),
            options=(Option(id=TRY_AGAIN, label=dialogue.TRY_AGAIN.render(self.catalogue)),),
            commands=("cancel",),
        )

    def current_step(self) -> str:
        assert self.work.step is not None
        return self.work.step

    def guard_problem(self) -> str | None:
        guard = self.flow.guard
        return guard(self.ctx()) if guard else None

    async def enter_flow(self, name: str) -> None:
        self.work.flow = name
        self.work.flow_version = self.flow.version
        problem = self.guard_problem()
        if problem:
            self.halt(problem)
            return
        await self.move(self.flow.start)

    @abstractmethod
    async def submit(self) -> None:
        """The summary was confirmed: build the request and create the delivery."""

    # --- answers, through the ledger ---------------------------------------------------------

    def record(
        self,
        name: str,
        value: JsonValue,
        fills: Mapping[str, JsonValue] | None = None,
        *,
        auto: bool = False,
    ) -> None:
        ledger.record(self.work, self.flow, name, value, fills, auto=auto)

    def clear(self, name: str) -> None:
        ledger.clear(self.work, self.flow, name)

    def remember_visit(self, name: str) -> None:
        ledger.remember_visit(self.work, self.flow, name)

    # --- moving through the graph -------------------------------------------------------------

    async def move(
        self, target: Target | None, *, revisit: bool = False, after: str | None = None
    ) -> None:
        """Walk to the next step that needs the customer, answering what answers itself.

        ``after`` is the step the customer just answered: while they fix the order from the
        summary, steps built on it are asked again (see ``passes_over``).
        """
        for _ in range(_MAX_MOVES):
            first, revisit = revisit, False
            if target is None:
                raise FlowError(f"{self.work.flow}: a branch after {self.work.step} has no route")
            if isinstance(target, Handoff):
                await self.enter_flow(target.flow)
                return
            if isinstance(target, CreateDelivery):
                await self.submit()
                return
            step = self.flow.step(target)
            ctx = self.ctx()
            if self.passes_over(step, ctx, first, after):
                target = self.flow.onward(step, ctx)
                continue
            if step.summary and self.drop_outdated_answers(ctx):
                target = self.flow.start
                continue
            preset = self.preset_of(step, ctx, first)
            if preset is not None:
                ledger.preset(self.work, self.flow, step.name, preset.value)
                target = self.flow.next_target(step, ctx)
                continue
            asked = await self.ask(step, ctx)
            if isinstance(asked, Stop):
                self.halt(asked.message)
                return
            if isinstance(asked, Reask):
                self.messages.append(asked.note)
                self.clear(asked.step)
                # Back to the summary once the cleared answer is given again, when it was met.
                self.work.editing = self.flow.summary_step is not None and any(
                    visit.step == self.flow.summary_step.name for visit in self.work.history
                )
                target = asked.step
                continue
            if isinstance(asked, AutoAnswer):
                if asked.note and self.work.answers.get(step.name) != asked.value:
                    self.messages.append(asked.note)
                self.record(step.name, asked.value, asked.fills, auto=True)
                target = self.flow.next_target(step, ctx)
                continue
            self.open_step(step, ctx, asked)
            return
        raise FlowError(f"{self.work.flow}: the flow loops")

    def open_step(self, step: Step, ctx: Context, asked: Question) -> None:
        """Ask ``step``: a new visit, so a new prompt version."""
        self.work.step = step.name
        self.work.prompt_version += 1
        self.work.failures = 0
        self.work.pending = None
        self.work.cancel_asked = False
        self.work.starting_over = None
        if step.summary:
            self.work.editing = False
        self.prompt = build_prompt(self.flow, ctx, step, asked)

    async def ask(self, step: Step, ctx: Context) -> Ask:
        """What ``step`` asks now, awaited when the step looks something up."""
        asked = step.ask(ctx)
        if isinstance(asked, Question | AutoAnswer | Stop | Reask):
            return asked
        return await asked

    def preset_of(self, step: Step, ctx: Context, revisit: bool) -> Preset | None:
        """The default ``step`` takes without asking: only on the way through, never when the
        customer comes back to it or it already has an answer."""
        if revisit or step.preset is None or step.name in self.work.answers:
            return None
        return step.preset(ctx)

    def passes_over(
        self, step: Step, ctx: Context, revisit: bool, after: str | None = None
    ) -> bool:
        if not step.applies(ctx):
            return True
        if revisit or step.summary or step.name not in self.work.answers:
            return False
        filled_by = self.work.filled_by.get(step.name)
        if self.work.editing and after in step.depends_on and filled_by != after:
            # Built on the answer just given again while fixing the order, even if it did not
            # change: what follows from it is the customer's to confirm (a hostel's room).
            # What that answer filled itself (a venue pin's address) needs no confirming.
            return False
        return filled_by is not None or self.work.editing

    def drop_outdated_answers(self, ctx: Context) -> bool:
        """Before the summary: clear answers the (refreshed) allow-list no longer permits."""
        outdated = [
            step
            for step in self.flow.path(ctx)
            if step.still_valid is not None
            and step.name in self.work.answers
            and not step.still_valid(ctx, self.work.answers[step.name])
        ]
        for step in outdated:
            self.messages.append(
                dialogue.no_longer_offered(ctx.catalogue, step.said_title(ctx.catalogue))
            )
            self.clear(step.name)
        if outdated:
            self.work.editing = True
        return bool(outdated)

    def draft_complete(self, ctx: Context) -> bool:
        """Every step on the route is answered, up to the summary."""
        route = self.flow.path(ctx)
        return bool(route) and route[-1].summary

    async def reshow(self) -> None:
        """Ask the current step again without starting a new visit (the version stays); while
        the customer is asked whether to cancel, that question."""
        if self.work.cancel_asked:
            self.prompt = cancel_prompt(self.catalogue, self.work)
            return
        step, ctx = self.flow.step(self.current_step()), self.ctx()
        if step.summary and self.drop_outdated_answers(ctx):
            # The business changed its settings since the summary was drawn: never show an
            # answer it no longer allows (a raw "cash_on_delivery"); ask for it again.
            await self.move(self.flow.start)
            return
        asked = await self.ask(step, ctx)
        if isinstance(asked, Question):
            self.prompt = build_prompt(self.flow, ctx, step, asked)
        else:
            await self.move(step.name, revisit=True)
