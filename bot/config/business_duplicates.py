"""What no two businesses of one host may share, and the refusals when two do.

A host routes each request to its business by a secret or an id it carries: Telegram's
``secret_token`` header, a partner event's signature, an agent's key, WhatsApp's
``phone_number_id``. Two businesses with the same one cannot be told apart, and one could act
as the other; the same Telegram token or Partner API key in two files is a copy-paste slip
that would mix two businesses' chats or deliveries. So each such value must be one business's:
two files sharing one are both refused, each problem naming both files and the key, never the
value. Secrets are compared by their SHA-256 (``Fingerprint``); the values are not kept.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from pydantic import SecretStr

from bot.config.root import Config


@dataclass(frozen=True)
class Fingerprint:
    """One value that must be a single business's: what it is (``kind``: values of one kind
    are compared), where the file writes it (``key``), and the SHA-256 of the value."""

    kind: str
    key: str
    digest: str


class Owner(NamedTuple):
    """A business as the duplicate check sees it: its name, file and fingerprints."""

    name: str
    file: Path
    fingerprints: Sequence[Fingerprint]


def fingerprints(config: Config) -> tuple[Fingerprint, ...]:
    """Every value of ``config`` that must be its business's alone."""
    found = [
        _secret("Telegram bot token", "[telegram] token", config.telegram.token),
        _secret("Telegram secret_token", "[telegram] secret_token", config.telegram.secret_token),
        _secret("Partner API key", "[partner] api_key", config.partner.api_key),
        _secret("signing secret", "[webhooks] signing_secret", config.webhooks.signing_secret),
        _secret(
            "signing secret",
            "[webhooks] previous_signing_secret",
            config.webhooks.previous_signing_secret,
        ),
    ]
    found += [
        Fingerprint(
            "agent key", f"[[agents.channels]] {channel.name}'s key", channel.expected_hash()
        )
        for channel in config.agents.configured
    ]
    if config.whatsapp.phone_number_id is not None:
        number = config.whatsapp.phone_number_id
        found.append(Fingerprint("WhatsApp number", "[whatsapp] phone_number_id", _digest(number)))
    database = config.storage.shared_database
    if database is not None:
        key = "[storage.postgres] lock_namespace (derived from the business's name)"
        found.append(Fingerprint("lock namespace", key, _digest(str(database.lock_namespace))))
    return tuple(print_ for print_ in found if print_ is not None)


def duplicate_problems(owners: Iterable[Owner]) -> dict[str, list[str]]:
    """Per business name, why it is refused for sharing with another: its name (without
    case), or a fingerprint's value. Each line names both files and the key."""
    everyone = list(owners)
    problems: defaultdict[str, list[str]] = defaultdict(list)
    by_name: defaultdict[str, list[Owner]] = defaultdict(list)
    for owner in everyone:
        by_name[owner.name.lower()].append(owner)
    for same in by_name.values():
        if len(same) < 2:
            continue
        for owner in same:
            problems[owner.name] += [
                f"{owner.file}: names the same business as {other.file} (names are compared "
                "without case): keep one"
                for other in same
                if other is not owner
            ]
    holders: defaultdict[tuple[str, str], list[tuple[Owner, Fingerprint]]] = defaultdict(list)
    for owner in everyone:
        for print_ in owner.fingerprints:
            holders[print_.kind, print_.digest].append((owner, print_))
    for shared in holders.values():
        if len(shared) < 2:  # the usual case: one business's value
            continue
        for owner, print_ in shared:
            problems[owner.name] += [
                f"{owner.file}: {print_.key}: the same as {other.file}'s {other_print.key}: "
                f"each business has its own {print_.kind} (compared by hash; not shown)"
                for other, other_print in shared
                if other.name.lower() != owner.name.lower()
            ]
    return {name: lines for name, lines in problems.items() if lines}


def _secret(kind: str, key: str, value: SecretStr | None) -> Fingerprint | None:
    return None if value is None else Fingerprint(kind, key, _digest(value.get_secret_value()))


def _digest(value: str) -> str:
    return hashlib.sha256(value.encode("utf-8")).hexdigest()
