"""Delivery chat-bot toolkit: the Telegram bot, the Partner API client and the sandbox."""
