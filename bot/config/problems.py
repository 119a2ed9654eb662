"""Turning a pydantic ``ValidationError`` into one line per problem, as an operator reads it.

Each line names where the problem is the way the TOML file writes it (``[relay.operators]
events[2]: ...``), tables told apart from keys, and says what is wrong in the file's terms
(TOML types, not Python ones). An unknown key or table gets the closest known name as a
suggestion. No line carries an input value: it could be a secret.
"""

from __future__ import annotations

import difflib
import re
from typing import Any

from pydantic import BaseModel, ValidationError

from bot.config.config_errors import KeyProblems
from bot.config.root import Config
from bot.config.section import submodel

Location = tuple[str | int, ...]

_TOML_TYPES = {
    str: "a string",
    bool: "true or false",
    int: "an integer",
    float: "a number",
    list: "an array",
    dict: "a table",
}


def problem_lines(
    exc: ValidationError, data: dict[str, Any], root: type[BaseModel] = Config
) -> list[str]:
    """One ``<where>: <reason>`` line per error in ``exc``; ``data`` is the parsed file, and
    ``root`` the model of the whole file (a business's ``Config``, or a host file's)."""
    lines: list[str] = []
    for error in exc.errors(include_url=False):
        loc = tuple(error["loc"])
        cause = error.get("ctx", {}).get("error")
        if isinstance(cause, KeyProblems):
            base = () if cause.absolute else loc
            lines += [f"{_where(base + sub, data, root)}: {text}" for sub, text in cause.at_keys]
        else:
            lines.append(f"{_where(loc, data, root)}: {_message(error, loc, data, root)}")
    return lines


def _model_at(tables: Location, root: type[BaseModel]) -> type[BaseModel] | None:
    model: type[BaseModel] | None = root
    for name in tables:
        model = submodel(model, str(name)) if model is not None else None
    return model


def _raw_at(loc: Location, data: object) -> object:
    for part in loc:
        if not isinstance(data, dict) or part not in data:
            return None
        data = data[part]
    return data


def _where(loc: Location, data: dict[str, Any], root: type[BaseModel]) -> str:
    """``[table.sub] key[2]`` for a pydantic location, tables told apart from keys."""
    tables: list[str] = []
    model: type[BaseModel] | None = root
    rest = list(loc)
    while rest and isinstance(head := rest[0], str):
        sub = submodel(model, head) if model is not None else None
        if sub is None and not isinstance(_raw_at((*tables, head), data), dict):
            break
        tables.append(head)
        rest.pop(0)
        model = sub
    table = f"[{'.'.join(tables)}]" if tables else ""
    if not rest:
        return table
    key = str(rest[0]) + "".join(f"[{index}]" for index in rest[1:])
    return f"{table} {key}" if table else key


def _message(error: Any, loc: Location, data: dict[str, Any], root: type[BaseModel]) -> str:
    kind: str = error["type"]
    if kind == "extra_forbidden":
        return _unknown_name(loc, data, root)
    if kind == "missing":
        return "required key is missing"
    if kind == "value_error":
        return str(error["ctx"]["error"])
    if kind == "literal_error":
        return "must be " + str(error["ctx"]["expected"]).replace("'", '"')
    if kind in ("model_type", "dict_type", "model_attributes_type"):
        return "must be a table"
    if kind in ("int_type", "int_from_float") and isinstance(error.get("input"), float):
        return "must be a whole number (got a number with a decimal point)"
    if kind == "bool_type":
        got = _TOML_TYPES.get(type(error.get("input")), "something else")
        return f"must be true or false, without quotes (got {got})"
    message = re.sub(
        r"^(Input|String|List|Value) should( be)?",
        lambda m: "must" + (m[2] or ""),
        str(error["msg"]),
    )
    if kind.endswith("_type") or kind.endswith("_parsing"):
        got = _TOML_TYPES.get(type(error.get("input")), "something else")
        message += f" (got {got})"
    return message


def _unknown_name(loc: Location, data: dict[str, Any], root: type[BaseModel]) -> str:
    """The problem with a key or table the section does not have, with a likely intended one."""
    is_table = isinstance(_raw_at(loc, data), dict)
    model = _model_at(loc[:-1], root)
    known = list(model.model_fields) if model is not None else []
    close = difflib.get_close_matches(str(loc[-1]), known, n=1)
    if not close:
        return f"unknown {'table' if is_table else 'key'}"
    if is_table:
        return f"unknown table (did you mean [{'.'.join(map(str, (*loc[:-1], close[0])))}]?)"
    return f"unknown key (did you mean {close[0]}?)"
