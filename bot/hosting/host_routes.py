"""``HostRoutes``: which business a request is for, found without the business being built.

Most of a business's doors are under its own prefix (``/b/{name}/...``). Four are at the
host's root, where the caller cannot be told a per-business address or does not say one, and
the host finds the business by what the request carries:

====================  =============================================================
``POST /telegram``    the ``X-Telegram-Bot-Api-Secret-Token`` each bot was given
``GET /whatsapp``     Meta's ``hub.verify_token``
``POST /whatsapp``    the ``phone_number_id`` of the push's ``metadata``
``/api/...``          the agent channel's key (``Authorization: Bearer <key>``)
====================  =============================================================

Secrets are held as SHA-256 hashes and looked up by hash: a dictionary lookup of a digest
tells a timing observer nothing about the secret. Finding a business is not trusting the
request: the business's own door checks the secret, the signature or the key again, in
constant time, exactly as on a host of one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from bot.config import key_hash
from bot.hosting.hosted_business import HostedBusiness

secret_digest = key_hash  # every secret is looked up by the hex SHA-256 agent keys are held as


@dataclass(frozen=True)
class HostRoutes:
    """The lookups of the module docstring, built from every hosted business."""

    telegram_secrets: Mapping[str, str] = field(default_factory=dict)
    whatsapp_numbers: Mapping[str, str] = field(default_factory=dict)
    whatsapp_verify_tokens: Mapping[str, str] = field(default_factory=dict)
    agent_keys: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, businesses: Iterable[HostedBusiness]) -> HostRoutes:
        """The routes of ``businesses``. Two businesses with one secret are refused before they
        get here (``bot.config``'s duplicate checks); were one to slip through, the first by
        name keeps the route."""
        telegram: dict[str, str] = {}
        numbers: dict[str, str] = {}
        verify: dict[str, str] = {}
        keys: dict[str, str] = {}
        for business in sorted(businesses, key=lambda business: business.name):
            config, name = business.config, business.name
            secret = config.telegram.secret_token
            if config.telegram.token is not None and secret is not None:
                telegram.setdefault(secret_digest(secret.get_secret_value()), name)
            whatsapp = config.whatsapp
            if whatsapp.configured and whatsapp.phone_number_id is not None:
                numbers.setdefault(whatsapp.phone_number_id, name)
                if whatsapp.verify_token is not None:
                    token = whatsapp.verify_token.get_secret_value()
                    verify.setdefault(secret_digest(token), name)
            for channel in config.agents.configured:
                keys.setdefault(channel.expected_hash(), name)
        return cls(telegram, numbers, verify, keys)

    def for_telegram(self, secret: str | None) -> str | None:
        """The business whose bot was given ``secret``, or None."""
        return None if not secret else self.telegram_secrets.get(secret_digest(secret))

    def for_whatsapp_number(self, phone_number_id: str | None) -> str | None:
        """The business of the WhatsApp number ``phone_number_id``, or None."""
        return None if not phone_number_id else self.whatsapp_numbers.get(phone_number_id)

    def for_whatsapp_verify(self, token: str | None) -> str | None:
        """The business whose Meta app was given the verify ``token``, or None."""
        return None if not token else self.whatsapp_verify_tokens.get(secret_digest(token))

    def for_agent_key(self, key: str | None) -> str | None:
        """The business of the agent channel whose key is ``key``, or None."""
        return None if not key else self.agent_keys.get(secret_digest(key))
