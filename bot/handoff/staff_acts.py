"""Staff acting on a hand-off, whichever door they came through: the card and replies in the
operators' Telegram chat (``bot.telegram.operators.handoff_staff``) or the web console
(``bot.staff_console.handoffs_section``).

Every door goes through the one desk (``desk.HandoffDesk``), so staff at two doors see each
other's acts: the card is redrawn, the store holds the owner and the messages. A hand-off has
one owner, whoever takes it first by either door (the database decides, ``store.handoffs``);
an answer by someone else takes it first when nobody has it, and is refused, naming the owner,
when somebody does. Each act returns an ``Act``: what happened, said to staff in the business's
words (``staff.*``), so both doors tell the same sentence. A refused attempt the desk does not
write itself (no such hand-off, closed already, somebody else's) is kept in the audit trail.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

from bot.chat_ref import UserRef
from bot.handoff.bodies import LOCATION, Body, coordinates, kind_of
from bot.handoff.desk import Filled, HandoffDesk
from bot.store import StaffMember
from bot.store.handoffs import Handoff
from conversations import LocationAnswer
from conversations.texts.catalogue import Catalogue

CONSOLE_STAFF: Final = "staff"
"""The owner a console member without a messenger account takes a hand-off as:
``staff:<member id>`` (a member who is a Telegram operator takes it as that account, so the
same person is its owner at both doors)."""


@dataclass(frozen=True)
class Operator:
    """A staff member acting on hand-offs: the account a take records as owner, the name
    shown as the owner, the name that signs replies (``[operators] sign_replies``), and who the
    audit trail names."""

    account: UserRef
    name: str
    signer: str
    actor: str

    @classmethod
    def of_member(cls, member: StaffMember) -> Operator:
        """A console member: their messenger account if they have one, else their member id."""
        account = member.account or UserRef(CONSOLE_STAFF, member.id)
        return cls(account, member.name, member.name, f"staff:{member.id}")


class ActKind(enum.Enum):
    """What came of an act."""

    TAKEN = "taken"  # the operator has it (now, or had it already)
    SENT = "sent"  # the answer is on its way to the customer
    FILLED = "filled"  # the order's question was answered for the customer
    CLOSED = "closed"  # given back to the bot; the customer was told
    NO_SUCH = "no_such"  # no hand-off by that reference waits
    ALREADY_CLOSED = "already_closed"
    TAKEN_BY_OTHER = "taken_by_other"  # somebody else has it: nothing done
    BLOCKED = "blocked"  # the customer is blocked: nothing sent (staff's chat told)
    CODE_REFUSED = "code_refused"  # it carried a drop-off code: not sent (staff's chat told)
    FILL_REFUSED = "fill_refused"  # the order's step refused the answer


_WORDS: Final[Mapping[ActKind, str]] = {
    ActKind.TAKEN: "staff.taken_by",
    ActKind.FILLED: "staff.filled",
    ActKind.CLOSED: "staff.closed",
    ActKind.NO_SUCH: "staff.no_such",
    ActKind.ALREADY_CLOSED: "staff.already_closed",
    ActKind.TAKEN_BY_OTHER: "staff.already_taken",
    ActKind.BLOCKED: "staff.reply_blocked",
    ActKind.CODE_REFUSED: "staff.code_refused",
    ActKind.FILL_REFUSED: "staff.fill_refused",
}
_DONE: Final = frozenset({ActKind.TAKEN, ActKind.SENT, ActKind.FILLED, ActKind.CLOSED})
# Refusals the desk already told the operators' chat (and audited): said there only once.
TOLD_BY_DESK: Final = frozenset({ActKind.BLOCKED, ActKind.CODE_REFUSED})


@dataclass(frozen=True)
class Act:
    """What an act did to hand-off ``ref``, and the values its sentence names."""

    kind: ActKind
    ref: str
    values: Mapping[str, str] = field(default_factory=dict)

    @property
    def done(self) -> bool:
        """Whether the act went through (else nothing changed)."""
        return self.kind in _DONE

    def said(self, catalogue: Catalogue) -> str | None:
        """The sentence telling staff what happened; None for a reply sent (nothing to say)."""
        key = _WORDS.get(self.kind)
        return None if key is None else catalogue.say(key, ref=self.ref, **self.values)


async def take(desk: HandoffDesk, ref: str, operator: Operator) -> Act:
    """``operator`` takes hand-off ``ref`` (the first to take it wins)."""
    ref = ref.strip().upper()
    taken = await desk.take(ref, operator.account, operator.name, by=operator.actor)
    if taken is None:
        return await _refused(desk, "take", Act(ActKind.NO_SUCH, ref), operator)
    if taken.handoff.state == "closed":
        return await _refused(desk, "take", Act(ActKind.ALREADY_CLOSED, ref), operator)
    if not taken.owner:
        return await _refused(desk, "take", _owned_by(taken.handoff), operator)
    return Act(ActKind.TAKEN, ref, {"owner": operator.name})


async def answer(desk: HandoffDesk, ref: str, operator: Operator, body: Body) -> Act:
    """``operator``'s message to the customer of ``ref`` (taking it if nobody has it); a
    location shared while the order is at a place question answers that question instead."""
    owned = await _owned(desk, ref, operator, "reply")
    if isinstance(owned, Act):
        return owned
    if kind_of(body) == LOCATION and await desk.takes_place(owned):
        lat, lng = coordinates(body)
        return await fill_place(desk, owned.ref, operator, lat, lng)
    if await desk.reply(owned, body, signer=operator.signer, by=operator.actor):
        return Act(ActKind.SENT, owned.ref)
    # Refused by the desk (which told staff's chat and audited it): a block or a code.
    blocked = await desk.store.customer_blocks.get(owned.user) is not None
    return Act(ActKind.BLOCKED if blocked else ActKind.CODE_REFUSED, owned.ref)


async def fill_place(
    desk: HandoffDesk, ref: str, operator: Operator, lat: float, lng: float
) -> Act:
    """``operator`` answers the order's open question of ``ref`` with the place at ``lat``,
    ``lng``, through the question's own step (taking the hand-off if nobody has it)."""
    owned = await _owned(desk, ref, operator, "fill")
    if isinstance(owned, Act):
        return owned
    outcome = await desk.fill(owned, LocationAnswer(lat=lat, lng=lng), by=operator.actor)
    if isinstance(outcome, Filled):
        return Act(ActKind.FILLED, owned.ref, {"question": outcome.question})
    values = {"question": outcome.question, "reason": outcome.reason}
    return Act(ActKind.FILL_REFUSED, owned.ref, values)


