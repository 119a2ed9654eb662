"""``make webapp-screenshot``: docs/webapp-place.png, the map page as a customer sees it.

Drawn by the browser tests' own world (``page_world``): the page over a sample drop-off
question, its stand-in tiles, a saved place with a room list picked. Run from the repository's
root: ``python -m tests.webapp.screenshot docs/webapp-place.png``.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from tests.webapp.page_world import page_world, place_question


async def draw(target: Path) -> None:
    async with page_world() as world:
        world.questions.open = place_question()
        page = await world.open_page()
        await page.wait_for_selector("body.tiles-loaded", state="attached")
        await page.locator("#saved-list").get_by_role("button", name="Unilag Hostel").click()
        await page.get_by_label("Room", exact=True).select_option("B01")
        await page.screenshot(path=str(target), full_page=True)


def main() -> None:
    target = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/webapp-place.png")
    asyncio.run(draw(target))
    print(f"wrote {target}")


if __name__ == "__main__":
    main()
