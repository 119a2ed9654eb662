"""A delivery's actions, posted from its page by a dispatcher or an admin (``ConsoleSection``
without a link of its own in the navigation):

=============================================  =================================================
``POST /console/deliveries/{ref}/assign``      ``rider`` (an id of the page's rider list) and
                                               ``seen_rider`` (the rider the page showed, ""
                                               for none)
``POST /console/deliveries/{ref}/unassign``    (only while the API allows: ``matched``)
``POST /console/deliveries/{ref}/cancel``      ``reason``, 3 to 500 characters
=============================================  =================================================

The actions are Telegram's operator commands' (``bot.staff.dispatching``): the same API
rules, the same plain-word refusals, the same audit entries (``assign``, ``unassign``,
``cancel``; ``done`` or ``refused: <code>``), the actor being ``staff:<id>``. Done, the answer
is a 303 back to the page, which says so (``?done=<outcome>``); refused, the page itself with
why (409) and nothing changed; a reason of the wrong length is asked again before the API is
called (400), what was typed kept in the form. A viewer's post, or one without its CSRF token,
is refused by the kit (403, audited); a ``ref`` naming no single delivery gets a plain page
(400 or 404), audited as a refused attempt too.

Two staff assigning one delivery at once: the API would take both (a ``matched`` delivery
may be given to another rider), so assigns of one delivery are taken one at a time, under
its customer's chat lock (shared by every instance on PostgreSQL), and each compares the
delivery's rider now with the one its page showed: the second is told who has it.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from bot.partner import errors
from bot.partner.models import CANCEL_REASON_LENGTH
from bot.staff.dispatching import Dispatched, Dispatcher
from bot.staff.partner_refusals import explain, refused_outcome
from bot.staff_console.console_kit import ConsoleKit, NavEntry, Posted, see, staff_actor
from bot.staff_console.delivery_timeline import TimelineRefused, find_delivery
from bot.staff_console.delivery_view import DeliveryView, delivery_path
from bot.store.delivery_list import ListedDelivery
from conversations.texts.catalogue import Catalogue

_TYPED: int = 64  # the longest ``ref`` read from a URL


class DeliveryActions:
    """Assign, unassign and cancel, from a delivery's page."""

    nav: NavEntry | None = None

    def __init__(self, kit: ConsoleKit) -> None:
        self._kit = kit
        self._dispatcher = Dispatcher(kit.services.client, kit.store.audit)
        self._view = DeliveryView(kit, self._dispatcher)

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/deliveries/{ref}/assign", self.assign, methods=["POST"]),
            Route("/deliveries/{ref}/unassign", self.unassign, methods=["POST"]),
            Route("/deliveries/{ref}/cancel", self.cancel, methods=["POST"]),
        ]

    async def assign(self, request: Request) -> Response:
        """Give the delivery to the posted ``rider``, unless its rider changed since the
        page showed ``seen_rider``."""
        found = await self._posted(request, "assign")
        if isinstance(found, Response):
            return found
        posted, delivery = found
        words = self._kit.catalogue(posted.session)
        rider_id, seen = posted.field("rider"), posted.field("seen_rider")
        actor = staff_actor(posted.session)
        async with self._kit.store.chat_locks.hold(delivery.chat):
            changed = await self._rider_changed(words, delivery.delivery_id, seen)
            if changed is not None:
                await self._kit.audit(
                    posted.session, "assign", delivery.delivery_id, changed.outcome, rider_id
                )
                done = changed
            else:
                done = await self._dispatcher.assign(words, actor, delivery.delivery_id, rider_id)
        return await self._answer(posted, delivery, done, "assigned")

    async def unassign(self, request: Request) -> Response:
        """Take the rider off the delivery (the API allows it only while ``matched``)."""
        found = await self._posted(request, "unassign")
        if isinstance(found, Response):
            return found
        posted, delivery = found
        words = self._kit.catalogue(posted.session)
        actor = staff_actor(posted.session)
        async with self._kit.store.chat_locks.hold(delivery.chat):
            done = await self._dispatcher.unassign(words, actor, delivery.delivery_id)
        return await self._answer(posted, delivery, done, "unassigned")

    async def cancel(self, request: Request) -> Response:
        """Cancel the delivery for the posted ``reason``, asked again when its length is not
        the API's 3 to 500 characters."""
        found = await self._posted(request, "cancel")
        if isinstance(found, Response):
            return found
        posted, delivery = found
        words = self._kit.catalogue(posted.session)
        reason = posted.field("reason")
        low, high = CANCEL_REASON_LENGTH
        if not low <= len(reason) <= high:
            await self._kit.audit(
                posted.session,
                "cancel",
                delivery.delivery_id,
                "refused: reason_length",
                f"{len(reason)} characters",
            )
            text = words.say(
                "console_web.actions.reason_length", count=len(reason), low=low, high=high
            )
            return await self._view.draw(
                posted.request,
                posted.session,
                delivery.delivery_id,
                status=400,
                refusal=text,
                reason=reason,
            )
        actor = staff_actor(posted.session)
        async with self._kit.store.chat_locks.hold(delivery.chat):
            done = await self._dispatcher.cancel(words, actor, delivery.delivery_id, reason)
        return await self._answer(posted, delivery, done, "cancelled", reason=reason)

    async def _posted(
        self, request: Request, action: str
    ) -> tuple[Posted, ListedDelivery] | Response:
        """The dispatcher's post and the delivery its URL names; or the answer refusing it
        (a ``ref`` naming no single delivery is audited as a refused ``action``)."""
        posted = await self._kit.posted(request, "dispatcher")
        if isinstance(posted, Response):
            return posted
        session = posted.session
        catalogue = self._kit.catalogue(session)
        typed = request.path_params["ref"][:_TYPED]
        found = await find_delivery(self._kit.store, catalogue, typed)
        if isinstance(found, ListedDelivery):
            return posted, found
        if found is None:
            await self._kit.audit(session, action, typed, "refused: not_found")
            text = catalogue.say("console_web.delivery.not_found", ref=typed.upper())
            return self._kit.refusal_page(request, session, text, 404)
        assert isinstance(found, TimelineRefused)
        await self._kit.audit(session, action, typed, "refused: not_a_delivery")
        return self._kit.refusal_page(request, session, found.reason, 400)

    async def _rider_changed(
        self, words: Catalogue, delivery_id: str, seen: str
    ) -> Dispatched | None:
        """None when the delivery's rider now is the one the page showed (``seen``, "" for
        none); otherwise why the assign is not made."""
        try:
            now = await self._dispatcher.delivery(delivery_id)
        except errors.PartnerError as error:
            refusal = explain(words, error, delivery_id=delivery_id)
            return Dispatched(refused_outcome(error), refusal=refusal)
        rider = now.rider
        if (rider.id if rider is not None else "") == seen:
            return None
        if rider is None:
            text = words.say("console_web.actions.rider_gone")
        else:
            text = words.say("console_web.actions.rider_changed", rider=rider.name or rider.id)
        return Dispatched("refused: rider_changed", refusal=text)

    async def _answer(
        self,
        posted: Posted,
        delivery: ListedDelivery,
        done: Dispatched,
        outcome: str,
        *,
        reason: str = "",
    ) -> Response:
        """Done: a 303 to the page saying ``outcome``; refused: the page saying why (409)."""
        if done.delivery is not None:
            return see(posted.request, f"{delivery_path(delivery.delivery_id)}?done={outcome}")
        return await self._view.draw(
            posted.request,
            posted.session,
            delivery.delivery_id,
            status=409,
            refusal=done.refusal or done.outcome,
            reason=reason,
        )
