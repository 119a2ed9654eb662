"""The customers: ``GET /console/customers`` (the search, a GET form), ``GET
/console/customers/{channel}/{id}`` (a customer's page), read by any staff member, and
``POST .../block`` and ``POST .../unblock``, an admin's only.

A block is the operators' ``/block`` and the shell's ``deliverybot customers block``: the same
``CustomerBlocking`` (the chat service's, so the hand-off desk ends the customer's hand-offs at
once), their open drafts dropped, written to the audit trail by it with the actor
``staff:<id>``. The console asks a reason (``block_reason``'s rule); a reason that breaks it
is asked again with what was typed kept, nothing done. A customer the bot has no trace of is
a 404, and an attempt to block or unblock one is audited. After a block or an unblock the
page is shown again (post/redirect/get) saying what was done.
"""

from __future__ import annotations

import re
from datetime import UTC
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from bot.chat_ref import UserRef
from bot.safety.customer_blocking import (
    REASON_LEAST,
    REASON_MOST,
    Blocked,
    block_reason,
    unblocked_said,
)
from bot.safety.customer_names import customer_shown
from bot.staff_console.console_guard import role_allows
from bot.staff_console.console_kit import ZONE_NAME, ConsoleKit, NavEntry, Posted, see, staff_actor
from bot.staff_console.customers_page import (
    CUSTOMERS,
    MOST_DELIVERIES,
    MOST_FOUND,
    customer_page,
    customer_path,
    search_results,
)
from bot.staff_console.customers_query import MAX_ID_DIGITS, CustomersRefused, parse_search
from bot.store import StaffSession
from conversations.texts.catalogue import Catalogue

_CHANNEL: Final = re.compile(r"[a-z][a-z0-9_-]{0,31}")
_DONE: Final = ("blocked", "blocked_again", "unblocked", "not_blocked")


