"""A customer's data rights through an agent channel: "my data" and "forget me" as data.

The JSON API (``GET /api/customers/{customer}/data``, ``POST .../forget``) and the MCP tools
(``my_data``, ``forget_me``) both call ``AgentPrivacy``, which calls the requests every door
shares (``bot.privacy.customer_requests``) with the actor ``agent:<channel>``, so the audit
trail says which channel asked.

A channel reaches only its own customers: ``{customer}`` is the channel's own reference, found
as the channel's other customer routes find it (``store.agents.user``). A reference the channel
never had, another channel's, or one already forgotten (their reference is erased with them)
is answered as a customer of whom nothing is kept: no row is read, nothing is erased, and the
answer holds nothing of anyone else.
"""

from __future__ import annotations

from typing import Any, Final

from pydantic import BaseModel, ConfigDict

from bot.chat_ref import UserRef
from bot.ordering.turn_catalogue import TurnCatalogues
from bot.privacy.customer_requests import export_customer, forget_customer
from bot.store import Store
from conversations.texts.deliveries_texts import short_ref
from conversations.texts.privacy_texts import forget_answer

_ABOUT_THE_DOCUMENT: Final = frozenset({"customer", "exported_at"})
"""Sections of an export that say whom and when, not what is kept."""


class CustomerData(BaseModel):
    """ "My data" for an agent: ``data`` is everything kept about the customer (the export
    document, sections by area), None when nothing is; ``message`` says so to the customer."""

    model_config = ConfigDict(frozen=True)

    customer: str
    kept: bool
    message: str
    data: dict[str, Any] | None


class ForgetAnswer(BaseModel):
    """ "Forget me" for an agent: rows ``erased`` per table, ``anonymised_deliveries`` kept
    for the business's books without them, the ``open_deliveries`` (short references) that
    are finished first and erased when they end (then ``pending``), and ``message``, what
    to tell the customer in their language."""

    model_config = ConfigDict(frozen=True)

    customer: str
    erased: dict[str, int]
    anonymised_deliveries: int
    open_deliveries: list[str]
    pending: bool
    message: str


def agent_actor(channel: str) -> str:
    """Who asked, in the audit trail: the agent channel ``channel``."""
    return f"agent:{channel}"


class AgentPrivacy:
    """See the module docstring; ``catalogues`` words the messages in the customer's
    language."""

    def __init__(self, store: Store, catalogues: TurnCatalogues) -> None:
        self._store = store
        self._catalogues = catalogues

    async def data(self, channel: str, customer: str, language: str | None = None) -> CustomerData:
        """Everything kept about ``channel``'s ``customer`` (nothing for one it never had)."""
        catalogue = self._catalogues.pick(language)
        user = await self._user(channel, customer)
        document = None
        if user is not None:
            exported = await export_customer(self._store, user, actor=agent_actor(channel))
            document = exported.document
        kept = document is not None and any(
            value for key, value in document.items() if key not in _ABOUT_THE_DOCUMENT
        )
        message = catalogue.say("privacy.export_intro" if kept else "privacy.export_nothing")
        return CustomerData(customer=customer, kept=kept, message=message, data=document)

    async def forget(
        self, channel: str, customer: str, language: str | None = None
    ) -> ForgetAnswer:
        """Erase ``channel``'s ``customer`` (``forget_customer``); for one it never had,
        nothing to erase."""
        catalogue = self._catalogues.pick(language)
        user = await self._user(channel, customer)
        if user is None:
            message = forget_answer(catalogue, anonymised=0, open_deliveries=())
            return ForgetAnswer(
                customer=customer,
                erased={},
                anonymised_deliveries=0,
                open_deliveries=[],
                pending=False,
                message=message,
            )
        outcome = await forget_customer(self._store, user, actor=agent_actor(channel))
        opened = sorted(outcome.open_deliveries)
        return ForgetAnswer(
            customer=customer,
            erased=dict(sorted(outcome.erased.items())),
            anonymised_deliveries=outcome.anonymised_deliveries,
            open_deliveries=[short_ref(delivery_id) for delivery_id in opened],
            pending=outcome.pending,
            message=forget_answer(
                catalogue,
                anonymised=outcome.anonymised_deliveries,
                open_deliveries=opened,
            ),
        )

    async def _user(self, channel: str, customer: str) -> UserRef | None:
        return await self._store.agents.user(channel, customer)
