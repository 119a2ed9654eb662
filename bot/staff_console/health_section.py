"""The health figures: ``GET /console/health``, read by any staff member, for a business that
runs no Prometheus.

The same numbers ``/metrics`` exposes, read the same way (``bot.metrics.health_figures``):
the work waiting in the database (the inboxes' lag, the follow-ups pending, the open orders),
which is the whole deployment's, and what this instance counted since it started (429s,
waits, calls without an answer), which is its own; the page says which is which. A database
that does not answer is said on the page (503), with the instance's counts still shown.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from bot.config import CONSOLE_PATH
from bot.funnel.report import duration_text
from bot.metrics.health_figures import (
    PARTNER_EVENTS_INBOX,
    TELEGRAM_UPDATES_INBOX,
    ProcessCounts,
    WorkFigures,
    read_work_figures,
)
from bot.staff_console.console_kit import ConsoleKit, NavEntry
from bot.store import StoreError
from conversations.texts.catalogue import Catalogue

HEALTH: Final = f"{CONSOLE_PATH}/health"
_COUNTED: Final = (
    "partner_429",
    "own_limit_waits",
    "telegram_429",
    "partner_no_answer",
    "relay_failures",
    "unconfirmed_creates",
)


@dataclass(frozen=True)
class Figure:
    """One line of the page: its name, its value in words and as a number, whose it is."""

    key: str
    name: str
    shown: str
    value: float


class HealthSection:
    """The health figures of the deployment and of this instance."""

    nav = NavEntry(HEALTH, "console_web.health.title")

    def __init__(self, kit: ConsoleKit) -> None:
        self._kit = kit

    def routes(self) -> list[BaseRoute]:
        return [Route("/health", self.health, methods=["GET"])]

    async def health(self, request: Request) -> Response:
        """The page (503 when the database does not answer)."""
        found = await self._kit.viewer(request)
        if isinstance(found, Response):
            return found
        catalogue = self._kit.catalogue(found)
        try:
            work = await read_work_figures(self._kit.store, self._kit.clock())
        except StoreError:
            work = None
        counts = self._kit.services.metrics.process_counts()
        return self._kit.page(
            request,
            "health.html",
            found,
            status=200 if work is not None else 503,
            deployment=_deployment(catalogue, work) if work is not None else None,
            open_by_flow=sorted(work.open_by_flow.items()) if work is not None else (),
            # Recorded whenever the console is on (``build_core``): None only for a core without.
            instance=_instance(catalogue, counts) if counts is not None else (),
        )


def _deployment(catalogue: Catalogue, work: WorkFigures) -> list[Figure]:
    say = catalogue.say
    figures = []
    for inbox in (PARTNER_EVENTS_INBOX, TELEGRAM_UPDATES_INBOX):
        waiting = work.inboxes[inbox]
        figures += [
            Figure(
                f"{inbox}.pending",
                say(f"console_web.health.{inbox}.pending"),
                catalogue.number(waiting.pending),
                waiting.pending,
            ),
            Figure(
                f"{inbox}.oldest_seconds",
                say(f"console_web.health.{inbox}.oldest"),
                duration_text(waiting.oldest_seconds) if waiting.pending else "-",
                waiting.oldest_seconds,
            ),
        ]
    followups = work.followups
    name = say("console_web.health.followups")
    figures.append(Figure("followups", name, catalogue.number(followups), followups))
    return figures


def _instance(catalogue: Catalogue, counts: ProcessCounts) -> list[Figure]:
    return [
        Figure(
            key,
            catalogue.say(f"console_web.health.{key}"),
            catalogue.number(getattr(counts, key)),
            getattr(counts, key),
        )
        for key in _COUNTED
    ]
