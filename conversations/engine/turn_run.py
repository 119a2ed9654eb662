"""One turn of the engine: check the answer, apply it, walk on; create the delivery and follow
the decision a refused create carries.

``TurnRun`` works on a copy of the session; the engine copies it back only when the turn
completes. Creating and recovering are methods here, so nothing outside the engine edits a
turn's state.
"""

from __future__ import annotations

from collections.abc import Callable

from pydantic import JsonValue, ValidationError

from conversations import delivery_facts, rules
from conversations.dialog import (
    BACK_TO_SUMMARY,
    EDIT_PREFIX,
    GROUP_PREFIX,
    KEEP,
    TRY_AGAIN,
    Answer,
    AnswerLost,
    ChoiceAnswer,
    CommandAnswer,
    DeliveryCreated,
    Option,
    PhotosAnswer,
    ResendAfter,
    SavedOrder,
    TextAnswer,
    UnconfirmedOrder,
)
from conversations.engine.ledger import REPLAYED, own_fills
from conversations.engine.option_names import option_named
from conversations.engine.prompting import (
    CANCEL_NO,
    CANCEL_YES,
    MAX_FAILURES,
    cancel_prompt,
    editable_steps,
    group_prompt,
    open_group,
    summary_choices,
)
from conversations.engine.walker import Walker
from conversations.flow import Accept, FlowRegistry, Invalid, Partial, Question, Redo, Result, Step
from conversations.order.request import CreateDeliveryRequest
from conversations.outcome import CreateOutcome, Refused
from conversations.places import remembered_key
from conversations.refusals import decide
from conversations.services import BeforeCreate, Services, ServiceUnavailable
from conversations.session import Session
from conversations.texts import dialogue, money_texts
from conversations.texts.catalogue import SHIPPED, SOURCE_LANGUAGE, Catalogue


