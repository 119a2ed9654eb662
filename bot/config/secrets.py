"""Secrets in the configuration: from the file, or from an environment variable it names.

A secret key ``api_key`` may be given as ``api_key = "..."`` or, so the file can be committed,
as ``api_key_env = "SOME_VARIABLE"``, never both. ``resolve_secret`` is the one wrap validator
behind every secret field; each kind of secret has a ``SecretShape`` it must match. No problem
line ever contains the value.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import Annotated

from pydantic import AfterValidator, SecretStr, ValidationInfo, ValidatorFunctionWrapHandler

from bot.partner.vocabulary import API_KEY_PREFIX, SIGNING_SECRET_PREFIX

_ENV_NAME = re.compile(r"[A-Z_][A-Z0-9_]*")


def _check_env_name(name: str) -> str:
    # Never echo the value: the usual slip is pasting the secret itself here.
    if not _ENV_NAME.fullmatch(name):
        raise ValueError(
            "must be the name of an environment variable (A-Z, 0-9 and _), not the secret itself"
        )
    return name


EnvName = Annotated[str, AfterValidator(_check_env_name)]

# What each kind of secret looks like, and the problem line when it does not.
SecretShape = tuple[re.Pattern[str], str]
API_KEY_SHAPE: SecretShape = (
    re.compile(re.escape(API_KEY_PREFIX) + r"\S+"),
    f"must start with {API_KEY_PREFIX}: only live keys work, the service rejects legacy test keys",
)
SIGNING_SECRET_SHAPE: SecretShape = (
    re.compile(re.escape(SIGNING_SECRET_PREFIX) + r"\S+"),
    f"must start with {SIGNING_SECRET_PREFIX} (the endpoint's signing secret from the dashboard)",
)
BOT_TOKEN_SHAPE: SecretShape = (
    re.compile(r"\d{3,20}:[A-Za-z0-9_-]{30,64}"),
    "does not look like a bot token from @BotFather (<digits>:<about 35 letters, digits, _ or ->)",
)
SECRET_TOKEN_SHAPE: SecretShape = (
    re.compile(r"[A-Za-z0-9_-]{1,256}"),
    "must be 1 to 256 characters of A-Z, a-z, 0-9, _ and -",
)


def resolve_secret(
    value: object,
    handler: ValidatorFunctionWrapHandler,
    info: ValidationInfo,
    *,
    required: bool,
    when: str = "",
    shape: SecretShape,
) -> SecretStr | None:
    """Resolve a secret from the file or from the environment variable named by ``<key>_env``.

    For a wrap validator of the secret field: ``when`` says under which condition it is
    ``required``. The ``<key>_env`` field must be declared before the secret so that
    ``info.data`` holds it. The environment comes from the validation context's ``environ``
    (default: ``os.environ``).
    """
    key = info.field_name
    env_key = f"{key}_env"
    if env_key not in info.data:  # the variable name itself is invalid, and reported
        return None
    env_name = info.data[env_key]
    origin = ""
    if isinstance(value, SecretStr):  # built in code rather than read from a file
        value = value.get_secret_value()
    if value is not None and env_name is not None:
        raise ValueError(f"give either {key} or {env_key}, not both")
    if env_name is not None:
        environ: Mapping[str, str] = (info.context or {}).get("environ", os.environ)
        value = environ.get(env_name, "")
        if not value:
            raise ValueError(
                f"environment variable {env_name} (named by {env_key}) is empty or not set"
            )
        origin = f" (value of environment variable {env_name})"
    if value is None:
        if not required:
            return None
        raise ValueError(
            f"required{when}: set {env_key} to the name of an environment variable holding it "
            f"(or {key} in the file)"
        )
    if not isinstance(value, str):
        raise ValueError("must be a string")
    if any(ch.isspace() for ch in value):
        raise ValueError(f"contains spaces or line breaks (a copy-paste slip?){origin}")
    pattern, rule = shape
    if not pattern.fullmatch(value):
        raise ValueError(f"{rule}{origin}")
    secret: SecretStr = handler(value)
    return secret
