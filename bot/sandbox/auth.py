"""API-key authentication and scopes, in the order the sandbox checks them.

1. Exactly one of ``Authorization: Bearer <key>`` or ``X-Api-Key: <key>``. Neither, both, a
   repeated header, or an Authorization header that is not a Bearer token: 401
   ``missing_api_key`` (the spec's "no key or invalid key format").
2. A legacy test key (``sk_test_`` prefix): 403 ``test_keys_unsupported``.
3. Not ``sk_live_`` + 16-128 letters/digits: 401 ``missing_api_key``.
4. Unknown or revoked: 401 ``invalid_api_key``; suspended after unusual activity: 401
   ``api_key_auto_revoked``.
5. The org's billing is terminated: 403 ``billing_terminated``.
6. (after the rate limit) the operation's scope: 403 ``missing_scope``.
"""

from __future__ import annotations

import re

from starlette.datastructures import Headers

from bot.partner.models import API_KEY_PREFIX
from bot.sandbox.error_envelope import ApiError
from bot.sandbox.scenario import OrganizationSettings
from bot.sandbox.state import KeyRecord, Store

READ_SCOPE = "deliveries:read"
WRITE_SCOPE = "deliveries:write"
LEGACY_TEST_PREFIX = "sk_test_"
KEY_PATTERN = re.compile(rf"^{API_KEY_PREFIX}[A-Za-z0-9]{{16,128}}$")


def _missing(message: str) -> ApiError:
    return ApiError(401, "missing_api_key", message)


def presented_key(headers: Headers) -> str:
    """The one key the request carries; raises ``missing_api_key`` unless there is exactly one."""
    authorization = headers.getlist("authorization")
    x_api_key = headers.getlist("x-api-key")
    if not authorization and not x_api_key:
        raise _missing("No API key: send Authorization: Bearer <key> or X-Api-Key: <key>.")
    if len(authorization) + len(x_api_key) > 1:
        raise _missing("Send the API key in exactly one header, not several.")
    if authorization:
        scheme, _, token = authorization[0].strip().partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise _missing("The Authorization header must be 'Bearer <API key>'.")
        return token.strip()
    return x_api_key[0].strip()


def authenticate(headers: Headers, store: Store, organization: OrganizationSettings) -> KeyRecord:
    """The key record behind the request, or the documented authentication error."""
    secret = presented_key(headers)
    if secret.startswith(LEGACY_TEST_PREFIX):
        raise ApiError(
            403,
            "test_keys_unsupported",
            f"Legacy test keys are not accepted. Use a live key ({API_KEY_PREFIX}...).",
        )
    if not KEY_PATTERN.fullmatch(secret):
        raise _missing(f"The API key is not in the {API_KEY_PREFIX} format.")
    key = store.key_for_secret(secret)
    if key is None or key.state == "revoked":
        raise ApiError(401, "invalid_api_key", "The API key is unknown or has been revoked.")
    if key.state == "auto_revoked":
        raise ApiError(
            401,
            "api_key_auto_revoked",
            "The API key was suspended after unusual activity. An owner can restore it in "
            "the dashboard (Settings, API & Webhooks).",
        )
    if organization.billing_terminated:
        raise ApiError(
            403, "billing_terminated", "This organisation can no longer use the API (billing)."
        )
    return key


def require_scope(key: KeyRecord, scope: str) -> None:
    if scope not in key.scopes:
        raise ApiError(403, "missing_scope", f"This API key lacks the {scope} scope.")
