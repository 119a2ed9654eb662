"""The bot's web app: Partner webhooks into the inbox, package photos, health, adapter routes.

``create_web_app(store=..., signing_secrets=...)`` builds it (``web_app``); ``media_url`` spells
a photo's public address. One module per route: ``partner_webhook``, ``media_endpoint``,
``health``; ``body`` reads a request body under a size limit.
"""

from bot.web.web_app import create_web_app, media_url

__all__ = ["create_web_app", "media_url"]
