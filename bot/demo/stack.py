"""``DemoStack``: the whole bot in one process against the sandbox, for the terminal demo, the
transcript replays and the tests.

::

    sandbox (default scenario) <── PartnerClient over ASGITransport ── CapabilityCache
       │  webhooks, photo downloads                                       │
       └──> AppSwitch ──> the bot's web app (/hooks/partner, /media)     ChatService ── store
                               │ inbox                                    │   (SQLite, temp dir)
                               └──> Relay ──> ConsoleChannel ──> Screen <─┴── ConsoleChat

The ``ConsoleChat`` also asks a ``CustomerDesk`` over the same client and store (status, the
customer's deliveries, cancel, drop-off code links typed back in).
With ``DemoOptions.channel="whatsapp"`` the customer is on WhatsApp instead (``DemoCustomer``
is a ``WhatsAppCustomer``): the stack keeps the simulated Cloud API and the customer's phone
(``WhatsAppPhone``, which outlives a restart as the sandbox does), the bot registers its
WhatsApp channel on it, and the console prints only the operators' chat.
Nothing leaves the process: the Partner API is the sandbox, photos are served to it by the
bot's own web app at ``https://localhost/media/<token>``, typed addresses are looked up in an
offline gazetteer. ``restart()`` replaces the whole bot side (client, cache, store connection,
web app, relay, chat service) over the same SQLite file while the sandbox keeps running, which
is what a redeploy in the middle of a conversation looks like.
"""

from __future__ import annotations

import contextlib
from dataclasses import replace
from types import TracebackType
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import httpx

from bot.console.console_render import said
from bot.console.console_screen import Screen
from bot.demo.demo_bot import CUSTOMER_CHAT, OPERATOR_CHAT, PUBLIC_BASE_URL, DemoBot, DemoOptions
from bot.demo.demo_commands import run_command
from bot.demo.demo_time import LaterClock
from bot.demo.facts import read_fact
from bot.demo.next_moves import next_moves
from bot.demo.transports import AppSwitch, loopback_resolver
from bot.partner.errors import PartnerError
from bot.sandbox import Sandbox
from bot.store import Store
from conversations.texts.deliveries_texts import short_ref, status_label

if TYPE_CHECKING:
    from bot.demo.whatsapp_phone import WhatsAppPhone

__all__ = ["CUSTOMER_CHAT", "OPERATOR_CHAT", "DemoOptions", "DemoStack"]

DEFAULT_WEBHOOK_PATH = "/hooks/partner"
DEMO = "demo"


