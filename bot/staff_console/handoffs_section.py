"""The hand-offs: the desk of customers waiting for a person and each one's conversation, and
staff's acts on them, the console being another door onto the Telegram card's desk.

==========================================  ====================================================
``GET /console/handoffs``                   the hand-offs not closed (waiting, or taken and by
                                            whom): customer, order and answers, last messages
``GET /console/handoffs/{ref}``             one hand-off: the whole conversation since it
                                            opened, and the forms below
``POST /console/handoffs/{ref}/take``       take it (one owner, whichever door took it first)
``POST /console/handoffs/{ref}/reply``      ``text`` to the customer through their channel
``POST /console/handoffs/{ref}/place``      ``latitude``/``longitude`` answer the order's place
                                            question through its own step (a map pick or typed)
``POST /console/handoffs/{ref}/done``       give the conversation back to the bot
==========================================  ====================================================

Any staff member reads; a dispatcher or an admin acts (CSRF token checked). Every act goes
through ``bot.handoff.staff_acts``, as the Telegram card's buttons and replies do, so the card
is redrawn with the owner when the console takes it, and a console reply or place shows in the
card's last messages; what Telegram staff did shows here on the next read. A refused act
changes nothing, is said on a plain page in the business's words, and is in the audit trail
(by the desk or the acts, as ``staff:<member id>``; a malformed form here). Times are in UTC,
as the config names no zone yet.
"""

from __future__ import annotations

import math
import re
from collections.abc import Awaitable, Callable
from datetime import UTC
from typing import Final

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from bot.chat_ref import ChatRef
from bot.config import CONSOLE_PATH
from bot.handoff import staff_acts
from bot.handoff.bodies import text_body
from bot.handoff.staff_acts import Act, ActKind, Operator
from bot.staff_console.console_guard import role_allows
from bot.staff_console.console_kit import ZONE_NAME, ConsoleKit, NavEntry, Posted, see
from bot.staff_console.console_map import ConsoleMap, MapPin, pick_map
from bot.staff_console.handoffs_view import LISTED_MESSAGES, PAGE_MESSAGES, handoff_view
from bot.webapp.place_question import ChatPlaceQuestions
from conversations.texts.catalogue import Catalogue

HANDOFFS: Final = f"{CONSOLE_PATH}/handoffs"
REPLY_LIMIT: Final = 4000
"""The longest reply, in characters: one Telegram message (4096) with room for a signature."""
_REF: Final = re.compile(r"[A-HJ-NP-Z2-9]{6}")
_STATUS: Final = {
    ActKind.NO_SUCH: 404,
    ActKind.CODE_REFUSED: 422,
    ActKind.FILL_REFUSED: 422,
}  # 409 otherwise: the hand-off is not in a state to take it

Action = Callable[[Posted, str, Operator], Awaitable[Act | Response]]


