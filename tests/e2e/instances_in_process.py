"""Instances of the bot on one PostgreSQL database, in this process: each a production
``Runtime`` in webhook mode (updates are handed to its Application, as its ``/telegram`` route
does), all sharing one FakeTelegram and one sandbox."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from pathlib import Path

from telegram.request import HTTPXRequest

from bot.config import Config
from bot.runtime import Runtime, Seams
from bot.sandbox import Sandbox
from bot.telegram.limits import RateLimiter
from tests.fakes import FakeTelegram

from .conftest import _TLS, SECRET_TOKEN, PartnerRecorder, TrackingProcessor


@dataclass
class Instance:
    runtime: Runtime
    processor: TrackingProcessor


def webhook_config(tg: FakeTelegram, sandbox: Sandbox, dsn: str, base_dir: Path) -> Config:
    """The config every instance runs with: webhook mode, the database at ``dsn``."""
    data = {
        "partner": {"base_url": sandbox.base_url, "api_key": sandbox.api_key},
        "telegram": {
            "token": tg.token,
            "mode": "webhook",
            "public_base_url": "https://localhost",
            "api_base_url": tg.api_base_url,
            "file_base_url": tg.file_base_url,
            "secret_token": SECRET_TOKEN,
        },
        "webhooks": {"enabled": True, "signing_secret": sandbox.signing_secret},
        "storage": {
            "backend": "postgres",
            "media_dir": "media",
            "postgres": {"dsn": dsn, "pool_size": 4},
        },
        "geocoding": {"provider": "none"},
    }
    return Config.model_validate(data, context={"environ": {}, "base_dir": base_dir})


async def start_instance(
    exits: contextlib.AsyncExitStack,
    config: Config,
    sandbox: Sandbox,
    limiter: RateLimiter | None,
) -> Instance:
    """An instance started without workers, stopped by ``exits``. ``limiter`` None: the
    production one, over the store's shared send budget, in real time."""
    processor = TrackingProcessor()
    seams = Seams(
        partner_transport=PartnerRecorder(sandbox),
        telegram_request=HTTPXRequest(httpx_kwargs={"verify": _TLS}),
        telegram_updates_request=HTTPXRequest(httpx_kwargs={"verify": _TLS}),
        processor=processor,
        limiter=limiter,
    )
    runtime = await Runtime.build(config, seams)
    processor.locks = runtime.store.chat_locks  # as wiring does without a test's own
    await runtime.start(workers=False)
    exits.push_async_callback(runtime.stop)
    return Instance(runtime, processor)
