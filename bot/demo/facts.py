"""Facts a transcript may check with ``$ path = value``.

==============================  ==============================================================
``delivery.<field path>``       the customer's latest delivery as the sandbox holds it
                                (``delivery.status``, ``delivery.pickup.address`` ...)
``calls.<operation>``           Partner API calls the sandbox received (``calls.create_delivery``)
``session.<field>``             the chat's open session (``session.step``,
                                ``session.idempotency_key``); ``none`` when there is none
``deliveries``                  how many deliveries the chat has ordered
``ref``                         the short reference of the latest delivery, as chats show it
==============================  ==============================================================

Values are written as JSON would write them (``true``, ``null``, ``1500`` also for 1500.0),
text as is.
"""

from __future__ import annotations

import json
from typing import Any

from bot.demo.demo_world import DemoWorld
from conversations.texts.deliveries_texts import short_ref


def as_text(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        value = int(value)  # 5000.0 reads as 5000, as a person would write it
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _walk(value: Any, path: list[str], whole: str) -> Any:
    for part in path:
        if isinstance(value, dict) and part in value:
            value = value[part]
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            return f"<no {whole}>"
    return value


async def read_fact(stack: DemoWorld, path: str) -> str:
    head, *rest = path.split(".")
    if head == "delivery":
        delivery_id = await stack.last_delivery_id()
        if delivery_id is None:
            return "<no delivery>"
        return as_text(_walk(stack.sandbox.delivery(delivery_id), rest, path))
    if head == "calls":
        return as_text(_walk(stack.sandbox.call_counts(), rest, path))
    if head == "session":
        session = await stack.bot.chats.session(stack.bot.customer.chat)
        if session is None:
            return "none"
        return as_text(_walk(session.model_dump(mode="json"), rest, path))
    if head == "ref" and not rest:
        delivery_id = await stack.last_delivery_id()
        return "<no delivery>" if delivery_id is None else short_ref(delivery_id)
    if head == "deliveries" and not rest:
        return str(await stack.bot.store.deliveries.count_for_user(stack.bot.customer.user))
    return f"<unknown fact {path}: delivery., calls., session., deliveries, ref>"
