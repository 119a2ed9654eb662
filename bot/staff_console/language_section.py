"""``POST /console/language``: a staff member picks the language they read the console in.

Any role may; the form is in every signed-in page's header (``base.html``), so it has no
navigation entry. The choice is the member's, kept in the store (``store.staff``), so it holds
in every session of theirs and on every instance from their next page on; ``ConsoleKit.catalogue``
reads it. A code that is not a shipped language is refused with a plain 400 page, nothing
changed. Both are audited (``console_language``).
"""

from __future__ import annotations

from typing import Final

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from bot.config import CONSOLE_PATH
from bot.staff_console.console_kit import ConsoleKit, NavEntry, see, staff_actor
from bot.staff_console.console_languages import console_languages

LANGUAGE: Final = f"{CONSOLE_PATH}/language"
FIELD: Final = "language"
_SHOWN_CODE: Final = 16  # what the audit keeps of a refused code (it is the visitor's text)


class LanguageSection:
    """The language form's target."""

    nav: NavEntry | None = None

    def __init__(self, kit: ConsoleKit) -> None:
        self._kit = kit

    def routes(self) -> list[BaseRoute]:
        return [Route("/language", self.choose, methods=["POST"])]

    async def choose(self, request: Request) -> Response:
        """The member's language set to the one posted, then the console's first page in it."""
        posted = await self._kit.posted(request)
        if isinstance(posted, Response):
            return posted
        session, code = posted.session, posted.field(FIELD)
        languages = console_languages(self._kit.texts)
        who = staff_actor(session)
        if code not in {known for known, _ in languages}:
            await self._kit.audit(
                session, "console_language", who, "refused", repr(code[:_SHOWN_CODE])
            )
            names = ", ".join(name for _, name in languages)
            text = self._kit.catalogue(session).say("console_web.language.refused", languages=names)
            return self._kit.refusal_page(request, session, text, 400)
        await self._kit.store.staff.set_language(session.member, code)
        await self._kit.audit(session, "console_language", who, "done", code)
        return see(request, CONSOLE_PATH)