class CustomersSection:
    """The customers' search, each customer's page, and blocking them."""

    nav = NavEntry(CUSTOMERS, "console_web.customers.page")

    def __init__(self, kit: ConsoleKit) -> None:
        self._kit = kit

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/customers", self.search, methods=["GET"]),
            Route("/customers/{channel}/{user_id}", self.customer, methods=["GET"]),
            Route("/customers/{channel}/{user_id}/block", self.block, methods=["POST"]),
            Route("/customers/{channel}/{user_id}/unblock", self.unblock, methods=["POST"]),
        ]

    async def search(self, request: Request) -> Response:
        """The search form and, when ``q`` is given, the customers it finds; a malformed
        search is said on a 400, and nothing listed."""
        found = await self._kit.viewer(request)
        if isinstance(found, Response):
            return found
        catalogue = self._kit.catalogue(found)
        typed = request.query_params.get("q")
        context: dict[str, Any] = {"typed": typed or "", "asked": typed is not None, "rows": ()}
        context.update(refusal=None, most=MOST_FOUND, zone=ZONE_NAME)
        if typed is None:
            return self._kit.page(request, "customers.html", found, **context)
        region = self._kit.services.phone_region
        query = await parse_search(catalogue, self._kit.store, typed, phone_region=region)
        if isinstance(query, CustomersRefused):
            context["refusal"] = query.reason
            return self._kit.page(request, "customers.html", found, status=400, **context)
        context["typed"] = query.typed
        context["rows"] = await search_results(self._kit.store, catalogue, UTC, query)
        return self._kit.page(request, "customers.html", found, **context)

    async def customer(self, request: Request) -> Response:
        """A customer's page; ``done`` (after a block or an unblock) says what was done."""
        found = await self._kit.viewer(request)
        if isinstance(found, Response):
            return found
        user = path_customer(request)
        done = request.query_params.get("done", "")
        said = None
        if user is not None and done in _DONE:
            drafts = request.query_params.get("drafts", "0")[:6]  # a count, never a long number
            said = await self._said(found, user, done, int(drafts) if drafts.isdecimal() else 0)
        return await self._page(request, found, user, said=said, named=path_named(request))

    async def block(self, request: Request) -> Response:
        """Block the customer (an admin), for the reason given."""
        posted = await self._kit.posted(request, "admin")
        if isinstance(posted, Response):
            return posted
        user = await self._known(request, posted, "block")
        if isinstance(user, Response):
            return user
        typed = posted.field("reason")
        reason = block_reason(typed)
        if reason is None:
            await self._kit.audit(posted.session, "block", str(user), "refused: no reason")
            refusal = self._kit.catalogue(posted.session).say(
                "console_web.customers.refused_reason", least=REASON_LEAST, most=REASON_MOST
            )
            return await self._page(request, posted.session, user, refusal=refusal, reason=typed)
        blocking = self._kit.services.chats.blocking
        done = await blocking.block(user, by=staff_actor(posted.session), reason=reason)
        outcome = "blocked" if done.new else "blocked_again"
        return see(request, f"{customer_path(user)}?done={outcome}&drafts={done.drafts}")

    async def unblock(self, request: Request) -> Response:
        """Let the customer order again (an admin)."""
        posted = await self._kit.posted(request, "admin")
        if isinstance(posted, Response):
            return posted
        user = await self._known(request, posted, "unblock")
        if isinstance(user, Response):
            return user
        blocking = self._kit.services.chats.blocking
        lifted = await blocking.unblock(user, by=staff_actor(posted.session))
        return see(
            request, f"{customer_path(user)}?done={'unblocked' if lifted else 'not_blocked'}"
        )

    async def _known(self, request: Request, posted: Posted, action: str) -> UserRef | Response:
        """The customer of the path, or the 404 (audited: it was an attempt)."""
        user = path_customer(request)
        if user is not None and await self._kit.store.customer_search.known(user):
            return user
        named = path_named(request)
        await self._kit.audit(posted.session, action, named, "refused: unknown customer")
        return await self._page(request, posted.session, None, named=named)

    async def _page(
        self,
        request: Request,
        session: StaffSession,
        user: UserRef | None,
        *,
        said: str | None = None,
        refusal: str | None = None,
        reason: str = "",
        named: str = "",
    ) -> Response:
        """The customer's page, or the 404 naming the customer as the path did (``named``)."""
        catalogue = self._kit.catalogue(session)
        page = None if user is None else await customer_page(self._kit.store, catalogue, UTC, user)
        if page is None:
            text = catalogue.say("console_web.customers.not_found", customer=named)
            return self._kit.refusal_page(request, session, text, 404)
        return self._kit.page(
            request,
            "customer.html",
            session,
            status=400 if refusal else 200,
            customer=page,
            said=said,
            refusal=refusal,
            reason=reason,
            reason_least=REASON_LEAST,
            reason_most=REASON_MOST,
            may_block=role_allows(session.member.role, "admin"),
            most_deliveries=MOST_DELIVERIES,
            zone=ZONE_NAME,
        )

    async def _said(self, session: StaffSession, user: UserRef, done: str, drafts: int) -> str:
        catalogue: Catalogue = self._kit.catalogue(session)
        shown = await customer_shown(self._kit.store, user)
        if done in ("blocked", "blocked_again"):
            return Blocked(user, done == "blocked", drafts).said(catalogue, shown)
        return unblocked_said(catalogue, shown, done == "unblocked")


def path_named(request: Request) -> str:
    """The customer the path names, as written (cut short), for a refusal and the trail."""
    return f"{request.path_params['channel']}:{request.path_params['user_id']}"[:64]


def path_customer(request: Request) -> UserRef | None:
    """The customer the path names, or None when it names nobody a customer could be."""
    channel = str(request.path_params["channel"])
    number = str(request.path_params["user_id"])
    if not _CHANNEL.fullmatch(channel) or not number.isdecimal():
        return None
    if len(number) > MAX_ID_DIGITS:
        return None
    return UserRef(channel, int(number))
