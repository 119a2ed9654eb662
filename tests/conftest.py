"""Settings every test shares."""

from __future__ import annotations

import os

# python-telegram-bot 22 warns (an error under filterwarnings=error) when RetryAfter.retry_after
# is read as seconds; opting in to timedelta values is its documented way forward, and the bot
# itself runs with the same setting (bot/telegram sets it before PTB is used).
os.environ.setdefault("PTB_TIMEDELTA", "true")
