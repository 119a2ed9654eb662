"""A webhook push from Meta, read into the channel's values (``bot.whatsapp.inbound``).

A push is ``{"object": "whatsapp_business_account", "entry": [{"changes": [{"field":
"messages", "value": {...}}]}]}``; each ``value`` names the business number it is for
(``metadata.phone_number_id``) and holds ``contacts`` (the senders' profiles), ``messages``
(what customers sent), ``statuses`` (what became of the bot's messages) and ``errors`` (Meta's
own trouble). The shapes are Meta's, from the Cloud API's webhook reference; the models below
read only what the bot uses and ignore keys Meta adds.

Every string is bounded and every list too, so a push cannot make the bot hold more than its
body's size limit allows. What is read, and what is dropped:

* a ``value`` for another ``phone_number_id`` is ignored (one note per change: the push is
  someone else's number on the same app);
* a change of another ``field`` than ``messages`` is ignored (the app subscribed to it by hand);
* a message of a type the bot does not take (a sticker, a reaction, a voice note, a type Meta
  adds later) becomes ``Unsupported(type)``, so the customer is told politely;
* a message or status that breaks its shape (a missing id, a ``wa_id`` that is not a number,
  a string over its bound, a status name Meta never sent before) is dropped with one flaw
  naming where and which rule, never the value: it may be a customer's words.

Each kept item carries the JSON it came from (the one message with its sender's profile, or
the one status), which the inbox stores and handling reads again with ``message_of`` and
``status_of``: what is stored is exactly what was checked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from bot.whatsapp.inbound import (
    ButtonReply,
    Content,
    Image,
    InboundMessage,
    ListReply,
    Location,
    SharedContact,
    StatusError,
    StatusUpdate,
    Text,
    Unsupported,
)
from bot.whatsapp.whatsapp_errors import WhatsAppChannelError

BUSINESS_OBJECT: Final = "whatsapp_business_account"
MAX_TEXT: Final = 65_536
"""A customer's text or caption: WhatsApp's own limit on a message."""
MAX_SHORT: Final = 1_024
"""A title, a name, an address, a reply's id."""
MAX_ITEMS: Final = 1_000
"""Entries, changes, messages or statuses in one push: Meta batches a few at most."""

Id = Annotated[str, StringConstraints(pattern=r"^[\x21-\x7e]{1,256}$")]
"""Meta's ids (``wamid.…``, a media id): printable ASCII without spaces."""
WaId = Annotated[str, StringConstraints(pattern=r"^[0-9]{5,15}$")]
"""A WhatsApp number: an E.164 number's digits (at most 15), which a chat id holds."""
Stamp = Annotated[str, StringConstraints(pattern=r"^[0-9]{1,12}$")]
Short = Annotated[str, StringConstraints(max_length=MAX_SHORT)]
Long = Annotated[str, StringConstraints(max_length=MAX_TEXT)]
TypeName = Annotated[str, StringConstraints(pattern=r"^[a-z_]{1,40}$")]


class _Shape(BaseModel):
    """Meta's JSON: keys the bot does not read are ignored, the rest checked as declared."""

    model_config = ConfigDict(extra="ignore", frozen=True)


class _Metadata(_Shape):
    phone_number_id: Id


class _Profile(_Shape):
    name: Short = ""


class _Contact(_Shape):
    wa_id: WaId
    profile: _Profile = _Profile()


class _Change(_Shape):
    field: Short
    value: Any = None  # read apart (``_Value``): one broken change leaves the others


class _Entry(_Shape):
    changes: list[_Change] = Field(default_factory=list, max_length=MAX_ITEMS)


class _Push(_Shape):
    object: Short
    entry: list[_Entry] = Field(max_length=MAX_ITEMS)


class _Value(_Shape):
    metadata: _Metadata
    contacts: list[dict[str, Any]] = Field(default_factory=list, max_length=MAX_ITEMS)
    messages: list[dict[str, Any]] = Field(default_factory=list, max_length=MAX_ITEMS)
    statuses: list[dict[str, Any]] = Field(default_factory=list, max_length=MAX_ITEMS)
    errors: list[dict[str, Any]] = Field(default_factory=list, max_length=MAX_ITEMS)


class _Context(_Shape):
    id: Id | None = None


class _TextPart(_Shape):
    body: Long


class _Reply(_Shape):
    id: Short = Field(min_length=1)
    title: Short = ""


class _Interactive(_Shape):
    type: TypeName
    button_reply: _Reply | None = None
    list_reply: _Reply | None = None


