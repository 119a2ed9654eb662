"""``OperatorAlerts``: what a turn tells the business's operators, and how often.

An ``OperatorAlert`` of a turn (e.g. the photo host is not allowlisted) goes to
``alert_operators`` at most once every ``ALERT_REPEAT_SECONDS``, by any process on the store
(``store.operator_alerts``): a misconfigured business is met by every customer who tries,
and the operators need to hear it once, not once a customer. An alert its sender limits
already (a ``[limits]`` hit: once per customer per day) goes out as it comes (``tell``).
Either way a failed alert is logged, never raised: the customer's turn is saved already.

An alert that reaches nobody (no operator channel, or its send failed) is logged by its kind
and references only (``alert_named``): its words name customers, phones, addresses and
parcels (a create whose answer was lost, a customer over a limit), and the log holds none.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping

from bot.log_context import current_context
from bot.store import Store
from conversations.texts.deliveries_texts import short_ref

logger = logging.getLogger(__name__)

AlertOperators = Callable[[str], Awaitable[None]]

ALERT_REPEAT_SECONDS = 15 * 60


class OperatorAlerts:
    """The operators' channel for a turn's alerts; without ``alert_operators`` they are logged."""

    def __init__(self, store: Store, alert_operators: AlertOperators | None) -> None:
        self._store = store
        self._alert_operators = alert_operators

    async def alert(self, text: str, *, kind: str = "configuration") -> None:
        """``text`` to the operators, unless any process sent it in the last
        ``ALERT_REPEAT_SECONDS``; ``kind`` names it in the log when it reaches nobody."""
        # Kept in the store: each process sharing it would otherwise send it once more.
        if not await self._store.operator_alerts.take(text, repeat_after=ALERT_REPEAT_SECONDS):
            logger.info("operator alert not repeated (sent in the last %d s)", ALERT_REPEAT_SECONDS)
            return
        await send_alert(self._alert_operators, text, kind=kind)

    async def tell(self, text: str, *, kind: str = "limit") -> None:
        """An alert already limited by its sender (a limit: once per customer per day)."""
        await send_alert(self._alert_operators, text, unheard=logging.WARNING, kind=kind)


async def send_alert(
    alert_operators: AlertOperators | None,
    text: str,
    *,
    unheard: int = logging.ERROR,
    kind: str = "operator",
) -> None:
    """``text`` to the operators, never raising: whoever alerts has done its work already (a
    customer's turn saved, a create settled), and a failed alert must not undo it. Without an
    operator channel the alert is logged at ``unheard``; a failed one with its error's type.
    Either line names it by ``kind`` and references (``alert_named``), never by its words."""
    if alert_operators is None:
        logger.log(unheard, "operator alert (no operator channel): %s", alert_named(kind))
        return
    try:
        await alert_operators(text)
    except Exception as error:
        # Its type only: a send's error may quote what it sent, and that is the alert's words.
        name = type(error).__name__
        logger.error("could not alert the operators (%s): %s", name, alert_named(kind))


def alert_named(kind: str) -> str:
    """An alert as the log names it: ``kind`` and the references of the ``log_context`` it
    is raised in (the delivery's short reference, the event, the flow and step), e.g. "a
    create_unconfirmed alert about delivery 3F2A9C1E (flow pickup_delivery, step confirm)"."""
    return f"a {kind} alert{context_named(current_context())}; its words are not logged"


def context_named(context: Mapping[str, str]) -> str:
    """What ``context`` (a ``log_context``) is about, as a log names a message it does not
    quote: " about delivery 3F2A9C1E (event evt_1, flow pickup_delivery, step confirm)", or
    ""."""
    named = ""
    delivery = context.get("delivery")
    if delivery is not None:
        named += f" about delivery {short_ref(delivery)}"
    references = [
        f"{name} {context[name]}" for name in ("event", "flow", "step") if name in context
    ]
    if references:
        named += f" ({', '.join(references)})"
    return named
