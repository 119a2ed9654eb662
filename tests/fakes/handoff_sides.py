"""Recording sides of a hand-off (``bot.handoff.sides``): what the desk sent each way."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.chat_ref import ChatRef
from bot.handoff.bodies import Body
from bot.store.handoffs import Handoff, StaffPost
from conversations import Turn

STAFF_CHAT = ChatRef("telegram", -100)


@dataclass
class RecordingCustomers:
    """A channel's customers: every body sent and turn shown."""

    sent: list[tuple[ChatRef, Body]] = field(default_factory=list)
    shown: list[Turn] = field(default_factory=list)
    answered_turns: list[Turn] = field(default_factory=list)

    async def send(self, chat: ChatRef, body: Body) -> bool:
        self.sent.append((chat, body))
        return True

    async def show(self, chat: ChatRef, turn: Turn, *, language: str | None) -> None:
        self.shown.append(turn)

    async def answered(self, chat: ChatRef, turn: Turn) -> None:
        self.answered_turns.append(turn)

    def texts(self) -> list[str]:
        return [str(body.get("text")) for _, body in self.sent]


@dataclass
class RecordingStaff:
    """The staff's chat: cards posted and redrawn, customers' messages, lines told."""

    cards: list[str] = field(default_factory=list)
    sent: list[Body] = field(default_factory=list)
    told: list[str] = field(default_factory=list)

    async def post(self, handoff: Handoff, card: str) -> StaffPost | None:
        self.cards.append(card)
        return StaffPost(STAFF_CHAT, len(self.cards))

    async def redraw(self, handoff: Handoff, card: str) -> None:
        self.cards.append(card)

    async def send(self, handoff: Handoff, body: Body) -> bool:
        self.sent.append(body)
        return True

    async def tell(self, handoff: Handoff, text: str) -> None:
        self.told.append(text)
