"""``ConsolePages``: the console's Jinja2 templates (``templates/``), drawn into responses.

Autoescape is on for every template, so a customer's name or a refused filter echoed back is
text, never markup. Each page extends ``base.html``; the words come from the catalogue a page
is drawn with (``say``), never from the templates themselves. Every link, form, script and
stylesheet a template names starts with ``root`` (``console_kit.app_root``: "" or the prefix
the business's app is served under, such as ``/b/acme``), then the app's own path.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from starlette.responses import HTMLResponse

from conversations.texts.catalogue import Catalogue

TEMPLATES: Final = Path(__file__).parent / "templates"
STATIC: Final = Path(__file__).parent / "static"


class ConsolePages:
    """The templates, loaded once; ``page`` draws one in a catalogue's words."""

    def __init__(self) -> None:
        self._env = Environment(
            loader=FileSystemLoader(TEMPLATES),
            autoescape=select_autoescape(default=True, default_for_string=True),
            undefined=StrictUndefined,  # a name a template misspells fails its test
            trim_blocks=True,
            lstrip_blocks=True,
        )

    def page(
        self, name: str, catalogue: Catalogue, *, root: str, status: int = 200, **context: Any
    ) -> HTMLResponse:
        """``templates/{name}`` drawn with ``context``, ``say`` (the catalogue's words),
        ``lang`` (its language) and ``root`` (the prefix of its paths), answered with
        ``status``."""
        return HTMLResponse(
            self.fragment(name, catalogue, root=root, **context), status_code=status
        )

    def fragment(self, name: str, catalogue: Catalogue, *, root: str, **context: Any) -> str:
        """``templates/{name}`` drawn as text (a page, or a part a live page replaces)."""
        template = self._env.get_template(name)
        return template.render(say=catalogue.say, lang=catalogue.language, root=root, **context)