class TurnRun(Walker):
    """One turn in progress over a working copy of the session (the engine's inside).

    ``before_create`` saves the session once the idempotency key is made, before the create
    goes out; ``new_idempotency_key`` makes that key; ``creates`` goes to the creator as its
    ``turn``, unread.
    """

    def __init__(
        self,
        registry: FlowRegistry,
        services: Services,
        phone_region: str,
        work: Session,
        catalogue: Catalogue,
        *,
        new_idempotency_key: Callable[[], str],
        before_create: BeforeCreate | None = None,
        creates: object = None,
    ) -> None:
        super().__init__(registry, services, phone_region, work, catalogue)
        self.new_idempotency_key = new_idempotency_key
        self.before_create = before_create
        self.creates = creates

    # --- entry points -------------------------------------------------------------------------

    async def begin(self) -> None:
        await self.load()
        await self.enter_flow(self.usable_flow())

    async def replay(self, order: SavedOrder) -> None:
        """Start this session's flow with ``order``'s answers given again: the walk passes over
        them, asks what cannot be reused (photos), and the summary drops what today's
        allow-list no longer permits and asks it again."""
        await self.load()
        usable = self.usable_flow()
        if usable != self.work.flow:
            await self.enter_flow(usable)
            return
        flow = self.flow
        dropped: list[str] = []
        for step in flow.steps:
            if step.name not in order.answers:
                continue
            if not step.replay:
                dropped.append(step.said_title(self.catalogue))
                continue
            self.work.answers[step.name] = order.answers[step.name]
            self.work.filled_by[step.name] = REPLAYED
        self.messages.append(dialogue.repeating(self.catalogue, flow.menu_label(self.catalogue)))
        if dropped:
            self.messages.append(dialogue.not_reused(self.catalogue, dropped))
        await self.enter_flow(flow.name)

    def usable_flow(self) -> str:
        """This session's flow, or the entry flow when the business cannot use the one asked
        for by name (a link, a command, a repeat) today: the customer is told why, and the
        entry flow offers only what can be used."""
        problem = self.guard_problem()
        held = problem == rules.SETTINGS_BROKEN.render(self.catalogue)
        if not problem or held or self.work.flow == self.registry.entry:
            return self.work.flow  # a business with no payment method holds any flow's order
        self.messages.append(problem)
        self.work.entry_flow = self.registry.entry
        return self.registry.entry

    async def resume(self) -> None:
        if self.work.finished:
            self.messages.append(dialogue.CLOSED.render(self.catalogue))
            return
        if not await self.still_current() or self.blocked():
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
            remembered=self.work.remembered,
            sender_phone_owner=self.work.sender_phone_owner,
        )
        for name in Session.model_fields:
            setattr(self.work, name, getattr(fresh, name))
        if entry is None:
            self.end(dialogue.FLOW_GONE.render(self.catalogue))
            return
        if lost:
            self.messages.append(dialogue.RESTARTED.render(self.catalogue))
        await self.begin()

    async def handle(self, answer: Answer) -> None:
        if self.work.finished:
            self.messages.append(dialogue.CLOSED.render(self.catalogue))
            return
        if not await self.still_current():
            return
        cancelling = isinstance(answer, CommandAnswer) and answer.name == "cancel"
        if not cancelling and self.blocked():
            return
        if self.is_stale(answer):
            self.messages.append(dialogue.STALE.render(self.catalogue))
            await self.reshow()
            return
        if self.work.cancel_asked and await self.answer_cancel_question(answer):
            return
        if isinstance(answer, ChoiceAnswer) and answer.option == TRY_AGAIN:
            await self.move(self.current_step(), revisit=True)  # the hold is over: ask again
            return
        step = self.flow.step(self.current_step())
        if step.summary and await self.summary_menu(step, answer):
            return
        if isinstance(answer, CommandAnswer) and answer.name not in ("skip", "done"):
            await self.command(answer)
            return
        picked = answer.option if isinstance(answer, ChoiceAnswer) else ""
        if step.summary and picked.startswith(EDIT_PREFIX):
            await self.edit(picked.removeprefix(EDIT_PREFIX))
            return
        asked = await self.ask(step, self.ctx())
        if not isinstance(asked, Question):
            await self.move(step.name, revisit=True)  # the settings changed under this step
            return
        answer = _as_option(asked, answer)
        if (
            isinstance(answer, PhotosAnswer)
            and "photos" not in asked.accepts
            and await self.add_photos(answer)
        ):
            return
        kept = isinstance(answer, ChoiceAnswer) and answer.option == KEEP
        await self.apply(step, await self.answer_step(step, asked, answer), kept=kept)

    async def summary_menu(self, step: Step, answer: Answer) -> bool:
        """The summary's groups of "Change ..." options: a group's option opens its own menu
        of fields; there a field is changed, and back (or "Back to the summary") shows the
        summary again. False when ``answer`` is for the summary's own handling."""
        ctx = self.ctx()
        found = open_group(self.flow, ctx)
        if found is None:
            picked = _picked(answer, summary_choices(self.flow, ctx))
            if not picked.startswith(GROUP_PREFIX):
                return False
            self.show_group(picked.removeprefix(GROUP_PREFIX))
            await self.reshow()
            return True
        menu = group_prompt(ctx, step, found[1])
        picked = _picked(answer, menu.options)
        back = isinstance(answer, CommandAnswer) and answer.name == "back"
        if back or picked == BACK_TO_SUMMARY:
            self.show_group(None)
            await self.reshow()
        elif picked.startswith(EDIT_PREFIX):
            await self.edit(picked.removeprefix(EDIT_PREFIX))
        elif isinstance(answer, CommandAnswer):
            return False  # cancel, help: as anywhere else
        else:
            await self.apply(step, Invalid(dialogue.PICK_AN_OPTION.render(self.catalogue)))
        return True

    def show_group(self, group: str | None) -> None:
        """The summary shows ``group``'s menu (None: the summary), as a new prompt, so a tap
        on the keyboard it replaces is refused as stale."""
        self.work.pending = group
        self.work.prompt_version += 1

    def blocked(self) -> bool:
        """True (after holding or ending the order) when the business's settings no longer let
        this flow go on: checked at every turn, so nobody answers questions for nothing."""
        problem = self.guard_problem()
        if problem:
            self.halt(problem)
        return problem is not None

    async def add_photos(self, answer: PhotosAnswer) -> bool:
        """Photos that come after the photo step went on (more sent on second thought, or an
        album split across bot processes) are added to its answer, and the open question is asked
        again; False when the route has no answered photo step."""
        ctx = self.ctx()
        found = [
            s for s in self.flow.path(ctx) if s.input == "photos" and s.name in ctx.session.answers
        ]
        if not found:
            return False
        step = found[-1]
        open_pending, self.work.pending = self.work.pending, self.work.answers[step.name]
        try:
            result = await step.accept(self.ctx(), answer)
        finally:
            self.work.pending = open_pending
        if isinstance(result, Accept):
            self.record(step.name, result.value)
            if result.note:
                self.messages.append(result.note)
        elif isinstance(result, Invalid):
            self.messages.append(result.reason)
        await self.reshow()
        return True

    def is_stale(self, answer: Answer) -> bool:
        if answer.step is not None and answer.step != self.work.step:
            return True
        return answer.version is not None and answer.version != self.work.prompt_version

    # --- answering a step ---------------------------------------------------------------------

    async def answer_step(self, step: Step, asked: Question, answer: Answer) -> Result:
        keep = isinstance(answer, ChoiceAnswer) and answer.option == KEEP
        if keep and step.name in self.work.answers:
            return Accept(self.work.answers[step.name], fills=own_fills(self.work, step.name))
        if isinstance(answer, TextAnswer) and not answer.text.strip():
            return Invalid(dialogue.EMPTY_ANSWER.render(self.catalogue))
        if isinstance(answer, CommandAnswer) and answer.name == "skip":
            if asked.allow_skip:
                return Accept(step.skip_value)
            return Invalid(dialogue.NO_SKIP.render(self.catalogue))
        if isinstance(answer, ChoiceAnswer):
            if answer.option not in {o.id for o in asked.options}:
                return Invalid(dialogue.PICK_AN_OPTION.render(self.catalogue))
        elif isinstance(answer, CommandAnswer):
            if answer.name == "done" and asked.photos is None:
                return Invalid(dialogue.wrong_kind(self.catalogue, asked.accepts))
        elif answer.kind not in asked.accepts:
            return Invalid(dialogue.wrong_kind(self.catalogue, asked.accepts))
        return await step.accept(self.ctx(), answer)

    async def apply(self, step: Step, result: Result, *, kept: bool = False) -> None:
        """Follow ``result``; ``kept``: the customer kept the answer the step had, so what was
        built on it is not asked again."""
        match result:
            case Invalid(reason=reason):
                self.work.failures += 1
                self.messages.append(reason)
                if self.work.failures >= MAX_FAILURES:
                    self.messages.append(dialogue.STUCK.render(self.catalogue))
                await self.reshow()
            case Partial(pending=pending, note=note, new_options=new_options):
                self.work.pending = pending
                if note:
                    self.messages.append(note)
                if new_options:
                    self.work.prompt_version += 1
                await self.reshow()
            case Redo(step=target, note=note, answer=answer):
                self.clear(target)
                if note:
                    self.messages.append(note)
                if answer is None:
                    await self.move(target, revisit=True)
                    return
                self.record(target, answer)
                self.remember_visit(target)
                await self.move(self.flow.next_target(self.flow.step(target), self.ctx()))
            case Accept(value=value, fills=fills, note=note):
                if note:
                    self.messages.append(note)
                if not step.summary:
                    self.record(step.name, value, fills)
                    self.remember_visit(step.name)
                after = None if kept else step.name
                await self.move(self.flow.next_target(step, self.ctx()), after=after)

    # --- commands -----------------------------------------------------------------------------

    async def command(self, answer: CommandAnswer) -> None:
        match answer.name:
            case "cancel" if self.answers_to_lose():
                self.work.cancel_asked = True
                self.work.prompt_version += 1
                self.prompt = cancel_prompt(self.catalogue, self.work)
            case "cancel":
                self.cancel_order()
            case "help":
                step = self.flow.step(self.current_step())
                self.messages.append(
                    step.said_help(self.catalogue) or dialogue.help_for(self.catalogue, step.input)
                )
                self.messages.append(dialogue.COMMANDS.render(self.catalogue))
                await self.reshow()
            case "back":
                await self.back()
            case "edit":
                await self.edit(answer.target or "")

    def answers_to_lose(self) -> bool:
        """Whether cancelling loses something the customer gave (not only answers that
        answered themselves)."""
        given = any(name not in self.work.auto_answered for name in self.work.answers)
        return given or bool(self.work.pending)

    def cancel_order(self) -> None:
        self.work.status = "cancelled"
        self.work.step = None
        self.work.cancel_asked = False
        self.work.starting_over = None
        self.messages.append(dialogue.CANCELLED.render(self.catalogue))

    async def start_over(self, flow: str | None) -> None:
        """A new order in ``flow`` (the entry flow when None) instead of this one: asked first
        when answers would be lost, as cancelling is; asked again (``/new`` twice), it is yes."""
        wanted = flow or self.registry.entry
        if self.work.cancel_asked and self.work.starting_over is not None:
            await self.begin_new(self.work.starting_over)
            return
        if not self.work.finished and self.work.step is not None and self.answers_to_lose():
            self.work.cancel_asked = True
            self.work.starting_over = wanted
            self.work.prompt_version += 1
            self.prompt = cancel_prompt(self.catalogue, self.work)
            return
        await self.begin_new(wanted)

    async def begin_new(self, flow: str) -> None:
        """This session becomes a new order of ``flow``: the same id, customer and what they
        are remembered by; the prompt version goes on, so older buttons are stale."""
        entry = self.registry[flow]
        fresh = Session(
            id=self.work.id,
            entry_flow=entry.name,
            flow=entry.name,
            flow_version=entry.version,
            customer=self.work.customer,
            prompt_version=self.work.prompt_version,
            remembered=self.work.remembered,
            sender_phone_owner=self.work.sender_phone_owner,
        )
        for name in Session.model_fields:
            setattr(self.work, name, getattr(fresh, name))
        await self.begin()

    async def answer_cancel_question(self, answer: Answer) -> bool:
        """The reply to "Cancel this order?" (or "Start a new order?"): yes (or cancel again)
        cancels (or starts the new order); no (or back) goes on at the open step, everything
        kept. Anything else goes on too, and is the answer to the open step (False: not
        handled here)."""
        self.work.cancel_asked = False
        starting_over, self.work.starting_over = self.work.starting_over, None
        reply = _cancel_reply(answer)
        cancelling = isinstance(answer, CommandAnswer) and answer.name == "cancel"
        if reply == CANCEL_YES and starting_over is not None and not cancelling:
            await self.begin_new(starting_over)
            return True
        if reply == CANCEL_YES:
            self.cancel_order()
            return True
        self.work.prompt_version += 1  # the step's question again, as a new prompt
        if reply == CANCEL_NO:
            await self.reshow()
            return True
        return False

    async def back(self) -> None:
        if not self.work.history:
            self.messages.append(dialogue.FIRST_QUESTION.render(self.catalogue))
            await self.reshow()
            return
        if self.flow.step(self.current_step()).summary:
            # Back from the summary fixes one answer: once it is given, the walk passes over
            # everything still answered, straight back to the summary.
            self.work.editing = True
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
            self.messages.append(dialogue.EDIT_FROM_SUMMARY.render(self.catalogue))
            await self.reshow()
            return
        ctx = self.ctx()
        editable = editable_steps(self.flow, ctx)
        if target not in {s.name for s in editable}:
            self.messages.append(
                dialogue.can_change(self.catalogue, [s.title_in(ctx) for s in editable])
            )
            await self.reshow()
            return
        self.remember_visit(step.name)
        self.work.editing = True
        await self.move(target, revisit=True)

    # --- creating -----------------------------------------------------------------------------

    async def submit(self) -> None:
        """Build the request from the draft and create it (the summary was confirmed)."""
        if self.blocked():
            return
        ctx = self.ctx()
        if self.drop_outdated_answers(ctx) or not self.draft_complete(ctx):
            # The allow-list changed since the summary was shown: ask what it now needs.
            self.work.editing = True
            await self.move(self.flow.start)
            return
        try:
            draft = self.flow.assemble(ctx)
        except ValidationError as error:
            await self.recover(_refused_by_model(error))
            return
        if self.work.idempotency_key is None:
            self.work.idempotency_key = self.new_idempotency_key()
            if self.before_create is not None:
                await self.before_create(self.work)
        request = draft.model_copy(update={"idempotencyKey": self.work.idempotency_key})
        outcome: CreateOutcome
        try:
            outcome = await self.services.creator.create(request, self.creates, flow=self.work.flow)
        except ServiceUnavailable:
            outcome = decide("unavailable")
        if isinstance(outcome, Refused) and outcome.outcome_unknown:
            self.await_outcome(request)
            return
        if isinstance(outcome, Refused):
            await self.recover(outcome)
            return
        self.work.status = "created"
        self.work.step = None
        self.work.delivery_id = outcome.delivery.id
        self.work.delivery_status = outcome.delivery.status
        self.work.tracking_url = outcome.delivery.tracking_url
        paying = money_texts.after_create(
            self.catalogue,
            ctx.caps,
            outcome.delivery,
            request.customerCollectionMethod,
            self.services.online_payment,
        )
        told = delivery_facts.told_by_create(outcome.delivery, fee_said=bool(paying))
        self.effects.append(
            DeliveryCreated(
                delivery=outcome.delivery, request=request, order=self.saved_order(), told=told
            )
        )
        self.messages.extend(dialogue.created(self.catalogue, outcome.delivery, paying))
        self.prompt = None

    def await_outcome(self, request: CreateDeliveryRequest) -> None:
        """The create's answer was lost, so the delivery may exist: never "not sent". The order
        ends here, and the turn hands the runner what it needs to finish the create (the same
        request, the same key) and to link the delivery when the service answers."""
        self.work.status = "unconfirmed"
        self.work.step = None
        lost = UnconfirmedOrder(request=request, order=self.saved_order())
        self.effects.append(AnswerLost(unconfirmed=lost))
        self.messages.append(dialogue.CHECKING.render(self.catalogue))
        self.prompt = None

    def saved_order(self) -> SavedOrder:
        """The answers of the flow that made the delivery (what "repeat" replays)."""
        flow = self.flow
        answers: dict[str, JsonValue] = {
            name: value for name, value in self.work.answers.items() if name in flow
        }
        return SavedOrder(flow=flow.name, flow_version=flow.version, answers=answers)

    async def recover(self, refused: Refused) -> None:
        """Follow the refusal's decision: tell the customer (and maybe the operators), refresh
        what must be, and ask again the answers it concerns."""
        # The last refusal of the turn says what the operators and the runner must do; the
        # operators read it in the business's language, whoever's turn raised it.
        self.alert_operators(dialogue.operator_alert(self.catalogue.for_business(), refused))
        self.effects = [e for e in self.effects if not isinstance(e, ResendAfter)]
        if refused.retry_after is not None:
            self.effects.append(ResendAfter(seconds=refused.retry_after))
        if not refused.keep_key:
            self.work.idempotency_key = None
        if refused.refresh:
            await self.load(fresh=True)
        if self.guard_problem() == rules.SETTINGS_BROKEN.render(self.catalogue):
            self.hold()  # one sentence: no payment method at all, whatever was refused
            return
        ctx = self.ctx()
        steps: list[str] = []
        titles: list[str] = []
        elsewhere = False
        for name in refused.reask:
            found = self.flow.steps_for_field(name, ctx)
            elsewhere = elsewhere or not found
            steps += [step for step in found if step not in steps]
            # Named by the step's title; a field no step asks is not named at all (its request
            # name means nothing to a customer). The service's words stay in the log.
            title = (
                self.flow.step(found[0]).said_title(self.catalogue)
                if found
                else self.earlier_title(name)
            )
            if title and title not in titles:
                titles.append(title)
        self.messages.append(dialogue.refusal(self.catalogue, refused, titles))
        if elsewhere and await self.reask_in_earlier_flow(refused.reask):
            return
        if self.blocked():
            return
        summary = self.flow.summary_step
        assert summary is not None, "a flow that creates has a summary (checked when declared)"
        if not steps:
            await self.move(summary.name, revisit=True)
            return
        if refused.reason == "coverage":
            self.remember_out_of_area(steps)
        for name in steps:
            self.clear(name)
        self.remember_visit(summary.name)
        self.work.editing = True
        await self.move(self.flow.start)

    def remember_out_of_area(self, steps: list[str]) -> None:
        """The places of ``steps`` the service refused as out of its area: not again."""
        answers = self.ctx().answers
        for name in steps:
            key = remembered_key(answers, name)
            if key is not None and key not in self.work.out_of_area:
                self.work.out_of_area.append(key)

    def earlier_title(self, field: str) -> str | None:
        """The title of the step of an earlier flow (the entry's choice of service) that
        fills ``field``, or None when no step the customer went through does."""
        for visit in reversed(self.work.history):
            flow = self.registry.get(visit.flow)
            if flow is not None and visit.step in flow:
                step = flow.step(visit.step)
                if field.split(".", 1)[0] in step.fields:
                    return step.said_title(self.catalogue)
        return None

    async def reask_in_earlier_flow(self, fields: tuple[str, ...]) -> bool:
        """Back to a step of a flow that handed off to this one (the entry's choice of service)
        when it is what fills one of ``fields``; False when no earlier step does."""
        wanted = {name.split(".", 1)[0] for name in fields}
        for visit in reversed(self.work.history):
            flow = self.registry.get(visit.flow)
            if flow is None or flow.name == self.work.flow or visit.step not in flow:
                continue
            if wanted & set(flow.step(visit.step).fields):
                summary = self.flow.summary_step
                if summary is not None:
                    self.remember_visit(summary.name)
                self.work.flow = flow.name  # so the answer is cleared in the flow it belongs to
                self.clear(visit.step)
                self.work.editing = True
                await self.enter_flow(flow.name)
                return True
        return False


