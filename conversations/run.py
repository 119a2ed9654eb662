"""One turn of the engine: check the answer, apply it, and walk the graph to the next question.

``Run`` works on a copy of the session; the engine copies it back only when the turn completes.
Walking the graph (``move``) passes over steps that do not apply, steps another answer already
filled, steps that answer themselves (one allowed option), and, while the customer fixes
something from the summary, steps that still have their answers.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import TYPE_CHECKING

from pydantic import JsonValue

from bot.partner.models import (
    Capabilities,
    CreateDeliveryRequest,
    Delivery,
    ServiceLocation,
    Warehouse,
)
from conversations import ledger
from conversations.context import Context
from conversations.creating import submit
from conversations.dialog import (
    EDIT_PREFIX,
    KEEP,
    Answer,
    ChoiceAnswer,
    CommandAnswer,
    Prompt,
    TextAnswer,
    Turn,
)
from conversations.flow import (
    Accept,
    Ask,
    AutoAnswer,
    CreateDelivery,
    Flow,
    FlowError,
    Handoff,
    Invalid,
    Partial,
    Question,
    Redo,
    Result,
    Step,
    Stop,
    Target,
)
from conversations.ledger import own_fills
from conversations.prompting import MAX_FAILURES, build_prompt, editable_steps
from conversations.session import Session
from conversations.texts import dialogue as wording

if TYPE_CHECKING:
    from conversations.engine import Engine

_MAX_MOVES = 500  # more steps than any flow has: a loop in a flow is a bug, not a hang


class Run:
    """One turn in progress over a working copy of the session (the engine's inside)."""

    def __init__(self, engine: Engine, work: Session) -> None:
        self.registry = engine.registry
        self.services = engine.services
        self.phone_region = engine.phone_region
        self.new_idempotency_key = engine.new_idempotency_key
        self.work = work
        self.messages: list[str] = []
        self.prompt: Prompt | None = None
        self.delivery: Delivery | None = None
        self.request: CreateDeliveryRequest | None = None
        self.operator_alert: str | None = None
        self.retry_after: float | None = None
        self._catalog: (
            tuple[Capabilities, tuple[Warehouse, ...], tuple[ServiceLocation, ...]] | None
        ) = None

    # --- plumbing -----------------------------------------------------------------------------

    @property
    def flow(self) -> Flow:
        return self.registry[self.work.flow]

    async def load(self, *, fresh: bool = False) -> None:
        catalog = self.services.catalog
        if fresh:
            await catalog.refresh()
        caps, warehouses, locations = await asyncio.gather(
            catalog.capabilities(), catalog.warehouses(), catalog.service_locations()
        )
        # Tuples once per load: ``ctx()`` is built at every step of a walk.
        self._catalog = (caps, tuple(warehouses), tuple(locations))

    def ctx(self) -> Context:
        assert self._catalog is not None, "load() first"
        caps, warehouses, locations = self._catalog
        return Context(
            session=self.work,
            flow=self.flow,
            caps=caps,
            warehouses=warehouses,
            locations=locations,
            phone_region=self.phone_region,
            geocoder=self.services.geocoder,
            history=self.services.history,
        )

    def turn(self) -> Turn:
        return Turn(
            messages=tuple(self.messages),
            prompt=self.prompt,
            status=self.work.status,
            delivery=self.delivery,
            request=self.request,
            operator_alert=self.operator_alert,
            retry_after=self.retry_after,
        )

    def end(self, message: str) -> None:
        self.work.status = "ended"
        self.work.step = None
        self.messages.append(message)
        self.prompt = None

    # --- entry points -------------------------------------------------------------------------

    async def begin(self) -> None:
        await self.load()
        await self.enter_flow(self.work.flow)

    async def enter_flow(self, name: str) -> None:
        self.work.flow = name
        self.work.flow_version = self.flow.version
        guard = self.flow.guard
        problem = guard(self.ctx()) if guard else None
        if problem:
            self.end(problem)
            return
        await self.move(self.flow.start)

    async def resume(self) -> None:
        if self.work.finished:
            self.messages.append(wording.CLOSED)
            return
        if not await self.still_current():
            return
        await self.reshow()

    async def still_current(self) -> bool:
        """False (after restarting politely) when the stored position no longer exists."""
        flow = self.registry.get(self.work.flow)
        if flow is not None and self.work.step is not None and self.work.step in flow:
            await self.load()
            return True
        await self.restart()
        return False

    async def restart(self) -> None:
        entry = self.registry.get(self.work.entry_flow)
        lost = self.work.step is not None
        fresh = Session(
            id=self.work.id,
            entry_flow=self.work.entry_flow,
            flow=self.work.entry_flow,
            flow_version=entry.version if entry else 0,
            customer=self.work.customer,
            prompt_version=self.work.prompt_version,
        )
        for name in Session.model_fields:
            setattr(self.work, name, getattr(fresh, name))
        if entry is None:
            self.end(wording.FLOW_GONE)
            return
        if lost:
            self.messages.append(wording.RESTARTED)
        await self.begin()

    async def handle(self, answer: Answer) -> None:
        if self.work.finished:
            self.messages.append(wording.CLOSED)
            return
        if not await self.still_current():
            return
        if self.is_stale(answer):
            self.messages.append(wording.STALE)
            await self.reshow()
            return
        if isinstance(answer, CommandAnswer) and answer.name not in ("skip", "done"):
            await self.command(answer)
            return
        step = self.flow.step(self.current_step())
        picked = answer.option if isinstance(answer, ChoiceAnswer) else ""
        if step.summary and picked.startswith(EDIT_PREFIX):
            await self.edit(picked.removeprefix(EDIT_PREFIX))
            return
        asked = await self.ask(step, self.ctx())
        if not isinstance(asked, Question):
            await self.move(step.name, revisit=True)  # the settings changed under this step
            return
        await self.apply(step, await self.answer_step(step, asked, answer))

    def current_step(self) -> str:
        assert self.work.step is not None
        return self.work.step

    def is_stale(self, answer: Answer) -> bool:
        if answer.step is not None and answer.step != self.work.step:
            return True
        return answer.version is not None and answer.version != self.work.prompt_version

    # --- answering a step ---------------------------------------------------------------------

    async def answer_step(self, step: Step, asked: Question, answer: Answer) -> Result:
        answer = _as_option(asked, answer)
        keep = isinstance(answer, ChoiceAnswer) and answer.option == KEEP
        if keep and step.name in self.work.answers:
            return Accept(self.work.answers[step.name], fills=own_fills(self.work, step.name))
        if isinstance(answer, CommandAnswer) and answer.name == "skip":
            if asked.allow_skip:
                return Accept(step.skip_value)
            return Invalid(wording.NO_SKIP)
        if isinstance(answer, ChoiceAnswer):
            if answer.option not in {o.id for o in asked.options}:
                return Invalid(wording.PICK_AN_OPTION)
        elif isinstance(answer, CommandAnswer):
            if answer.name == "done" and asked.photos is None:
                return Invalid(wording.wrong_kind(asked.accepts))
        elif answer.kind not in asked.accepts:
            return Invalid(wording.wrong_kind(asked.accepts))
        return await step.accept(self.ctx(), answer)

    async def apply(self, step: Step, result: Result) -> None:
        match result:
            case Invalid(reason=reason):
                self.work.failures += 1
                self.messages.append(reason)
                if self.work.failures >= MAX_FAILURES:
                    self.messages.append(wording.STUCK)
                await self.reshow()
            case Partial(pending=pending, note=note):
                self.work.pending = pending
                self.messages.append(note)
                await self.reshow()
            case Redo(step=target, note=note):
                self.clear(target)
                self.messages.append(note)
                await self.move(target, revisit=True)
            case Accept(value=value, fills=fills, note=note):
                if note:
                    self.messages.append(note)
                if not step.summary:
                    self.record(step.name, value, fills)
                    self.remember_visit(step.name)
                await self.move(self.flow.next_target(step, self.ctx()))

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

    async def move(self, target: Target | None, *, revisit: bool = False) -> None:
        """Walk to the next step that needs the customer, answering what answers itself."""
        for _ in range(_MAX_MOVES):
            first, revisit = revisit, False
            if target is None:
                raise FlowError(f"{self.work.flow}: a branch after {self.work.step} has no route")
            if isinstance(target, Handoff):
                await self.enter_flow(target.flow)
                return
            if isinstance(target, CreateDelivery):
                await submit(self)
                return
            step = self.flow.step(target)
            ctx = self.ctx()
            if self.passes_over(step, ctx, first):
                target = self.flow.onward(step, ctx)
                continue
            if step.summary and self.drop_outdated_answers(ctx):
                target = self.flow.start
                continue
            asked = await self.ask(step, ctx)
            if isinstance(asked, Stop):
                self.end(asked.message)
                return
            if isinstance(asked, AutoAnswer):
                if asked.note and self.work.answers.get(step.name) != asked.value:
                    self.messages.append(asked.note)
                self.record(step.name, asked.value, asked.fills, auto=True)
                target = self.flow.next_target(step, ctx)
                continue
            self.work.step = step.name
            self.work.prompt_version += 1
            self.work.failures = 0
            self.work.pending = None
            if step.summary:
                self.work.editing = False
            self.prompt = build_prompt(ctx, step, asked)
            return
        raise FlowError(f"{self.work.flow}: the flow loops")

    async def ask(self, step: Step, ctx: Context) -> Ask:
        """What ``step`` asks now, awaited when the step looks something up."""
        asked = step.ask(ctx)
        if isinstance(asked, Question | AutoAnswer | Stop):
            return asked
        return await asked

    def passes_over(self, step: Step, ctx: Context, revisit: bool) -> bool:
        if not step.applies(ctx):
            return True
        if revisit or step.summary or step.name not in self.work.answers:
            return False
        return step.name in self.work.filled_by or self.work.editing

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
            self.messages.append(wording.no_longer_offered(step.title))
            self.clear(step.name)
        if outdated:
            self.work.editing = True
        return bool(outdated)

    def draft_complete(self, ctx: Context) -> bool:
        """Every step on the route is answered, up to the summary."""
        route = self.flow.path(ctx)
        return bool(route) and route[-1].summary

    async def reshow(self) -> None:
        """Ask the current step again without starting a new visit (the version stays)."""
        step, ctx = self.flow.step(self.current_step()), self.ctx()
        asked = await self.ask(step, ctx)
        if isinstance(asked, Question):
            self.prompt = build_prompt(ctx, step, asked)
        else:
            await self.move(step.name, revisit=True)

    # --- commands -----------------------------------------------------------------------------

    async def command(self, answer: CommandAnswer) -> None:
        match answer.name:
            case "cancel":
                self.work.status = "cancelled"
                self.work.step = None
                self.messages.append(wording.CANCELLED)
            case "help":
                step = self.flow.step(self.current_step())
                self.messages.append(step.help or wording.help_for(step.input))
                self.messages.append(wording.COMMANDS)
                await self.reshow()
            case "back":
                await self.back()
            case "edit":
                await self.edit(answer.target or "")

    async def back(self) -> None:
        if not self.work.history:
            self.messages.append(wording.FIRST_QUESTION)
            await self.reshow()
            return
        visit = self.work.history.pop()
        if visit.flow != self.work.flow:
            if self.registry.get(visit.flow) is None:
                await self.restart()
                return
            self.work.flow = visit.flow
            self.work.flow_version = self.flow.version
        if visit.step not in self.flow:
            await self.restart()
            return
        await self.move(visit.step, revisit=True)

    async def edit(self, target: str) -> None:
        step = self.flow.step(self.current_step())
        if not step.summary:
            self.messages.append(wording.EDIT_FROM_SUMMARY)
            await self.reshow()
            return
        editable = editable_steps(self.ctx())
        if target not in {s.name for s in editable}:
            self.messages.append(wording.can_change([s.title for s in editable]))
            await self.reshow()
            return
        self.remember_visit(step.name)
        self.work.editing = True
        await self.move(target, revisit=True)


def _as_option(asked: Question, answer: Answer) -> Answer:
    """Typed text that names an option (its label or id) counts as tapping it."""
    if not isinstance(answer, TextAnswer) or not asked.options:
        return answer
    typed = " ".join(answer.text.split()).casefold()
    for option in asked.options:
        if typed in (option.id.casefold(), option.label.casefold()):
            return ChoiceAnswer(option=option.id, step=answer.step, version=answer.version)
    return answer
