"""The two ways a configuration problem travels, as one tree.

::

    ConfigError                   the configuration file cannot be used: one line per problem
    └── KeyProblems               a section's table-level check failed; also a ValueError

``ConfigError`` is what ``load_config`` raises to its caller, mapped once from pydantic's
``ValidationError`` (without chaining it: it carries input values, secrets included).
``KeyProblems`` is raised inside a section's table-level check, where pydantic takes it as a
ValueError, so that ``problems`` can report each finding at its own key; it never leaves the
validation.
"""

from __future__ import annotations


class ConfigError(Exception):
    """The configuration file cannot be used; ``problems`` holds one line per problem."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("\n".join(problems))


class KeyProblems(ConfigError, ValueError):
    """Problems found by a table-level check, each reported at its own key in ``at_keys`` (a
    relative loc; from the file's top with ``absolute``, for a check that spans tables).
    ``problems`` holds their messages alone."""

    def __init__(
        self, at_keys: list[tuple[tuple[str | int, ...], str]], *, absolute: bool = False
    ) -> None:
        super().__init__([message for _, message in at_keys])
        self.at_keys = at_keys
        self.absolute = absolute

    def __str__(self) -> str:
        # One line, as pydantic quotes a validator's ValueError.
        return "; ".join(self.problems)
