"""An ``interactive`` message (reply buttons, a list, a location request) checked as Meta does.

Meta's shapes::

    {"type": "button", "header"?: {"type": "text", "text"}, "body": {"text"},
     "footer"?: {"text"}, "action": {"buttons": [{"type": "reply", "reply": {"id", "title"}}]}}
    {"type": "list", ..., "action": {"button", "sections": [{"title", "rows":
        [{"id", "title", "description"?}]}]}}
    {"type": "location_request_message", "body": {"text"}, "action": {"name": "send_location"}}

A value over a limit (``meta_limits``), a duplicate button title or row id, or too many
buttons or rows is refused with 131009 ("Parameter value is not valid"), a missing field or an
unknown interactive type with 100 ("Invalid parameter").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.whatsapp_fake import meta_limits
from bot.whatsapp_fake.graph_errors import INVALID_PARAMETER, PARAMETER_NOT_VALID, GraphError
from bot.whatsapp_fake.graph_fields import (
    list_field,
    object_field,
    optional_text,
    required_text,
    text_at_most,
)
from bot.whatsapp_fake.sent_messages import Offered, SentMessage


def read_interactive(content: Mapping[str, Any], wa_id: str) -> SentMessage:
    """The interactive message ``content`` draws; ``GraphError`` as Meta refuses it."""
    kind = required_text(content, "type", where="interactive")
    body = required_text(object_field(content, "body", where="interactive"), "text", where="body")
    text_at_most(
        PARAMETER_NOT_VALID, "interactive['body']['text']", body, meta_limits.INTERACTIVE_BODY
    )
    header = _header(content)
    footer = _footer(content)
    action = object_field(content, "action", where="interactive")
    if kind == "button":
        offered = _buttons(action)
        return SentMessage("buttons", wa_id, body, offered, header=header, footer=footer)
    if kind == "list":
        button = required_text(action, "button", where="action")
        text_at_most(PARAMETER_NOT_VALID, "action['button']", button, meta_limits.BUTTON_TITLE)
        offered = _rows(action)
        return SentMessage(
            "list", wa_id, body, offered, list_button=button, header=header, footer=footer
        )
    if kind == "location_request_message":
        if action.get("name") != "send_location":
            raise GraphError(INVALID_PARAMETER, "Param action['name'] must be send_location.")
        return SentMessage("location_request", wa_id, body, header=header, footer=footer)
    raise GraphError(INVALID_PARAMETER, f"Interactive type {kind!r} is not supported here.")


def _header(content: Mapping[str, Any]) -> str:
    if "header" not in content:
        return ""
    header = object_field(content, "header", where="interactive")
    if header.get("type") != "text":
        raise GraphError(INVALID_PARAMETER, "Only a text header is simulated.")
    text = required_text(header, "text", where="header")
    text_at_most(PARAMETER_NOT_VALID, "header['text']", text, meta_limits.HEADER_TEXT)
    return text


def _footer(content: Mapping[str, Any]) -> str:
    if "footer" not in content:
        return ""
    text = required_text(object_field(content, "footer", where="interactive"), "text")
    text_at_most(PARAMETER_NOT_VALID, "footer['text']", text, meta_limits.FOOTER_TEXT)
    return text


def _reply_id(item: Mapping[str, Any], where: str) -> str:
    reply_id = required_text(item, "id", where=where)
    text_at_most(PARAMETER_NOT_VALID, f"{where}['id']", reply_id, meta_limits.REPLY_ID)
    return reply_id


def _buttons(action: Mapping[str, Any]) -> tuple[Offered, ...]:
    buttons = list_field(action, "buttons", where="action")
    if len(buttons) > meta_limits.BUTTONS:
        raise GraphError(
            PARAMETER_NOT_VALID, f"buttons: Too many elements. Max is {meta_limits.BUTTONS}."
        )
    offered: list[Offered] = []
    for button in buttons:
        if not isinstance(button, dict) or button.get("type") != "reply":
            raise GraphError(INVALID_PARAMETER, "Param button['type'] must be reply.")
        reply = object_field(button, "reply", where="button")
        title = required_text(reply, "title", where="reply")
        text_at_most(PARAMETER_NOT_VALID, "reply['title']", title, meta_limits.BUTTON_TITLE)
        offered.append(Offered(_reply_id(reply, "reply"), title))
    if len({choice.title for choice in offered}) != len(offered):
        raise GraphError(PARAMETER_NOT_VALID, "Duplicate button title.")
    if len({choice.reply_id for choice in offered}) != len(offered):
        raise GraphError(PARAMETER_NOT_VALID, "Duplicate button id.")
    return tuple(offered)


def _rows(action: Mapping[str, Any]) -> tuple[Offered, ...]:
    sections = list_field(action, "sections", where="action")
    if len(sections) > meta_limits.LIST_SECTIONS:
        raise GraphError(
            PARAMETER_NOT_VALID, f"sections: Too many elements. Max is {meta_limits.LIST_SECTIONS}."
        )
    offered: list[Offered] = []
    for section in sections:
        if not isinstance(section, dict):
            raise GraphError(INVALID_PARAMETER, "Param action['sections'] must hold objects.")
        title = optional_text(section, "title", where="section")
        if len(sections) > 1 and not title:
            raise GraphError(
                INVALID_PARAMETER, "A section title is required with several sections."
            )
        text_at_most(PARAMETER_NOT_VALID, "section['title']", title, meta_limits.SECTION_TITLE)
        for row in list_field(section, "rows", where="section"):
            if not isinstance(row, dict):
                raise GraphError(INVALID_PARAMETER, "Param section['rows'] must hold objects.")
            row_title = required_text(row, "title", where="row")
            text_at_most(PARAMETER_NOT_VALID, "row['title']", row_title, meta_limits.ROW_TITLE)
            description = optional_text(row, "description", where="row")
            text_at_most(
                PARAMETER_NOT_VALID, "row['description']", description, meta_limits.ROW_DESCRIPTION
            )
            offered.append(Offered(_reply_id(row, "row"), row_title, description))
    if len(offered) > meta_limits.LIST_ROWS:
        raise GraphError(
            PARAMETER_NOT_VALID,
            f"Total row count exceed max allowed count: {meta_limits.LIST_ROWS}",
        )
    if len({choice.reply_id for choice in offered}) != len(offered):
        raise GraphError(PARAMETER_NOT_VALID, "Row ids must be unique.")
    return tuple(offered)
