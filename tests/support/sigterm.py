"""``stop_with_sigterm``: end a ``serve`` a test runs in its own process as a supervisor would.

SIGTERM goes to the test's own process, where ``serve`` has set its handler. If ``serve`` has
already ended (it failed to start: a port taken, a bad config), nobody handles the signal and
it would kill the test's process, and with it the pytest worker, leaving the run to hang; so
then its own error is raised instead.
"""

from __future__ import annotations

import asyncio
import os
import signal


async def stop_with_sigterm(running: asyncio.Task[None], *, timeout: float = 10.0) -> None:
    """Stop ``running`` (a ``serve`` task) with SIGTERM, or raise why it ended already."""
    if running.done():
        await running  # its exception, if it failed
        return
    os.kill(os.getpid(), signal.SIGTERM)
    await asyncio.wait_for(running, timeout=timeout)