class _TemplateButton(_Shape):
    payload: Short = Field(min_length=1)
    text: Short = ""


class _LocationPart(_Shape):
    latitude: float = Field(ge=-90, le=90)
    longitude: float = Field(ge=-180, le=180)
    name: Short = ""
    address: Short = ""


class _ContactName(_Shape):
    formatted_name: Short = ""


class _ContactPhone(_Shape):
    phone: Short = ""
    wa_id: WaId | None = None


class _ContactCard(_Shape):
    name: _ContactName = _ContactName()
    phones: list[_ContactPhone] = Field(default_factory=list, max_length=20)


class _ImagePart(_Shape):
    id: Id
    mime_type: Short = ""
    sha256: Short = ""
    caption: Long = ""


class _Message(_Shape):
    id: Id
    # ``from`` is a Python keyword: read through its alias.
    sender: WaId = Field(alias="from")
    timestamp: Stamp
    type: TypeName
    context: _Context | None = None
    text: _TextPart | None = None
    interactive: _Interactive | None = None
    button: _TemplateButton | None = None
    location: _LocationPart | None = None
    contacts: list[_ContactCard] | None = Field(None, max_length=20)
    image: _ImagePart | None = None


class _Error(_Shape):
    code: int = Field(ge=0, lt=2**31)
    title: Short = ""


class _Status(_Shape):
    id: Id
    status: Literal["sent", "delivered", "read", "failed"]
    timestamp: Stamp
    recipient_id: WaId
    errors: list[_Error] = Field(default_factory=list, max_length=20)


@dataclass(frozen=True)
class ReceivedMessage:
    """A customer's message as read (``message``), and the JSON the inbox keeps (``stored``)."""

    message: InboundMessage
    stored: dict[str, Any] = field(repr=False)


@dataclass(frozen=True)
class ReceivedStatus:
    """A status as read (``update``), and the JSON the inbox keeps (``stored``)."""

    update: StatusUpdate
    stored: dict[str, Any] = field(repr=False)


@dataclass(frozen=True)
class Push:
    """What one push holds for the bot's number, in order; ``dropped``: one line for each part
    that broke its shape, ``ignored``: one for each change not for the bot (never a value from
    the push in either); ``meta_errors``: Meta's own error codes reported in it."""

    messages: Sequence[ReceivedMessage] = ()
    statuses: Sequence[ReceivedStatus] = ()
    dropped: Sequence[str] = ()
    ignored: Sequence[str] = ()
    meta_errors: Sequence[int] = ()


class NotAPush(WhatsAppChannelError, ValueError):
    """The body is JSON but not a push of a WhatsApp Business Account (the reason never
    quotes it)."""


def read_push(data: dict[str, Any], phone_number_id: str) -> Push:
    """The messages and statuses of ``data`` for ``phone_number_id``; see the module.
    ``NotAPush`` when its envelope is not a WhatsApp push at all."""
    try:
        push = _Push.model_validate(data)
    except ValidationError as error:
        raise NotAPush(f"not a WhatsApp push: {_rules(error)}") from None
    if push.object != BUSINESS_OBJECT:
        raise NotAPush("not a WhatsApp push: object is not whatsapp_business_account")
    messages: list[ReceivedMessage] = []
    statuses: list[ReceivedStatus] = []
    dropped: list[str] = []
    ignored: list[str] = []
    meta_errors: list[int] = []
    for e, entry in enumerate(push.entry):
        for c, change in enumerate(entry.changes):
            where = f"entry[{e}].changes[{c}]"
            if change.field != "messages":
                ignored.append(f"{where}: a change of another field than messages")
                continue
            try:
                value = _Value.model_validate(change.value)
            except ValidationError as error:
                dropped.append(f"{where}.value: {_rules(error)}")
                continue
            if value.metadata.phone_number_id != phone_number_id:
                ignored.append(f"{where}: for another phone_number_id")
                continue
            meta_errors += _codes(value.errors)
            profiles = _profiles(value.contacts)
            for m, raw in enumerate(value.messages):
                read = _message(raw, profiles)
                if isinstance(read, str):
                    dropped.append(f"{where}.value.messages[{m}]: {read}")
                else:
                    messages.append(read)
            for s, raw in enumerate(value.statuses):
                status = _status(raw)
                if isinstance(status, str):
                    dropped.append(f"{where}.value.statuses[{s}]: {status}")
                else:
                    statuses.append(status)
    return Push(
        tuple(messages), tuple(statuses), tuple(dropped), tuple(ignored), tuple(meta_errors)
    )


