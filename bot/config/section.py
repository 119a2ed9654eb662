"""``Section``: the base of every model of a TOML table, and how to walk their nesting.

``submodel`` tells a sub-table apart from a plain key; ``problems`` and ``redaction`` use it to
name locations and draw tables the way the file writes them.
"""

from __future__ import annotations

from typing import Any, ClassVar, get_args

from pydantic import BaseModel, ConfigDict, model_validator


class Section(BaseModel):
    """A TOML table: unknown keys are errors, values are typed as TOML types them."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    # What ``_fill_absent`` puts in place of each key it fills (True: a sub-table, {}; False:
    # a secret given only through its *_env key, None), worked out once per model: it is read
    # on every validation, a thousand times when a host loads a thousand business files.
    _absent_keys: ClassVar[tuple[tuple[str, bool], ...]] = ()

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        absent: list[tuple[str, bool]] = []
        for name in cls.model_fields:
            if f"{name}_env" in cls.model_fields:
                absent.append((name, False))
            elif submodel(cls, name) is not None and not _is_optional(cls, name):
                absent.append((name, True))
        cls._absent_keys = tuple(absent)

    @model_validator(mode="before")
    @classmethod
    def _fill_absent(cls, data: object) -> object:
        # A secret may be given only through its *_env key, and a sub-table may be left out;
        # both still go through validation (secret resolution, path resolution, defaults).
        if not isinstance(data, dict):
            return data
        filled = dict(data)
        for name, table in cls._absent_keys:
            if name not in data:
                filled[name] = {} if table else None
        return filled


def submodel(cls: type[BaseModel], name: str) -> type[BaseModel] | None:
    """The model of the sub-table ``name`` of ``cls``, or None when ``name`` is a plain key."""
    field = cls.model_fields.get(name)
    if field is None:
        return None
    for candidate in (field.annotation, *get_args(field.annotation)):
        if isinstance(candidate, type) and issubclass(candidate, BaseModel):
            return candidate
    return None


def _is_optional(cls: type[BaseModel], name: str) -> bool:
    return type(None) in get_args(cls.model_fields[name].annotation)
