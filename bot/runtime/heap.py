"""After start-up, take the objects that live as long as the process out of the collector's sight.

By the time the bot serves, it holds about 100,000 objects the garbage collector tracks (the
Partner API and Telegram models, pydantic's validators, the texts catalogue, Babel's locale
data), and nearly all of them live until the process ends. CPython's full collection walks
every tracked object each time: about 50 ms on a 2-core machine, during which nothing else
runs. Under a burst of webhooks it came every second or so, and it was the slow tail of the
ingest's latency (``benchmarks/README.md``, P2). ``gc.freeze`` moves what exists now to a
permanent generation the collector skips; what is made afterwards is collected as before.

An object frozen here that later dies is still freed by its reference count; only a cycle
among frozen objects would stay, and start-up leaves none that matter.
"""

from __future__ import annotations

import gc


def freeze_start_up_heap() -> int:
    """Collect start-up's garbage, then freeze everything left; return how many objects
    the collector will no longer walk."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()
