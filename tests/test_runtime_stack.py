"""``Runtime``: Telegram optional, and start and stop as one stack.

Without a Telegram token the runtime has the log as messenger beside the agent channels; what
started is stopped in reverse (the jobs before the channels that started before them), also
when a channel fails to start.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.channel_kind import ChannelKind
from bot.channels import ChannelRegistration
from bot.chat_ref import OPERATOR_LOG, ChatRef
from bot.config import Config
from bot.jobs import Job
from bot.runtime import Runtime, Seams
from bot.store import StoreError

KEY = "runtime-stack-key-0123456789abcdef"


def agents_only(tmp_path: Path, **more: object) -> Config:
    """An agent channel's config (``more``: further sections, a Telegram token among them)."""
    data = {
        "partner": {"base_url": "https://partner.example/api/v1", "api_key": "sk_live_" + "k" * 24},
        "storage": {"path": "bot.sqlite3", "media_dir": "media"},
        "agents": {"channels": [{"name": "shop", "key": KEY}]},
        **more,
    }
    return Config.model_validate(data, context={"environ": {}, "base_dir": tmp_path})


class Probe:
    """A channel recording when it starts and stops, and when its job runs and is cancelled."""

    def __init__(
        self, name: str, log: list[str], *, fails: bool = False, lock_tag: int = 10
    ) -> None:
        self.name, self.log, self.fails, self.lock_tag = name, log, fails, lock_tag
        self.job_started = asyncio.Event()

    async def send(self, chat: ChatRef, text: str) -> None:
        return None

    def otp_link(self, token: str) -> str:
        return ""

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        self.log.append(f"{self.name} started")
        if self.fails:
            raise RuntimeError(f"{self.name} refused to start")
        try:
            yield
        finally:
            self.log.append(f"{self.name} stopped")

    def registration(self) -> ChannelRegistration:
        return ChannelRegistration(
            ChannelKind(self.name, self.lock_tag),
            self,
            messenger=False,
            running=self.running,
            jobs=(ProbeJob(self),),
        )


class ProbeJob(Job):
    """The probe channel's job: its one pass waits until the scheduler cancels it."""

    name = "probe-job"

    def __init__(self, probe: Probe) -> None:
        super().__init__()
        self.probe = probe

    async def run_once(self) -> None:
        self.probe.job_started.set()
        try:
            await asyncio.Event().wait()
        finally:
            self.probe.log.append(f"{self.probe.name} job cancelled")


async def test_without_a_token_the_log_is_the_messenger_beside_the_agent_channels(
    tmp_path: Path,
) -> None:
    runtime = await Runtime.build(agents_only(tmp_path), Seams(synchronous="NORMAL"))
    try:
        assert runtime.telegram is None and runtime.agents is not None
        assert [channel.name for channel in runtime.core.channels] == ["log", "agents"]
        assert runtime.serves_web
        assert runtime.settings.operators == (OPERATOR_LOG,)
    finally:
        await runtime.stop()


async def test_a_runtime_built_without_telegram_tells_the_operators_in_the_log(
    tmp_path: Path,
) -> None:
    # ``deliverybot mcp`` on a Telegram bot's config: its process never runs Telegram, so an
    # alert raised there is logged, not sent to a Telegram chat no channel of it reaches.
    config = agents_only(
        tmp_path,
        telegram={"token": "123456:" + "A" * 35},
        operators={"chat_ids": [-100200]},
    )
    assert config.has_telegram
    runtime = await Runtime.build(config, Seams(synchronous="NORMAL"), telegram=False)
    try:
        assert runtime.telegram is None
        assert runtime.settings.operators == (OPERATOR_LOG,)
    finally:
        await runtime.stop()


async def test_what_started_is_stopped_in_reverse(tmp_path: Path) -> None:
    log: list[str] = []
    runtime = await Runtime.build(agents_only(tmp_path), Seams(synchronous="NORMAL"))
    probe = Probe("probe", log)
    runtime.core.register(probe.registration())
    await runtime.start()
    await probe.job_started.wait()
    await runtime.stop()
    await runtime.stop()  # a second stop has nothing left to do

    assert log == ["probe started", "probe job cancelled", "probe stopped"]
    with pytest.raises(StoreError, match="closed"):  # the store was closed last
        await runtime.store.sessions.get(ChatRef("telegram", 1))


async def test_a_failed_start_is_undone_by_stop(tmp_path: Path) -> None:
    log: list[str] = []
    runtime = await Runtime.build(agents_only(tmp_path), Seams(synchronous="NORMAL"))
    runtime.core.register(Probe("first", log).registration())
    runtime.core.register(Probe("second", log, fails=True, lock_tag=11).registration())

    with pytest.raises(RuntimeError, match="second refused"):
        await runtime.start()
    await runtime.stop()

    assert log == ["first started", "second started", "first stopped"]
