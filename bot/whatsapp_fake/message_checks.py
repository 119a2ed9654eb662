"""Reading a ``POST /{phone_number_id}/messages`` body the way the Cloud API does.

Meta's request: ``messaging_product: "whatsapp"``, ``recipient_type: "individual"``, ``to``
(the customer's number), ``type`` and an object of that name (``text``, ``interactive``,
``template``, ``image`` ...), with ``context.message_id`` for a reply. What Meta refuses is
refused here with Meta's code: a missing or mistyped field or an unknown ``type`` with 100
("Invalid parameter"), a value over a limit of an interactive message with 131009 ("Parameter
value is not valid"; ``interactive_checks``), and so is a location's latitude or longitude that
is not a number of degrees within range (beyond ±90, ±180). An accepted body becomes a
``SentMessage``.

A document's ``filename`` is optional, as Meta's reference says (the customer's app then
names the file itself), and a string when given.

Where Meta's behaviour is not documented the fake makes one choice, said here: a media id the
fake does not hold is refused with 131009 at once (Meta may instead accept and fail later).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from bot.whatsapp_fake import meta_limits
from bot.whatsapp_fake.graph_errors import INVALID_PARAMETER, PARAMETER_NOT_VALID, GraphError
from bot.whatsapp_fake.graph_fields import (
    object_field,
    optional_text,
    required_text,
    text_at_most,
)
from bot.whatsapp_fake.interactive_checks import read_interactive
from bot.whatsapp_fake.sent_messages import SentKind, SentMessage

MEDIA_KINDS: tuple[SentKind, ...] = ("image", "document", "audio", "video", "sticker")
CAPTIONED: frozenset[str] = frozenset({"image", "document", "video"})


def read_message(body: Mapping[str, Any], media_exists: Callable[[str], bool]) -> SentMessage:
    """The message ``body`` asks to send, checked as Meta checks it (``GraphError`` if not)."""
    if body.get("messaging_product") != "whatsapp":
        raise GraphError(INVALID_PARAMETER, "The parameter messaging_product is required.")
    recipient_type = body.get("recipient_type", "individual")
    if recipient_type != "individual":
        raise GraphError(INVALID_PARAMETER, "Param recipient_type must be one of {INDIVIDUAL}")
    wa_id = wa_id_of(required_text(body, "to"))
    kind = required_text(body, "type")
    content = object_field(body, kind)
    message = _read_content(kind, content, wa_id, media_exists)
    context = body.get("context")
    if context is not None:
        message = replace(
            message, replied_to=required_text(object_field(body, "context"), "message_id")
        )
    return replace(message, raw=body)


def wa_id_of(to: str) -> str:
    """The WhatsApp id (digits) of the number ``to`` as a business writes it (``+234 80...``)."""
    digits = "".join(c for c in to if c.isdigit())
    if len(digits) not in meta_limits.WA_ID_DIGITS or any(c not in "+0123456789 -()" for c in to):
        raise GraphError(INVALID_PARAMETER, "The parameter to is not a valid phone number.")
    return digits


def _read_content(
    kind: str, content: Mapping[str, Any], wa_id: str, media_exists: Callable[[str], bool]
) -> SentMessage:
    if kind == "text":
        body = required_text(content, "body", where="text")
        text_at_most(INVALID_PARAMETER, "text['body']", body, meta_limits.TEXT_BODY)
        return SentMessage("text", wa_id, text=body)
    if kind == "interactive":
        return read_interactive(content, wa_id)
    if kind == "template":
        return _read_template(content, wa_id)
    if kind == "reaction":
        return SentMessage(
            "reaction",
            wa_id,
            reacted_to=required_text(content, "message_id", where="reaction"),
            emoji=optional_text(content, "emoji"),
        )
    if kind == "location":
        return _read_location(content, wa_id)
    for media_kind in MEDIA_KINDS:
        if kind == media_kind:
            return _read_media(media_kind, content, wa_id, media_exists)
    raise GraphError(
        INVALID_PARAMETER,
        "Param type must be one of {AUDIO, CONTACTS, DOCUMENT, IMAGE, INTERACTIVE, LOCATION, "
        "REACTION, STICKER, TEMPLATE, TEXT, VIDEO}",
    )


def _read_media(
    kind: SentKind, content: Mapping[str, Any], wa_id: str, media_exists: Callable[[str], bool]
) -> SentMessage:
    media_id = optional_text(content, "id")
    link = optional_text(content, "link")
    if bool(media_id) == bool(link):
        raise GraphError(INVALID_PARAMETER, f"{kind} needs exactly one of id or link.")
    if media_id and not media_exists(media_id):
        raise GraphError(PARAMETER_NOT_VALID, f"Invalid media id {media_id}")
    caption = optional_text(content, "caption")
    if caption and kind not in CAPTIONED:
        raise GraphError(INVALID_PARAMETER, f"{kind} takes no caption.")
    text_at_most(PARAMETER_NOT_VALID, f"{kind}['caption']", caption, meta_limits.CAPTION)
    filename = optional_text(content, "filename", where=kind) if kind == "document" else ""
    return SentMessage(kind, wa_id, text=caption, media_id=media_id, filename=filename, link=link)


def _read_location(content: Mapping[str, Any], wa_id: str) -> SentMessage:
    latitude = _coordinate(content, "latitude", 90.0)
    longitude = _coordinate(content, "longitude", 180.0)
    name = optional_text(content, "name", where="location")
    address = optional_text(content, "address", where="location")
    return SentMessage(
        "location",
        wa_id,
        text="\n".join(part for part in (name, address) if part),
        latitude=latitude,
        longitude=longitude,
        place_name=name,
        address=address,
    )


def _coordinate(content: Mapping[str, Any], key: str, bound: float) -> float:
    """``location[key]`` in degrees: a number, or a string of one, as Meta takes both; missing
    or of another type is 100, not a number or beyond ``bound`` either way is 131009."""
    value = content.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float | str) or value == "":
        raise GraphError(INVALID_PARAMETER, f"The parameter location['{key}'] is required.")
    try:
        degrees = float(value)
    except ValueError:
        degrees = math.nan
    if not -bound <= degrees <= bound:  # NaN too
        raise GraphError(PARAMETER_NOT_VALID, f"Param location['{key}'] is not a valid {key}.")
    return degrees


def _read_template(content: Mapping[str, Any], wa_id: str) -> SentMessage:
    name = required_text(content, "name", where="template")
    language = required_text(object_field(content, "language", where="template"), "code")
    parameters: list[str] = []
    components = content.get("components", [])
    if not isinstance(components, list):
        raise GraphError(INVALID_PARAMETER, "Param template['components'] must be an array.")
    for component in components:
        if not isinstance(component, dict) or _lower(component.get("type")) != "body":
            continue  # header and button parameters: the fake counts the body's (see templates)
        for parameter in component.get("parameters", []):
            if not isinstance(parameter, dict) or _lower(parameter.get("type")) != "text":
                raise GraphError(PARAMETER_NOT_VALID, "Only text body parameters are simulated.")
            parameters.append(required_text(parameter, "text", where="parameter"))
    return SentMessage(
        "template",
        wa_id,
        text="\n".join(parameters),
        template=name,
        language=language,
        parameters=tuple(parameters),
    )


def _lower(value: object) -> str:
    # Meta reads a component's and a parameter's type in either case (pywa sends "BODY").
    return value.lower() if isinstance(value, str) else ""
