"""``EventPush``: delivery events pushed to MCP clients that subscribed to a conversation's
``deliverybot://conversations/{id}/events`` resource.

Two ways to subscribe, as the SDK's protocol versions have them, both over stdio and
streamable HTTP:

- ``resources/subscribe`` (protocol versions up to 2025-11-25): the session is remembered per
  URI and sent ``notifications/resources/updated``; ``resources/unsubscribe`` forgets it;
- ``subscriptions/listen`` with ``resourceSubscriptions`` (2026-07-28): the SDK's own
  ``ListenHandler`` serves the stream; this class learns which URIs it listens to, and
  publishes ``ResourceUpdated`` on the server's bus, which the handler turns into the same
  notification.

Only the server's channel's conversations can be watched: another channel's id is refused on
``resources/subscribe`` exactly like an unknown one, and never fires on a listen stream. A
notification carries no event, only the URI: the client reads the resource, which lists every
event once.

A job (``bot.jobs``): new events are noticed when ``EventBell`` rings (events kept by this
process wake it) and otherwise every ``poll_seconds`` (its ``look_seconds``), since the events
of ``deliverybot mcp``'s agents are kept by the relay of ``deliverybot run``, another process.
Every process with subscribers runs it: it is not leader-only.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from mcp.server.context import ServerRequestContext
from mcp.server.mcpserver import MCPServer
from mcp.server.session import ServerSession
from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler, ResourceUpdated
from mcp.shared.exceptions import MCPError
from mcp.types import (
    INVALID_PARAMS,
    EmptyResult,
    SubscribeRequestParams,
    SubscriptionsListenRequestParams,
    SubscriptionsListenResult,
    UnsubscribeRequestParams,
)

from bot.agents.agent_channel import EventBell
from bot.agents.headless import AgentNotFound, HeadlessConversations
from bot.jobs import Job

EVENTS_URI = "deliverybot://conversations/{conversation_id}/events"
_EVENTS_URI = re.compile(r"deliverybot://conversations/(?P<id>[^/]+)/events")
POLL_SECONDS = 1.0


@dataclass
class _Watch:
    """One watched conversation: the last event seen and who wants to hear of the next."""

    conversation_id: str
    seen: int
    sessions: set[ServerSession] = field(default_factory=set)
    listeners: int = 0


class EventPush(Job):
    """See the module docstring. ``install`` it on the server built with ``bus``."""

    name = "mcp-event-push"

    def __init__(
        self,
        conversations: HeadlessConversations,
        channel: str,
        bell: EventBell,
        *,
        poll_seconds: float = POLL_SECONDS,
    ) -> None:
        super().__init__(look_seconds=poll_seconds)
        self._conversations = conversations
        self._channel = channel
        self._poll_seconds = poll_seconds
        bell.on_ring(self.wake)
        self.bus = InMemorySubscriptionBus()  # for MCPServer(subscriptions=...)
        self._listen = ListenHandler(self.bus)
        self._watches: dict[str, _Watch] = {}

    def install(self, server: MCPServer[Any]) -> None:
        """Serve ``resources/subscribe``, ``resources/unsubscribe`` and ``subscriptions/listen``
        on ``server`` (made with ``subscriptions=self.bus``)."""
        # MCPServer has no public way to add a request handler; its lowlevel Server has.
        lowlevel = server._lowlevel_server
        lowlevel.add_request_handler("resources/subscribe", SubscribeRequestParams, self._subscribe)
        lowlevel.add_request_handler(
            "resources/unsubscribe", UnsubscribeRequestParams, self._unsubscribe
        )
        lowlevel.add_request_handler(
            "subscriptions/listen", SubscriptionsListenRequestParams, self._listen_stream
        )

    async def run_once(self) -> None:
        """One ``check``; the next when the bell rings or ``poll_seconds`` pass."""
        await self.check()

    def backoff(self, failures: int) -> float:
        """A failed check (the store) is followed by the next as usual: subscribers wait."""
        return self._poll_seconds

    async def check(self) -> int:
        """Notify every watcher of a conversation with events newer than it last saw; how many
        conversations had some."""
        changed = 0
        for uri, watch in list(self._watches.items()):
            latest = await self._latest(watch.conversation_id, watch.seen)
            if latest <= watch.seen:
                continue
            watch.seen, changed = latest, changed + 1
            for session in list(watch.sessions):
                try:
                    await session.send_resource_updated(uri)
                except Exception:  # the session ended without unsubscribing
                    watch.sessions.discard(session)
            if watch.listeners:
                await self.bus.publish(ResourceUpdated(uri=uri))
            self._forget_if_unwatched(uri)
        return changed

    # --- the protocol's requests ----------------------------------------------------------------

    async def _subscribe(
        self, ctx: ServerRequestContext[Any, Any], params: SubscribeRequestParams
    ) -> EmptyResult:
        uri = str(params.uri)
        watch = await self._watch(uri)
        if watch is None:
            raise MCPError(INVALID_PARAMS, "no such conversation")
        watch.sessions.add(ctx.session)
        return EmptyResult()

    async def _unsubscribe(
        self, ctx: ServerRequestContext[Any, Any], params: UnsubscribeRequestParams
    ) -> EmptyResult:
        uri = str(params.uri)
        watch = self._watches.get(uri)
        if watch is not None:
            watch.sessions.discard(ctx.session)
            self._forget_if_unwatched(uri)
        return EmptyResult()

    async def _listen_stream(
        self, ctx: ServerRequestContext[Any, Any], params: SubscriptionsListenRequestParams
    ) -> SubscriptionsListenResult:
        uris = list(dict.fromkeys(params.notifications.resource_subscriptions or ()))
        watched = [uri for uri in uris if await self._watch(uri) is not None]
        for uri in watched:
            self._watches[uri].listeners += 1
        try:
            return await self._listen(ctx, params)
        finally:
            self._unlisten(watched)

    # --- bookkeeping ------------------------------------------------------------------------

    async def _watch(self, uri: str) -> _Watch | None:
        """The watch of ``uri``, made if needed; None unless it names this channel's
        conversation."""
        if uri in self._watches:
            return self._watches[uri]
        matched = _EVENTS_URI.fullmatch(uri)
        if matched is None:
            return None
        try:
            seen = await self._latest(matched["id"], 0)
        except AgentNotFound:
            return None
        return self._watches.setdefault(uri, _Watch(matched["id"], seen))

    async def _latest(self, conversation_id: str, after: int) -> int:
        latest = after
        while True:
            found = await self._conversations.events(self._channel, conversation_id, latest, 500)
            if not found:
                return latest
            latest = int(found[-1]["seq"])

    def _unlisten(self, uris: Iterable[str]) -> None:
        for uri in uris:
            watch = self._watches.get(uri)
            if watch is not None:
                watch.listeners -= 1
                self._forget_if_unwatched(uri)

    def _forget_if_unwatched(self, uri: str) -> None:
        watch = self._watches.get(uri)
        if watch is not None and not watch.sessions and watch.listeners <= 0:
            del self._watches[uri]
