"""The JSON Schema of the answers an open question takes, and the check of an answer against it.

``answer_schema`` is what each question publishes (``prompt_data``); ``schema_problem`` checks
an answer against that very schema object (``jsonschema``, draft 2020-12) at both doors, so an
agent that validates its answer first and the bot agree. The schema says what the bot takes:
the lengths past which a step could never accept a value (a phone number over 40 characters is
no number, a name over 100 characters is refused), coordinates on the globe, and photo links as
``is_image_url`` takes them: https, or plain http only to a loopback host, which is where a bot
configured with a loopback ``public_base_url`` serves its own uploads. What a step judges by
meaning (a number that is not a phone number, a pin outside the area) stays the flow's: such an
answer fits the schema and is asked again with the reason.

A refusal names the field and the rule, never the value: a value may be 60 KB of anything.
"""

from __future__ import annotations

import re
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from bot.partner.vocabulary import LOOPBACK_HOSTS
from conversations.dialog import CONFIRM, Prompt
from conversations.steps.people import NAME_LENGTH

# Navigation every question takes, whether or not the prompt shows it.
ALWAYS_COMMANDS = ("back", "cancel", "help")
TEXT_LIMIT = 4096  # a Telegram message's limit: no step takes more
PHONE_LENGTH = (3, 40)  # ``normalise_phone`` reads no number past 40 characters
NAME_LIMIT = NAME_LENGTH[1]  # a contact's name is one person's name
ADDRESS_LIMIT = 512
URL_LIMIT = 2048
PHOTO_LINKS = 10  # more than any photo question keeps (the extra ones are dropped)


def photo_url_pattern() -> str:
    """The links ``is_image_url`` takes, as a regular expression (ECMA 262 and Python alike):
    https to any host, plain http only to a loopback host (``LOOPBACK_HOSTS``), without a user
    name; a path, query or fragment may follow."""
    loopback = sorted(
        rf"\[{re.escape(host)}\]" if ":" in host else re.escape(host) for host in LOOPBACK_HOSTS
    )
    host = r"(?:[^\s/?#@\[\]:]+|\[[0-9A-Fa-f:.]+\])"
    port = r"(?::[0-9]{1,5})?"
    rest = r"(?:[/?#]\S*)?"
    return rf"^(?:https://{host}|http://(?:{'|'.join(loopback)})){port}{rest}$"


def commands_of(prompt: Prompt) -> list[str]:
    """The navigation commands ``prompt`` accepts, in a stable order."""
    # "edit" is not a command here: the summary's edit options name what may be changed.
    named = [name for name in prompt.commands if name != "edit"]
    if prompt.allow_skip and "skip" not in named:
        named.append("skip")
    return list(dict.fromkeys([*named, *ALWAYS_COMMANDS]))


def answer_schema(prompt: Prompt, total: dict[str, Any] | None = None) -> dict[str, Any]:
    """A JSON Schema (draft 2020-12) of every answer ``prompt`` accepts; at a summary,
    ``total`` is the JSON Schema of the total its confirm must carry (``order_total``)."""
    anchor = {
        "step": {"type": "string", "const": prompt.step},
        "version": {"type": "integer", "const": prompt.version},
    }
    kinds: list[dict[str, Any]] = []
    if prompt.options:
        # At the summary, the fields its groups hold are answers too (``Prompt.changes``).
        ids = [option.id for option in (*prompt.options, *prompt.changes)]
        option = {"type": "string", "enum": list(dict.fromkeys(ids))}
        if total is None:
            kinds.append(_kind("choice", {"option": option}, ["option"], anchor))
        else:
            choice = _kind("choice", {"option": option, "total": total}, ["option"], anchor)
            confirming = {"properties": {"option": {"const": CONFIRM}}, "required": ["option"]}
            kinds.append({**choice, "if": confirming, "then": {"required": ["total"]}})
    accepts = prompt.accepts
    if "text" in accepts:
        text = {"type": "string", "minLength": 1, "maxLength": TEXT_LIMIT}
        kinds.append(_kind("text", {"text": text}, ["text"], anchor))
    if "contact" in accepts:
        name = {"type": "string", "maxLength": NAME_LIMIT}
        low, high = PHONE_LENGTH
        phone = {"type": "string", "minLength": low, "maxLength": high}
        fields = {"phone": phone, "first_name": name, "last_name": name}
        kinds.append(_kind("contact", fields, ["phone"], anchor))
    if "location" in accepts:
        fields = {
            "lat": {"type": "number", "minimum": -90, "maximum": 90},
            "lng": {"type": "number", "minimum": -180, "maximum": 180},
            "address": {"type": "string", "maxLength": ADDRESS_LIMIT},
        }
        kinds.append(_kind("location", fields, ["lat", "lng"], anchor))
    if "photos" in accepts:
        link = {"type": "string", "pattern": photo_url_pattern(), "maxLength": URL_LIMIT}
        urls = {"type": "array", "minItems": 1, "maxItems": PHOTO_LINKS, "items": link}
        kinds.append(_kind("photos", {"urls": urls}, ["urls"], anchor))
    name = {"type": "string", "enum": commands_of(prompt)}
    kinds.append(_kind("command", {"name": name}, ["name"], anchor))
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "oneOf": kinds}


def _kind(
    kind: str, fields: dict[str, Any], required: list[str], anchor: dict[str, Any]
) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {"kind": {"const": kind}, **fields, **anchor},
        "required": ["kind", *required],
        "additionalProperties": False,
    }


def schema_problem(schema: dict[str, Any], raw: object) -> str | None:
    """Why ``raw`` does not fit ``schema`` (one ``answer_schema``), or None when it does.

    The verdict is the whole schema's; the reason comes from the branch of the answer's kind.
    """
    validator = Draft202012Validator(schema)
    if validator.is_valid(raw):
        return None
    branches: list[dict[str, Any]] = schema["oneOf"]
    kinds = [branch["properties"]["kind"]["const"] for branch in branches]
    kind = raw.get("kind") if isinstance(raw, dict) else None
    if kind not in kinds:
        return f"kind must be one of {kinds}"
    branch = branches[kinds.index(kind)]
    errors = sorted(validator.evolve(schema=branch).iter_errors(raw), key=_where)
    return _said(errors[0], branch) if errors else f"the answer does not fit {kind}"


def _where(error: ValidationError) -> str:
    return "/".join(str(part) for part in error.absolute_path)


def _said(error: ValidationError, branch: dict[str, Any]) -> str:
    """One rule broken, in words that name the field and the rule but not the value."""
    field = _where(error) or "the answer"
    rule, limit = error.validator, error.validator_value
    if rule == "required":  # the branch's fields, or the total a confirm needs
        return f"{branch['properties']['kind']['const']} needs {limit}"
    if rule == "additionalProperties":
        return f"the answer may only have {sorted(branch['properties'])}"
    said = {
        "type": f"must be of type {limit}",
        "minLength": f"must be at least {limit} characters",
        "maxLength": f"must be at most {limit} characters",
        "minimum": f"must be at least {limit}",
        "maximum": f"must be at most {limit}",
        "minItems": f"must list at least {limit}",
        "maxItems": f"must list at most {limit}",
        "enum": "must be one of the values answer_schema lists",
        "const": f"must be {limit!r}",
        "pattern": "must be an https link (plain http only to a loopback host)",
    }
    return f"{field} {said.get(str(rule), 'does not fit answer_schema')}"
