"""The message templates Meta has approved for the business, and a template send checked
against them.

Outside the customer-service window only a template goes, and only one Meta approved: its
name in that language, with as many body parameters as its text has placeholders. Meta
refuses an unknown name or language with 132001 ("Template name does not exist in the
translation", HTTP 404) and a wrong count with 132000 ("Number of parameters does not match
the expected number of params").
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bot.whatsapp_fake.graph_errors import (
    TEMPLATE_DOES_NOT_EXIST,
    TEMPLATE_PARAMETER_MISMATCH,
    GraphError,
)
from bot.whatsapp_fake.sent_messages import SentMessage


@dataclass(frozen=True)
class ApprovedTemplate:
    """A template approved in ``language`` (Meta's code: ``en``, ``fr``) whose body takes
    ``body_parameters`` values (``{{1}}`` ... ``{{n}}``)."""

    name: str
    language: str
    body_parameters: int


class TemplateRegistry:
    """The approved templates, by name and language."""

    def __init__(self, approved: Iterable[ApprovedTemplate] = ()) -> None:
        self._approved: dict[tuple[str, str], ApprovedTemplate] = {}
        for template in approved:
            self.approve(template)

    def approve(self, template: ApprovedTemplate) -> None:
        """Meta approved ``template`` (replacing an earlier one of its name and language)."""
        self._approved[template.name, template.language] = template

    def check(self, message: SentMessage) -> None:
        """Refuse the template ``message`` as Meta would (``GraphError``), or pass it."""
        template = self._approved.get((message.template, message.language))
        if template is None:
            raise GraphError(
                TEMPLATE_DOES_NOT_EXIST,
                f"template name ({message.template}) does not exist in {message.language}",
            )
        if len(message.parameters) != template.body_parameters:
            raise GraphError(
                TEMPLATE_PARAMETER_MISMATCH,
                f"body: number of localizable_params ({len(message.parameters)}) does not "
                f"match the expected number of params ({template.body_parameters})",
            )