class HandoffsSection:
    """The hand-off desk and each hand-off's page, with their forms."""

    nav = NavEntry(HANDOFFS, "console_web.handoffs.nav")

    def __init__(self, kit: ConsoleKit) -> None:
        self._kit = kit
        self._desk = kit.services.handoffs

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/handoffs", self.listing, methods=["GET"]),
            Route("/handoffs/{ref}", self.handoff, methods=["GET"]),
            Route("/handoffs/{ref}/take", self.take, methods=["POST"]),
            Route("/handoffs/{ref}/reply", self.reply, methods=["POST"]),
            Route("/handoffs/{ref}/place", self.place, methods=["POST"]),
            Route("/handoffs/{ref}/done", self.done, methods=["POST"]),
        ]

    async def listing(self, request: Request) -> Response:
        """Every hand-off not closed, the latest active first."""
        found = await self._kit.viewer(request)
        if isinstance(found, Response):
            return found
        catalogue = self._kit.catalogue(found)
        views = [
            await handoff_view(self._desk, catalogue, UTC, handoff, messages=LISTED_MESSAGES)
            for handoff in await self._desk.waiting()
        ]
        acts = role_allows(found.member.role, "dispatcher")
        return self._kit.page(
            request, "handoffs.html", found, views=views, acts=acts, zone=ZONE_NAME
        )

    async def handoff(self, request: Request) -> Response:
        """One hand-off, its whole conversation, and (to a dispatcher) its forms."""
        found = await self._kit.viewer(request)
        if isinstance(found, Response):
            return found
        catalogue = self._kit.catalogue(found)
        typed = request.path_params["ref"]
        ref = _ref(typed)
        if ref is None:
            text = catalogue.say("console_web.handoffs.refused_ref", ref=typed[:16])
            return self._kit.refusal_page(request, found, text, 400)
        handoff = await self._desk.get(ref)
        if handoff is None:
            text = catalogue.say("console_web.handoffs.not_found", ref=ref)
            return self._kit.refusal_page(request, found, text, 404)
        view = await handoff_view(self._desk, catalogue, UTC, handoff, messages=PAGE_MESSAGES)
        mine = handoff.owner == Operator.of_member(found.member).account
        acts = role_allows(found.member.role, "dispatcher")
        picking = acts and view.takes_place
        return self._kit.page(
            request,
            "handoff.html",
            found,
            view=view,
            acts=acts,
            mine=mine,
            reply_limit=REPLY_LIMIT,
            zone=ZONE_NAME,
            console_map=await self._pick_map(catalogue, handoff.chat) if picking else None,
            map_label=catalogue.say("console_web.handoffs.pick_map"),
        )

    async def _pick_map(self, catalogue: Catalogue, chat: ChatRef) -> ConsoleMap | None:
        """The map a place is picked on, opened over the business's saved places and service
        area as the customer's own map page shows them (``ChatPlaceQuestions``)."""
        questions = ChatPlaceQuestions(self._kit.services.chats)
        question = await questions.question_in(catalogue, chat)
        around: list[MapPin] = []
        if question is not None:
            around += [MapPin(place.lat, place.lng, place.name) for place in question.saved]
            area = catalogue.say("console_web.handoffs.service_area")
            around += [MapPin(c.lat, c.lng, area) for c in question.coverage.circles]
        return pick_map(self._kit.services.map_tiles, around)

    async def take(self, request: Request) -> Response:
        """Take the hand-off: the loser of two takes at once is told who has it."""
        return await self._act(request, "take", self._take)

    async def reply(self, request: Request) -> Response:
        """Send the form's ``text`` to the customer (taking the hand-off if nobody has it)."""
        return await self._act(request, "reply", self._reply)

    async def place(self, request: Request) -> Response:
        """Answer the order's place question with the form's ``latitude`` and ``longitude``."""
        return await self._act(request, "fill", self._place)

    async def done(self, request: Request) -> Response:
        """Give the conversation back to the bot (the customer is told)."""
        return await self._act(request, "close", self._done)

    async def _take(self, posted: Posted, ref: str, operator: Operator) -> Act | Response:
        return await staff_acts.take(self._desk, ref, operator)

    async def _done(self, posted: Posted, ref: str, operator: Operator) -> Act | Response:
        return await staff_acts.close(self._desk, ref, operator)

    async def _reply(self, posted: Posted, ref: str, operator: Operator) -> Act | Response:
        text = posted.field("text")
        if not text or len(text) > REPLY_LIMIT:
            key = "refused_empty" if not text else "refused_long"
            why = "empty" if not text else f"over {REPLY_LIMIT} characters"
            return await self._refuse(posted, "reply", ref, key, why, 400, limit=REPLY_LIMIT)
        act = await staff_acts.answer(self._desk, ref, operator, text_body(text))
        await self._show_on_card(act)
        return act

    async def _place(self, posted: Posted, ref: str, operator: Operator) -> Act | Response:
        pin = _coordinates(posted.field("latitude"), posted.field("longitude"))
        if pin is None:
            why = "not a place"
            return await self._refuse(posted, "fill", ref, "refused_place", why, 400)
        handoff = await self._desk.get(ref)
        if handoff is not None and handoff.waiting and not await self._desk.takes_place(handoff):
            why = "not at a place question"
            return await self._refuse(posted, "fill", ref, "not_at_place", why, 409, ref=ref)
        act = await staff_acts.fill_place(self._desk, ref, operator, *pin)
        await self._show_on_card(act)
        return act

    async def _show_on_card(self, act: Act) -> None:
        """Telegram staff read the console's words on the card's last messages (their own
        replies they see in their chat already)."""
        handoff = await self._desk.get(act.ref) if act.done else None
        if handoff is not None:
            await self._desk.redraw(handoff)

    async def _act(self, request: Request, action: str, run: Action) -> Response:
        """A dispatcher's act on the hand-off of the path: its page again once done, else a
        plain page saying why nothing changed."""
        posted = await self._kit.posted(request, "dispatcher")
        if isinstance(posted, Response):
            return posted
        typed = request.path_params["ref"]
        ref = _ref(typed)
        if ref is None:
            why = "malformed reference"
            return await self._refuse(posted, action, None, "refused_ref", why, 400, ref=typed[:16])
        done = await run(posted, ref, Operator.of_member(posted.session.member))
        if isinstance(done, Response):
            return done
        if done.done:
            return see(request, f"{HANDOFFS}/{ref}")
        said = done.said(self._kit.catalogue(posted.session)) or ""
        return self._kit.refusal_page(request, posted.session, said, _STATUS.get(done.kind, 409))

    async def _refuse(
        self,
        posted: Posted,
        action: str,
        subject_ref: str | None,
        key: str,
        why: str,
        status: int,
        **values: object,
    ) -> Response:
        """A form refused before it reached the desk: audited, said on a plain page."""
        subject = f"hand-off {subject_ref}" if subject_ref is not None else "hand-off"
        await self._kit.audit(posted.session, f"handoff_{action}", subject, f"refused: {why}")
        text = self._kit.catalogue(posted.session).say(f"console_web.handoffs.{key}", **values)
        return self._kit.refusal_page(posted.request, posted.session, text, status)


def _ref(typed: str) -> str | None:
    """The hand-off reference typed in a path (any case, an optional ``#``), or None."""
    ref = typed.strip().lstrip("#").upper()
    return ref if _REF.fullmatch(ref) else None


def _coordinates(latitude: str, longitude: str) -> tuple[float, float] | None:
    """A place from a form's two numbers (a decimal comma taken as a point), or None."""
    try:
        lat, lng = float(latitude.replace(",", ".")), float(longitude.replace(",", "."))
    except ValueError:
        return None
    if not (math.isfinite(lat) and math.isfinite(lng)):
        return None
    if not (-90 <= lat <= 90 and -180 <= lng <= 180):
        return None
    return lat, lng
