"""The words of the console's language choice (``language_section``): the form in every
signed-in page's header, each shipped language's own name, and the refusal of one unknown."""

from __future__ import annotations

from typing import Final

EN: Final[dict[str, str]] = {
    "console_web.language.own_name": "English",
    "console_web.language.label": "Language",
    "console_web.language.apply": "Change",
    "console_web.language.refused": (
        "This console is not written in that language, so nothing was changed. Choose among: "
        "{languages}."
    ),
}
"""The English source of these words; ``FR`` translates it id for id. ``own_name`` is each
language's name as its readers write it, so the form lists every language in its own words."""

FR: Final[dict[str, str]] = {
    "console_web.language.own_name": "Français",
    "console_web.language.label": "Langue",
    "console_web.language.apply": "Changer",
    "console_web.language.refused": (
        "Cette console n'est pas écrite dans cette langue : rien n'a été changé. Choisissez "
        "parmi : {languages}."
    ),
}
