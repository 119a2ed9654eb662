"""A customer's data from their console page: ``POST /console/customers/{channel}/{id}/export``
(everything kept about them, downloaded as one JSON file) and ``POST .../forget`` (asked
first, then erased), an admin's only, as blocking them is.

Both are the requests every door makes (``bot.privacy.customer_requests``), audited with the
staff member as ``staff:<id>``. The export is a form post, not a link, so no prefetch or
history replays it and each download is one audited request; it is sent as an attachment and,
like every console answer, kept by no cache. A forget posted without ``confirm=yes`` is
answered with the question (what is erased, what is kept for the books), whose own form posts
it again with it; what the forget did is then shown on a page of its own, since the customer's
page is gone with their data. A customer the bot has no trace of is a 404, and the attempt is
audited.
"""

from __future__ import annotations

from datetime import UTC
from typing import Final

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from bot.chat_ref import UserRef
from bot.privacy.customer_requests import (
    EXPORT_ACTION,
    FORGET_ACTION,
    export_customer,
    forget_customer,
)
from bot.privacy.my_data_file import export_file
from bot.staff_console.console_kit import ConsoleKit, Posted, staff_actor
from bot.staff_console.customers_page import CUSTOMERS, customer_page
from bot.staff_console.customers_section import path_customer, path_named
from conversations.texts.deliveries_texts import short_ref

MANAGES_CUSTOMERS: Final = "admin"
"""The role that exports and forgets customers, as it blocks them."""
CONFIRMED: Final = "yes"


class CustomerDataSection:
    """A customer's export and forget (no page of its own in the navigation)."""

    nav = None

    def __init__(self, kit: ConsoleKit) -> None:
        self._kit = kit

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/customers/{channel}/{user_id}/export", self.export, methods=["POST"]),
            Route("/customers/{channel}/{user_id}/forget", self.forget, methods=["POST"]),
        ]

    async def export(self, request: Request) -> Response:
        """Everything kept about the customer, as a JSON file to save."""
        posted = await self._kit.posted(request, MANAGES_CUSTOMERS)
        if isinstance(posted, Response):
            return posted
        user = await self._known(posted, EXPORT_ACTION)
        if isinstance(user, Response):
            return user
        exported = await export_customer(self._kit.store, user, actor=staff_actor(posted.session))
        body = await export_file(exported) + b"\n"
        name = f"customer-{user.channel}-{user.id}.json"
        return Response(
            body,
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    async def forget(self, request: Request) -> Response:
        """The question first; with ``confirm=yes``, the erasure and what it did."""
        posted = await self._kit.posted(request, MANAGES_CUSTOMERS)
        if isinstance(posted, Response):
            return posted
        user = await self._known(posted, FORGET_ACTION)
        if isinstance(user, Response):
            return user
        session = posted.session
        catalogue = self._kit.catalogue(session)
        page = await customer_page(self._kit.store, catalogue, UTC, user)
        assert page is not None  # known, a moment ago
        shown = page.who.shown
        if posted.field("confirm") != CONFIRMED:
            return self._kit.page(
                request, "customer_forget.html", session, customer=page, confirmed=CONFIRMED
            )
        outcome = await forget_customer(self._kit.store, user, actor=staff_actor(session))
        opened = ", ".join(short_ref(d) for d in sorted(outcome.open_deliveries))
        return self._kit.page(
            request,
            "customer_forgotten.html",
            session,
            done=catalogue.say(
                "console_web.customer_data.done",
                customer=shown,
                rows=sum(outcome.erased.values()),
            ),
            books=catalogue.say(
                "console_web.customer_data.books", count=outcome.anonymised_deliveries
            ),
            still_open=opened and catalogue.say("console_web.customer_data.open", refs=opened),
            erased=sorted(outcome.erased.items()),
            customers=CUSTOMERS,
        )

    async def _known(self, posted: Posted, action: str) -> UserRef | Response:
        """The customer of the path, or the 404 (audited: it was an attempt)."""
        request = posted.request
        user = path_customer(request)
        if user is not None and await self._kit.store.customer_search.known(user):
            return user
        named = path_named(request)
        await self._kit.audit(posted.session, action, named, "refused: unknown customer")
        catalogue = self._kit.catalogue(posted.session)
        text = catalogue.say("console_web.customers.not_found", customer=named)
        return self._kit.refusal_page(request, posted.session, text, 404)
