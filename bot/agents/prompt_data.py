"""The open question as data for a program, and the check of an answer against it.

``prompt_data`` turns a flow's ``Prompt`` into what an agent needs to answer it: the question,
the accepted answer kinds, the options (ids and labels), the pre-selected default, hints on how
to answer, and ``answer_schema``, a JSON Schema of every answer the question accepts (an enum of
the option ids where a choice is asked). ``check_answer`` applies that very
schema to an answer before it reaches the flow: an invented option id, a kind the question does
not take, an answer to an earlier question, a value out of the schema (too long, off the globe,
not a link the bot takes) or text no store could keep is refused with a reason, and the flow
then re-asks whatever else it refuses (a phone number it cannot read) in the chat's own words.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pydantic

from bot.agents.answer_schema import answer_schema, commands_of, schema_problem
from bot.agents.json_values import unkeepable
from bot.agents.order_total import total_schema
from conversations.dialog import Answer, ChoiceAnswer, CommandAnswer, Prompt
from conversations.texts import agent_texts

__all__ = ["Refusal", "answer_schema", "check_answer", "commands_of", "hints", "prompt_data"]
_ANSWER = pydantic.TypeAdapter[Answer](Answer)
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


def prompt_data(prompt: Prompt, total: dict[str, Any] | None = None) -> dict[str, Any]:
    """``prompt`` as the JSON API and the MCP server give it; at a summary, with the ``total``
    its confirm must carry (``order_total.summary_total``)."""
    data: dict[str, Any] = {
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
    if total is not None:
        data["total"] = total
        data["hints"] = [*data["hints"], agent_texts.HINT_TOTAL]
        data["answer_schema"] = answer_schema(prompt, total_schema(total))
    return data


def _answer_kinds(prompt: Prompt) -> list[str]:
    kinds: list[str] = [kind for kind in prompt.accepts if kind not in ("choice", "command")]
    return ["choice", *kinds] if prompt.options else kinds


def check_answer(
    prompt: Prompt, raw: object, total: dict[str, Any] | None = None
) -> Answer | Refusal:
    """``raw`` (parsed JSON) as an ``Answer`` to ``prompt``, or why it does not fit; at a
    summary, against the schema published with ``total`` (whose value the caller judges).

    An answer that names no ``step``/``version`` answers the open question: they are filled
    in, so an answer racing a newer question is refused by the flow as stale.
    """
    if not isinstance(raw, dict) or raw.get("kind") not in [*_answer_kinds(prompt), "command"]:
        return Refusal(agent_texts.WRONG_KIND)
    unkept = unkeepable(raw)
    if unkept is not None:
        return Refusal(_out_of_schema(unkept))
    schema = answer_schema(prompt, None if total is None else total_schema(total))
    try:
        # The total is the agent channels' own proof, not part of the flow's answer.
        answer = _ANSWER.validate_python({k: v for k, v in raw.items() if k != "total"})
    except pydantic.ValidationError:
        problem = schema_problem(schema, raw)
        return Refusal(agent_texts.WRONG_KIND if problem is None else _out_of_schema(problem))
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
    # Last, so the refusals above keep their plainer words for the commonest mistakes.
    problem = schema_problem(schema, raw)
    if problem is not None:
        return Refusal(_out_of_schema(problem))
    return answer.model_copy(update={"step": prompt.step, "version": prompt.version})


def _out_of_schema(problem: str) -> str:
    return f"The answer does not fit the open question's answer_schema: {problem}."