class DemoStack:
    """The sandbox and the bot, wired together; use ``async with DemoStack(options) as demo``.

    ``type_line`` is what the customer (or the demo commands, lines starting with ``:``)
    types; every line is answered on ``screen``. It is also a ``TranscriptDriver``.
    """

    def __init__(self, options: DemoOptions) -> None:
        # The demo's time moves on while a rider rides (``ride``), and in a WhatsApp demo by
        # hours at once (``:later``): its window closes after a day.
        self._hours_pass = isinstance(options.clock, LaterClock) or options.channel == "whatsapp"
        if isinstance(options.clock, LaterClock):
            self.clock = options.clock
        else:
            self.clock = LaterClock(options.clock)
            options = replace(options, clock=self.clock)
        self.options = options
        self.customer_chat = CUSTOMER_CHAT
        self.screen = Screen(options.echo)
        self.switch = AppSwitch()
        self.sandbox = Sandbox(
            options.scenario,
            clock=options.clock,
            sleep=options.sleep,
            webhook_transport=httpx.ASGITransport(app=self.switch),
            image_transport=httpx.ASGITransport(app=self.switch),
            resolver=loopback_resolver,
        )
        hooks = options.scenario.webhooks
        self.webhook_path = urlsplit(hooks[0].url).path if hooks else DEFAULT_WEBHOOK_PATH
        self.db_path = options.data_dir / "bot.sqlite3"
        self.stale_left = 1 if options.stale else 0
        self.quit = False
        self._bot: DemoBot | None = None
        self._known_deliveries: set[str] = set()
        # The hand-off links the relay printed, kept across restarts: ``:link`` finds a
        # finished delivery's link after its hand-off is gone (the terminal still shows it).
        self._links_sent: dict[str, str] = {}
        # The delivery created last in this run: orders placed in the same second (a fake
        # clock, a quick repeat) tie in the store's newest-first order.
        self._latest_delivery: str | None = None
        # A WhatsApp demo's Cloud API and the customer's phone: Meta's, so they outlive a
        # restart, as the sandbox does.
        self.phone: WhatsAppPhone | None = None
        if options.channel == "whatsapp":
            from bot.demo.whatsapp_phone import WhatsAppPhone

            self.phone = WhatsAppPhone(
                httpx.ASGITransport(app=self.switch),
                f"{PUBLIC_BASE_URL}/whatsapp",
                clock=options.clock,
                sleep=options.sleep,
            )

    # --- lifecycle ----------------------------------------------------------------------------

    async def start(self) -> None:
        """Start the sandbox and the bot, and open the customer's chat."""
        if self.options.live:
            await self.sandbox.start()
        await self._start_bot()

    async def restart(self) -> None:
        """Stop the bot side and start it again over the same SQLite file."""
        await self._stop_bot()
        self.screen.write(said("the bot restarted; the sandbox kept running", DEMO))
        await self._start_bot()

    async def aclose(self) -> None:
        await self._stop_bot()
        await self.sandbox.aclose()
        if self.phone is not None:
            await self.phone.aclose()

    async def __aenter__(self) -> DemoStack:
        try:
            await self.start()
        except BaseException:
            # What did start is stopped: an open store's thread would keep the process alive.
            await self.aclose()
            raise
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def _start_bot(self) -> None:
        store = await Store.connect(self.db_path, clock=self.options.clock, synchronous="NORMAL")
        bot = DemoBot(
            self.options,
            self.sandbox,
            self.screen,
            store,
            stale_left=self.stale_left,
            webhook_path=self.webhook_path,
            phone=self.phone,
        )
        bot.channel.links_sent = self._links_sent
        self._bot = bot
        self.switch.app = bot.web_app
        if self.options.live:
            bot.jobs.start()
        await bot.customer.open()
        await self._catch_up()

    async def _stop_bot(self) -> None:
        bot, self._bot = self._bot, None
        self.switch.app = None
        if bot is not None:
            if bot.stale is not None:
                self.stale_left = bot.stale.left
            await bot.aclose()

    def later(self, seconds: float) -> bool:
        """Move the demo's time on by ``seconds``; False when hours do not pass at once (the
        console demo: it has no customer-service window to close)."""
        if not self._hours_pass:
            return False
        self.clock.later(seconds)
        return True

    def ride(self, seconds: float) -> None:
        """Move the demo's time on by ``seconds`` while a rider rides to their next milestone
        (``:advance``): the sandbox's rider then reports a fix that far on in time, as a rider
        app would, and the bot takes it as a ride, not as a GPS jump across the city."""
        self.clock.later(seconds)

    @property
    def bot(self) -> DemoBot:
        if self._bot is None:
            raise RuntimeError("the bot is not running")
        return self._bot

    # --- typing -------------------------------------------------------------------------------

    async def type_line(self, line: str) -> list[str]:
        """Type ``line`` (a customer answer, or a ``:command``); the screen lines it produced."""
        if line.strip().startswith(":"):
            await run_command(self, line.strip())
        else:
            await self.bot.customer.send(line)
        await self._catch_up()
        return self.screen.take()

    async def _catch_up(self) -> None:
        """Let what the line set off finish: re-sent creates and the follow-ups of lost create
        answers that are due (when not live), the sandbox's webhooks, the relay's messages
        about them, and where the riders of moving deliveries are now."""
        if self._bot is None:
            return
        if not self.options.live:
            await self.bot.chats.settle()
            await self.bot.follow_up.process_due()
        await self.sandbox.drain_webhooks()
        await self.bot.relay.process_pending()
        if self.bot.tracker is not None and not self.options.live:
            # One pass of the rider on the map, after the news it follows (live, the job runs
            # it, woken by the relay when a delivery's status or rider changed).
            await self.bot.tracker.track_once()
        await self.bot.customer.settle()
        await self._announce_new_deliveries()

    async def _announce_new_deliveries(self) -> None:
        links = await self.bot.store.deliveries.for_user(self.bot.customer.user, 5)
        for link in reversed(links):
            if link.delivery_id in self._known_deliveries:
                continue
            self._known_deliveries.add(link.delivery_id)
            self._latest_delivery = link.delivery_id
            self.screen.write(said(await self._moves(link.delivery_id, link.status), DEMO))

    async def _moves(self, delivery_id: str, status: str) -> str:
        """How to play the business around a new delivery (a rider to assign when none was)."""
        if status in ("pending", "awaiting_price"):
            with contextlib.suppress(PartnerError):  # a fault armed for the demo: say less
                delivery = await self.bot.client.get_delivery(delivery_id)
                moves = await next_moves(self.bot.catalogue, self.bot.client, delivery)
                return f"{moves} (:help lists everything)"
        return (
            f"delivery {short_ref(delivery_id)}: {status_label(self.bot.catalogue, status)}. "
            "Play the business "
            "with :paid, :advance, :status (:help lists everything)."
        )

    async def delivery_id_for(self, typed: str) -> str:
        """The customer's delivery whose id starts with ``typed`` (a short reference), else
        ``typed`` as it is (an id of a delivery ordered elsewhere)."""
        wanted = typed.strip().casefold()
        links = await self.bot.store.deliveries.for_user(self.bot.customer.user, 100)
        found = [link.delivery_id for link in links if link.delivery_id.startswith(wanted)]
        return found[0] if len(found) == 1 else typed

    # --- what transcripts check ---------------------------------------------------------------

    async def last_delivery_id(self) -> str | None:
        if self._latest_delivery is not None:
            return self._latest_delivery
        links = await self.bot.store.deliveries.for_user(self.bot.customer.user, 1)
        return links[0].delivery_id if links else None

    def option_labels(self) -> list[str]:
        return self.bot.customer.option_labels()

    async def position(self) -> str | None:
        session = await self.bot.chats.session(self.bot.customer.chat)
        if session is not None and session.step is not None:
            return session.step
        return self.bot.customer.status

    async def fact(self, path: str) -> str:
        return await read_fact(self, path)
