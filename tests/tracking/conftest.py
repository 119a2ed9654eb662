"""The tracker's tests stand on the relay tests' world: a real SQLite store, the sandbox behind a
real Partner API client, a relay, all on one fake clock."""

from tests.relay.conftest import (  # noqa: F401 - fixtures, found by name
    channel,
    clock,
    make_relay,
    make_world,
    open_store,
)
