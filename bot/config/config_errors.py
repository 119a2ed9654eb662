"""The two ways a configuration problem travels.

``ConfigError`` is what ``load_config`` raises to its caller. ``KeyProblems`` is raised inside a
section's table-level check so that ``problems`` can report each finding at its own key.
"""

from __future__ import annotations


class ConfigError(Exception):
    """The configuration file cannot be used; ``problems`` holds one line per problem."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("\n".join(problems))


class KeyProblems(ValueError):
    """Problems found by a table-level check, each reported at its own key (a relative loc;
    from the file's top with ``absolute``, for a check that spans tables)."""

    def __init__(
        self, problems: list[tuple[tuple[str | int, ...], str]], *, absolute: bool = False
    ) -> None:
        self.problems = problems
        self.absolute = absolute
        super().__init__("; ".join(message for _, message in problems))