def message_of(stored: dict[str, Any]) -> InboundMessage:
    """The message the inbox stored (``ReceivedMessage.stored``); ``ValueError`` when it no
    longer reads (kept by an older bot)."""
    message, profile = stored.get("message"), stored.get("contact")
    if not isinstance(message, dict):
        raise ValueError("a stored message without its message")
    profiles = {} if not isinstance(profile, dict) else _profiles([profile])
    read = _message(message, profiles)
    if isinstance(read, str):
        raise ValueError(read)  # no customer words: _message's reasons never quote
    return read.message


def status_of(stored: dict[str, Any]) -> StatusUpdate:
    """The status the inbox stored (``ReceivedStatus.stored``); ``ValueError`` when it no
    longer reads."""
    read = _status(stored.get("status"))
    if isinstance(read, str):
        raise ValueError(read)
    return read.update


def _message(raw: object, profiles: dict[str, dict[str, Any]]) -> ReceivedMessage | str:
    try:
        message = _Message.model_validate(raw)
    except ValidationError as error:
        return _rules(error)
    content = _content(message)
    if isinstance(content, str):
        return content
    profile = profiles.get(message.sender)
    name = "" if profile is None else _Contact.model_validate(profile).profile.name
    inbound = InboundMessage(
        message_id=message.id,
        wa_id=message.sender,
        profile_name=name,
        timestamp=int(message.timestamp),
        content=content,
        replied_to=(message.context.id or "") if message.context is not None else "",
    )
    stored = {"message": raw, "contact": profile}
    return ReceivedMessage(inbound, stored)


def _content(message: _Message) -> Content | str:
    """The message's content, or why its part is missing (its type's own key)."""
    kind = message.type
    if kind == "text":
        return Text(message.text.body) if message.text else "type text without text"
    if kind == "interactive":
        part = message.interactive
        if part is None:
            return "type interactive without interactive"
        if part.type == "button_reply" and part.button_reply is not None:
            return ButtonReply(part.button_reply.id, part.button_reply.title)
        if part.type == "list_reply" and part.list_reply is not None:
            return ListReply(part.list_reply.id, part.list_reply.title)
        return Unsupported(f"interactive.{part.type}")
    if kind == "button":  # a template's quick-reply button
        if message.button is None:
            return "type button without button"
        return ButtonReply(message.button.payload, message.button.text)
    if kind == "location":
        place = message.location
        if place is None:
            return "type location without location"
        return Location(place.latitude, place.longitude, place.name, place.address)
    if kind == "contacts":
        if not message.contacts:
            return "type contacts without contacts"
        card = message.contacts[0]  # the first card: the bot asks for one phone
        phones = [phone.phone for phone in card.phones if phone.phone]
        wa_ids = [phone.wa_id for phone in card.phones if phone.wa_id]
        return SharedContact(card.name.formatted_name, phones, wa_ids)
    if kind == "image":
        image = message.image
        if image is None:
            return "type image without image"
        return Image(image.id, image.mime_type, image.sha256, image.caption)
    return Unsupported(kind)


def _status(raw: object) -> ReceivedStatus | str:
    try:
        status = _Status.model_validate(raw)
    except ValidationError as error:
        return _rules(error)
    update = StatusUpdate(
        message_id=status.id,
        recipient=status.recipient_id,
        status=status.status,
        timestamp=int(status.timestamp),
        errors=tuple(StatusError(error.code, error.title) for error in status.errors),
    )
    return ReceivedStatus(update, {"status": raw})


def _profiles(contacts: Sequence[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each sender's profile by ``wa_id``; a profile that does not read is left out (its
    message is kept, with no name)."""
    found = {}
    for raw in contacts:
        try:
            contact = _Contact.model_validate(raw)
        except ValidationError:
            continue
        found[contact.wa_id] = {"wa_id": contact.wa_id, "profile": {"name": contact.profile.name}}
    return found


def _codes(errors: Sequence[dict[str, Any]]) -> list[int]:
    codes = []
    for raw in errors:
        try:
            codes.append(_Error.model_validate(raw).code)
        except ValidationError:
            continue
    return codes


def _rules(error: ValidationError) -> str:
    """Where and which rule each problem broke, without the values (a customer's words)."""
    parts = []
    for problem in error.errors(include_url=False, include_input=False, include_context=False):
        where = ".".join(str(step) for step in problem["loc"]) or "the top level"
        parts.append(f"{where}: {problem['type']}")
    return "; ".join(parts[:5]) + ("; …" if len(parts) > 5 else "")
