"""What goes through a hand-off, as data any channel can send: text, a photo, a location.

A body is the JSON the store keeps with each message (``store.handoffs``); each channel's side
(``sides``) sends it its own way. A photo is named by the channel's own file id, so a photo
passes between two chats of the same channel without being downloaded.
"""

from __future__ import annotations

from typing import Final

Body = dict[str, object]

TEXT: Final = "text"
PHOTO: Final = "photo"
LOCATION: Final = "location"


def text_body(text: str) -> Body:
    """A text message."""
    return {"kind": TEXT, "text": text}


def photo_body(file_id: str, caption: str | None = None) -> Body:
    """A photo by the channel's file id, with its caption if it had one."""
    return {"kind": PHOTO, "file_id": file_id, "caption": caption or ""}


def location_body(lat: float, lng: float) -> Body:
    """A map pin."""
    return {"kind": LOCATION, "lat": lat, "lng": lng}


def kind_of(body: Body) -> str:
    """The body's kind (``TEXT``, ``PHOTO``, ``LOCATION``)."""
    return str(body.get("kind", TEXT))


def text_of(body: Body) -> str:
    """A text body's text, or a photo's caption ("" for a location)."""
    if kind_of(body) == PHOTO:
        return str(body.get("caption", ""))
    return str(body.get("text", ""))


def coordinates(body: Body) -> tuple[float, float]:
    """A location body's latitude and longitude."""
    lat, lng = body.get("lat"), body.get("lng")
    if not isinstance(lat, int | float) or not isinstance(lng, int | float):
        raise ValueError("not a location body")
    return float(lat), float(lng)


def one_line(body: Body) -> str:
    """The body in one line, for the staff card's last messages."""
    kind = kind_of(body)
    if kind == PHOTO:
        caption = text_of(body)
        return f"[photo] {caption}".strip()
    if kind == LOCATION:
        lat, lng = coordinates(body)
        return f"[location {lat:.5f}, {lng:.5f}]"
    return " ".join(text_of(body).split())
