"""The customer's data rights in the terminal: ``/mydata`` and ``/forgetme`` (the slash is
optional), with the same words as in Telegram and WhatsApp.

``/mydata`` prints ``privacy.export_intro`` and the export as indented JSON, then the paths of
the photo files still kept (the terminal attaches nothing: the path is the file); with nothing
kept it says ``privacy.export_nothing``. ``/forgetme`` asks ``privacy.forget_question`` with
two numbered answers (``privacy.forget_yes``, ``privacy.forget_no``); the next line decides:
``1`` or the first answer's words erase (``forget_customer``) and print ``forget_answer``;
anything else prints ``privacy.forget_kept`` and is taken for nothing more, so a stray answer
never erases. Both requests are audited by ``bot.privacy.customer_requests``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from bot.chat_ref import UserRef
from bot.console.console_render import said
from bot.console.console_screen import Screen
from bot.privacy.customer_requests import CUSTOMER_ACTOR, export_customer, forget_customer
from bot.privacy.my_data_file import export_file, kept_nothing
from bot.store import Store
from conversations.engine.option_names import plain
from conversations.texts.catalogue import Catalogue
from conversations.texts.privacy_texts import forget_answer

MY_DATA: Final = "mydata"
FORGET_ME: Final = "forgetme"
_INDENT: Final = "    "


class ConsolePrivacy:
    """``user``'s requests about their data, printed on ``screen``; ``forgotten()`` is called
    once they are erased (the chat drops the question it shows: its order is gone)."""

    def __init__(
        self, store: Store, screen: Screen, user: UserRef, forgotten: Callable[[], None]
    ) -> None:
        self.store = store
        self.screen = screen
        self.user = user
        self.forgotten = forgotten
        self.asked = False  # "forget me?" is waiting for its answer

    async def answer(self, catalogue: Catalogue, line: str) -> bool:
        """Take ``line`` when it is one of these requests, or the answer to the forget
        question; False when it is the order's."""
        if self.asked:
            self.asked = False
            await self._decide(catalogue, line)
            return True
        word = line.strip().casefold().removeprefix("/")
        if word == MY_DATA:
            await self._my_data(catalogue)
            return True
        if word == FORGET_ME:
            self.asked = True
            self.screen.write(said(catalogue.say("privacy.forget_question")))
            for number, key in ((1, "privacy.forget_yes"), (2, "privacy.forget_no")):
                self.screen.write([f"{_INDENT}{number}. {catalogue.say(key)}"])
            return True
        return False

    async def _my_data(self, catalogue: Catalogue) -> None:
        exported = await export_customer(self.store, self.user, actor=CUSTOMER_ACTOR)
        if kept_nothing(exported):
            self.screen.write(said(catalogue.say("privacy.export_nothing")))
            return
        self.screen.write(said(catalogue.say("privacy.export_intro")))
        data = await export_file(exported)
        self.screen.write(_INDENT + line for line in data.decode().splitlines())
        media = self.store.media_dir
        self.screen.write(f"{_INDENT}{media / name}" for name in exported.photo_files)

    async def _decide(self, catalogue: Catalogue, line: str) -> None:
        typed = plain(line)
        if typed not in ("1", plain(catalogue.say("privacy.forget_yes"))):
            self.screen.write(said(catalogue.say("privacy.forget_kept")))
            return
        outcome = await forget_customer(self.store, self.user, actor=CUSTOMER_ACTOR)
        self.forgotten()
        said_done = forget_answer(
            catalogue,
            anonymised=outcome.anonymised_deliveries,
            open_deliveries=outcome.open_deliveries,
        )
        self.screen.write(said(said_done))
