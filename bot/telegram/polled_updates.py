"""The door in polling mode: ``getUpdates`` answers pass ``update_check`` before PTB reads them.

::

    builder.get_updates_request(CheckedUpdatesRequest(HTTPXRequest(connection_pool_size=1)))

PTB parses a whole ``getUpdates`` batch at once: one unreadable update fails the batch, PTB
logs it (every customer message in it, verbatim) and asks for the same batch again, forever.
Here each update of the answer is checked first; a flawed one is dropped with one warning
(its id and the broken rule, as in webhook mode) and the next ``getUpdates`` asks from past
it, so Telegram forgets it even when it was the last of its batch.

With ``inbox``, every update kept is stored there (``bot.store.update_inbox``, one grouped
commit for the batch) before PTB sees the answer: the next ``getUpdates``, which moves the
offset past them, is asked only after that, so an update Telegram forgets is a stored one.
"""

from __future__ import annotations

import asyncio
import json
import logging
from http import HTTPStatus

from telegram import Update
from telegram._utils.defaultvalue import DEFAULT_NONE
from telegram._utils.types import ODVInput
from telegram.request import BaseRequest, RequestData

# PTB's own parameter type: the only way to build the RequestData of a changed offset.
from telegram.request._requestparameter import RequestParameter

from bot.store import UpdateInbox
from bot.telegram.stored_updates import store_update
from bot.telegram.update_check import Flaw, checked_update

log = logging.getLogger(__name__)


class CheckedUpdatesRequest(BaseRequest):
    """The Bot's ``get_updates_request``: ``inner`` does the HTTP, this drops what the bot
    cannot read from each ``getUpdates`` answer and moves the offset past it."""

    def __init__(self, inner: BaseRequest, inbox: UpdateInbox | None = None) -> None:
        self._inner = inner
        self._inbox = inbox
        # The offset that confirms every update dropped so far (0: none dropped).
        self._past_dropped = 0

    @property
    def read_timeout(self) -> float | None:
        return self._inner.read_timeout

    async def initialize(self) -> None:
        await self._inner.initialize()

    async def shutdown(self) -> None:
        await self._inner.shutdown()

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: ODVInput[float] = DEFAULT_NONE,
        write_timeout: ODVInput[float] = DEFAULT_NONE,
        connect_timeout: ODVInput[float] = DEFAULT_NONE,
        pool_timeout: ODVInput[float] = DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        polling = url.endswith("/getUpdates")
        if polling and request_data is not None:
            request_data = self._with_offset_past_dropped(request_data)
        status, payload = await self._inner.do_request(
            url,
            method,
            request_data,
            read_timeout=read_timeout,
            write_timeout=write_timeout,
            connect_timeout=connect_timeout,
            pool_timeout=pool_timeout,
        )
        if polling and status == HTTPStatus.OK:
            payload = await self._checked(payload)
        return status, payload

    async def _checked(self, payload: bytes) -> bytes:
        """Telegram's ``getUpdates`` answer without the updates the bot cannot read, each
        update kept stored in the inbox first."""
        answer = self.parse_json_payload(payload)
        result = answer.get("result")
        if answer.get("ok") is not True or not isinstance(result, list):
            return payload  # PTB reports what is wrong with it
        # Each update is parsed once here, for its check and its chat; PTB parses the kept
        # ones again, with the bot, from the answer.
        checked = [(update, self._readable(update)) for update in result]
        kept = [(update, parsed) for update, parsed in checked if parsed is not None]
        if self._inbox is not None and kept:
            inbox = self._inbox
            await asyncio.gather(
                *(store_update(inbox, parsed, json.dumps(update)) for update, parsed in kept)
            )
        if len(kept) == len(result):
            return payload
        # ASCII: a lone surrogate in a customer's text travels on as its escape.
        return json.dumps({**answer, "result": [update for update, _ in kept]}).encode()

    def _readable(self, update: object) -> Update | None:
        """``update`` parsed, or None (with a warning) when the bot cannot read it."""
        checked = checked_update(update, None)
        if not isinstance(checked, Flaw):
            return checked
        log.warning("update dropped: %s", checked)
        if checked.update_id is not None:
            self._past_dropped = max(self._past_dropped, checked.update_id + 1)
        # Without a readable id there is no offset past it; Telegram never sends one.
        return None

    def _with_offset_past_dropped(self, request_data: RequestData) -> RequestData:
        parameters = request_data.parameters
        offset = parameters.get("offset", 0)
        if not isinstance(offset, int) or offset >= self._past_dropped:
            return request_data
        moved = {**parameters, "offset": self._past_dropped}
        return RequestData([RequestParameter.from_input(k, v) for k, v in moved.items()])
