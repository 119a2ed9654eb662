"""``make console-screenshots``: ``docs/console-<page>.png``, each console page as staff see it.

The console is served over a new SQLite store filled by ``console_seed`` (its deliveries and one
delivery's history), at a fixed time, and drawn by the system's Chromium in a fixed window
(1280 x 800), so the files change little unless the pages do (the sandbox names the delivery
it creates afresh each run, so that page's reference and the list's top row differ): the
sign-in page, the deliveries list,
a delivery's page as a dispatcher sees it (the sandbox Partner API answering its dispatch
panel), a delivery with a long history, and the page of every other link in the navigation
(``console-<its last path part>.png``, so pages added later are drawn too). Run from the
repository's root:
``python -m tests.staff_console.screenshots docs``.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path
from typing import Final

from bot.runtime.channel_starters import SHIPPED_CHANNEL_KINDS
from bot.store import Store
from tests.staff_console.conftest import START
from tests.staff_console.console_browser import chromium
from tests.staff_console.console_seed import WITH_HISTORY, seed
from tests.staff_console.dispatch_site import dispatch_site
from tests.support.clock import FakeClock
from tests.support.served import loopback_socket, serve_on, stop_serving

WINDOW: Final = {"width": 1280, "height": 800}


async def draw(folder: Path) -> list[Path]:
    """Every console page into ``folder``; the files written."""
    written: list[Path] = []
    with tempfile.TemporaryDirectory(prefix="console-screenshots-") as scratch:
        clock = FakeClock(START)
        store = await Store.connect(
            Path(scratch) / "bot.db",
            clock=clock,
            channels=SHIPPED_CHANNEL_KINDS,
        )
        try:
            await seed(store, START)
            sock = loopback_socket()
            public = f"http://localhost:{sock.getsockname()[1]}"
            async with (
                dispatch_site(store, clock, public=public) as dispatch,
                chromium() as browser,
            ):
                # The sandbox answers the delivery page's dispatch panel (its rider list).
                server = await serve_on(
                    sock, dispatch.site.core.web_app, log_config=None, access_log=False
                )
                ordered = await dispatch.order(placed=True)
                context = await browser.new_context(viewport=WINDOW)  # type: ignore[arg-type]
                page = await context.new_page()

                async def shot(name: str, path: str | None = None) -> None:
                    if path is not None:
                        await page.goto(f"{public}{path}")
                    target = folder / f"console-{name}.png"
                    await page.screenshot(path=str(target))
                    written.append(target)

                link = await dispatch.site.door.invite("Bola Ahmed", "dispatcher")
                await page.goto(link)
                await shot("signin")
                await page.get_by_role("button").click()
                await page.wait_for_url(f"{public}/console/deliveries")
                await shot("deliveries")
                await shot("delivery", f"/console/deliveries/{ordered}")
                await shot("delivery-history", f"/console/deliveries/{WITH_HISTORY}")
                await page.goto(f"{public}/console/deliveries")
                nav = await page.locator("header nav a").evaluate_all(
                    "links => links.map(a => a.pathname)"
                )
                for path in nav:
                    name = path.rstrip("/").rsplit("/", 1)[-1]
                    if name != "deliveries":
                        await shot(name, path)
                await stop_serving(server, sock)
        finally:
            await store.close()
    return written


def main() -> None:
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else "docs")
    for target in asyncio.run(draw(folder)):
        print(f"wrote {target}")


if __name__ == "__main__":
    main()
