"""Fakes of external services for end-to-end tests.

``FakeTelegram`` is a Telegram Bot API server on loopback for the real python-telegram-bot:
point ``base_url``/``base_file_url`` (``[telegram] api_base_url``) at ``tg.api_base_url`` and
``tg.file_base_url``, build user actions with ``tg.updates``, hand them over with
``tg.push_update``, and assert on ``tg.sent_messages`` / ``tg.calls`` or await
``tg.wait_for_message``.
"""

from .telegram_api import FAKE_BOT_TOKEN, FakeTelegram
from .telegram_delivery import Webhook, WebhookDelivery
from .telegram_records import LiveLocation, RecordedCall, SentMessage
from .telegram_updates import UpdateFactory, post_update
from .telegram_world import StoredFile, TgChat, TgUser

__all__ = [
    "FAKE_BOT_TOKEN",
    "FakeTelegram",
    "LiveLocation",
    "RecordedCall",
    "SentMessage",
    "StoredFile",
    "TgChat",
    "TgUser",
    "UpdateFactory",
    "Webhook",
    "WebhookDelivery",
    "post_update",
]