async def close(desk: HandoffDesk, ref: str, operator: Operator) -> Act:
    """``operator`` gives hand-off ``ref`` back to the bot (the customer is told)."""
    ref = ref.strip().upper()
    if await desk.close(ref, by=operator.actor) is not None:
        return Act(ActKind.CLOSED, ref)
    kind = ActKind.ALREADY_CLOSED if await desk.get(ref) is not None else ActKind.NO_SUCH
    return await _refused(desk, "close", Act(kind, ref), operator)


async def _owned(desk: HandoffDesk, ref: str, operator: Operator, action: str) -> Handoff | Act:
    """The waiting hand-off ``ref`` once ``operator`` owns it, or the act refusing it."""
    ref = ref.strip().upper()
    handoff = await desk.get(ref)
    if handoff is not None and await desk.refused_for_block(handoff, by=operator.actor):
        return Act(ActKind.BLOCKED, handoff.ref)  # the desk told staff's chat and audited it
    if handoff is None or not handoff.waiting:
        return await _refused(desk, action, Act(ActKind.NO_SUCH, ref), operator)
    if handoff.owner == operator.account:
        return handoff
    taken = await desk.take(handoff.ref, operator.account, operator.name, by=operator.actor)
    if taken is None or taken.handoff.state == "closed":
        return await _refused(desk, action, Act(ActKind.NO_SUCH, ref), operator)
    if not taken.owner:
        return await _refused(desk, action, _owned_by(taken.handoff), operator)
    return taken.handoff


def _owned_by(handoff: Handoff) -> Act:
    return Act(ActKind.TAKEN_BY_OTHER, handoff.ref, {"owner": handoff.owner_name or "-"})


async def _refused(desk: HandoffDesk, action: str, act: Act, operator: Operator) -> Act:
    """``act`` (nothing changed), kept in the audit trail as an attempt."""
    outcome = f"refused: {act.kind.value}"
    if act.kind == ActKind.TAKEN_BY_OTHER:
        outcome += f" ({act.values['owner']})"
    await desk.store.audit.record(
        operator.actor, f"handoff_{action}", f"hand-off {act.ref}", outcome
    )
    return act