def _refused_by_model(error: ValidationError) -> Refused:
    """A request the flow built fails our own model: the same decision as the service's
    validation refusal naming those fields."""
    field_errors: dict[str, list[str]] = {}
    for item in error.errors():
        name = ".".join(str(part) for part in item["loc"])
        field_errors.setdefault(name, []).append(str(item["msg"]))
    return decide("validation", field_errors=field_errors)


def _picked(answer: Answer, options: tuple[Option, ...] | list[Option]) -> str:
    """The option id ``answer`` picks: a tap's, or that of the option typed text names."""
    if isinstance(answer, ChoiceAnswer):
        return answer.option
    if isinstance(answer, TextAnswer):
        found = option_named(answer.text, options, prefixes=True)
        return found.id if found is not None else ""
    return ""


def _as_option(asked: Question, answer: Answer) -> Answer:
    """Typed text that names an option counts as tapping it (``option_named``)."""
    if not isinstance(answer, TextAnswer) or not asked.options:
        return answer
    found = option_named(answer.text, asked.options, prefixes="text" not in asked.accepts)
    if found is None:
        return answer
    return ChoiceAnswer(option=found.id, step=answer.step, version=answer.version)


# The source language's words, as ever (the options are what a customer taps in any language).
_YES_WORDS = frozenset({"yes", "y", SHIPPED[SOURCE_LANGUAGE]["dialogue.cancel_yes"].casefold()})
_NO_WORDS = frozenset({"no", "n", SHIPPED[SOURCE_LANGUAGE]["dialogue.cancel_no"].casefold()})


def _cancel_reply(answer: Answer) -> str | None:
    """``CANCEL_YES`` or ``CANCEL_NO`` when ``answer`` replies to the cancel question."""
    if isinstance(answer, ChoiceAnswer) and answer.option in (CANCEL_YES, CANCEL_NO):
        return answer.option
    if isinstance(answer, CommandAnswer):
        return {"cancel": CANCEL_YES, "back": CANCEL_NO}.get(answer.name)
    if isinstance(answer, TextAnswer):
        typed = " ".join(answer.text.split()).casefold()
        if typed in _YES_WORDS:
            return CANCEL_YES
        if typed in _NO_WORDS:
            return CANCEL_NO
    return None
