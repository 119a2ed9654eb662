"""``restore_logging``: a test that configures the process's logging (``configure_logging``,
or a command it runs in-process, such as ``main(["mcp", ...])``) leaves it as it found it.

``configure_logging`` replaces the root logger's handlers with one on the stderr of the moment
(pytest's capture, closed when the test ends) and sets the levels of chatty libraries; left in
place, a later test's log lines would go to the closed stream ("--- Logging error ---").
"""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

# The loggers ``configure_logging`` sets a level on, besides the root.
_NAMED = ("httpx", "httpcore", "aiosqlite", "telegram", "uvicorn", "asyncpg", "pywa", "pywa_async")


@pytest.fixture
def restore_logging() -> Iterator[None]:
    """The root logger's handlers and level, and the named loggers' levels, as they were."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    named = {name: logging.getLogger(name).level for name in _NAMED}
    yield
    root.handlers[:], root.level = handlers, level
    for name, named_level in named.items():
        logging.getLogger(name).setLevel(named_level)
