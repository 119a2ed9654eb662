"""The open question as data for a program, and the check of an answer against it.

``prompt_data`` turns a flow's ``Prompt`` into what an agent needs to answer it: the question,
the accepted answer kinds, the options (ids and labels), the pre-selected default, hints on how
to answer, and ``answer_schema``, a JSON Schema of every answer the question accepts (an enum of
the option ids where a choice is asked). ``check_answer`` applies the same rules to an answer
before it reaches the flow: an invented option id, a kind the question does not take, or an
answer to an earlier question is refused with a reason (``agent_texts``), and the flow then
re-asks whatever else it refuses (a phone number it cannot read) in the chat's own words.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pydantic

from conversations.dialog import Answer, ChoiceAnswer, CommandAnswer, Prompt
from conversations.texts import agent_texts

# Navigation every question takes, whether or not the prompt shows it.
ALWAYS_COMMANDS = ("back", "cancel", "help")
_ANSWER = pydantic.TypeAdapter[Answer](Answer)
_TEXT_LIMIT = 4096
_KIND_HINTS = {
    "choice": agent_texts.HINT_CHOICE,
    "text": agent_texts.HINT_TEXT,
    "phone": agent_texts.HINT_PHONE,
    "contact": agent_texts.HINT_CONTACT,
    "place": agent_texts.HINT_PLACE,
    "photos": agent_texts.HINT_PHOTOS,
    "confirm": agent_texts.HINT_CONFIRM,
}


@dataclass(frozen=True)
class Refusal:
    """Why an answer does not fit the open question (said to the agent, with the question)."""

    reason: str


def commands_of(prompt: Prompt) -> list[str]:
    """The navigation commands ``prompt`` accepts, in a stable order."""
    # "edit" is not a command here: the summary's edit options name what may be changed.
    named = [name for name in prompt.commands if name != "edit"]
    if prompt.allow_skip and "skip" not in named:
        named.append("skip")
    return list(dict.fromkeys([*named, *ALWAYS_COMMANDS]))


def answer_schema(prompt: Prompt) -> dict[str, Any]:
    """A JSON Schema (draft 2020-12) of every answer ``prompt`` accepts."""
    anchor = {
        "step": {"type": "string", "const": prompt.step},
        "version": {"type": "integer", "const": prompt.version},
    }
    kinds: list[dict[str, Any]] = []
    if prompt.options:
        option = {"type": "string", "enum": [option.id for option in prompt.options]}
        kinds.append(_kind("choice", {"option": option}, ["option"], anchor))
    accepts = prompt.accepts
    if "text" in accepts:
        text = {"type": "string", "minLength": 1, "maxLength": _TEXT_LIMIT}
        kinds.append(_kind("text", {"text": text}, ["text"], anchor))
    if "contact" in accepts:
        name = {"type": "string", "maxLength": 256}
        phone = {"type": "string", "minLength": 3, "maxLength": 64}
        fields = {"phone": phone, "first_name": name, "last_name": name}
        kinds.append(_kind("contact", fields, ["phone"], anchor))
    if "location" in accepts:
        fields = {
            "lat": {"type": "number", "minimum": -90, "maximum": 90},
            "lng": {"type": "number", "minimum": -180, "maximum": 180},
            "address": {"type": "string", "maxLength": 512},
        }
        kinds.append(_kind("location", fields, ["lat", "lng"], anchor))
    if "photos" in accepts:
        urls = {
            "type": "array",
            "minItems": 1,
            "maxItems": 10,
            "items": {"type": "string", "pattern": "^https://", "maxLength": 2048},
        }
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


def hints(prompt: Prompt) -> list[str]:
    """How to answer ``prompt``, in a few plain sentences."""
    said = [_KIND_HINTS[prompt.input]]
    if prompt.options and prompt.input != "choice":
        said.append(agent_texts.HINT_CHOICE)
    if prompt.default is not None:
        said.append(agent_texts.HINT_DEFAULT)
    if prompt.allow_skip:
        said.append(agent_texts.HINT_SKIP)
    if prompt.photos is not None:
        count = prompt.photos
        said.append(agent_texts.photo_count(count.have, count.min, count.max))
    return said


def prompt_data(prompt: Prompt) -> dict[str, Any]:
    """``prompt`` as the JSON API and the MCP server give it."""
    return {
        "step": prompt.step,
        "version": prompt.version,
        "question": prompt.text,
        "input": prompt.input,
        "accepts": [*_answer_kinds(prompt), "command"],
        "options": [
            {"id": option.id, "label": option.label, "detail": option.detail}
            for option in prompt.options
        ],
        "default": prompt.default,
        "current": prompt.current,
        "commands": commands_of(prompt),
        "photos": None if prompt.photos is None else prompt.photos.model_dump(),
        "hints": hints(prompt),
        "answer_schema": answer_schema(prompt),
    }


def _answer_kinds(prompt: Prompt) -> list[str]:
    kinds: list[str] = [kind for kind in prompt.accepts if kind not in ("choice", "command")]
    return ["choice", *kinds] if prompt.options else kinds


def check_answer(prompt: Prompt, raw: object) -> Answer | Refusal:
    """``raw`` (parsed JSON) as an ``Answer`` to ``prompt``, or why it does not fit.

    An answer that names no ``step``/``version`` answers the open question: they are filled
    in, so an answer racing a newer question is refused by the flow as stale.
    """
    if not isinstance(raw, dict):
        return Refusal(agent_texts.WRONG_KIND)
    try:
        answer = _ANSWER.validate_python(raw)
    except pydantic.ValidationError:
        return Refusal(agent_texts.WRONG_KIND)
    if (answer.step is not None and answer.step != prompt.step) or (
        answer.version is not None and answer.version != prompt.version
    ):
        return Refusal(agent_texts.STALE_ANSWER)
    if isinstance(answer, ChoiceAnswer):
        if answer.option not in {option.id for option in prompt.options}:
            return Refusal(agent_texts.NOT_AN_OPTION)
    elif isinstance(answer, CommandAnswer):
        if answer.name not in commands_of(prompt):
            return Refusal(agent_texts.WRONG_KIND)
    elif answer.kind not in _answer_kinds(prompt):
        return Refusal(agent_texts.WRONG_KIND)
    return answer.model_copy(update={"step": prompt.step, "version": prompt.version})
