"""Step builders and reusable pieces. Each builder returns a ``Step`` (or a ``Piece``: steps
that hand back a result); a flow file only says what to ask.

* ``choices``: ``choice``, ``yes_no``
* ``typed``: ``text``, ``email``, ``amount`` (and ``typed_step``, their shape)
* ``people``: ``phone``, ``person`` (a shared contact fills name and phone)
* ``photo_step``: ``photos``
* ``place_steps``: the group that settles a place (saved place and unit, pin, typed address),
  a ``PlacePiece`` whose step names are attributes
* ``names``: the names of the shared steps a flow points to (``SENDER_NAME``, ``SUMMARY`` ...)
* ``summary_step``: ``summary``, which confirms and creates
* pieces: ``parties`` (``sender``, ``receiver``, ``pickup_contact``), ``payment``,
  ``package`` (``package_size``, ``package_photos``)
"""

from conversations.steps.choices import choice, yes_no
from conversations.steps.package import package_photos, package_size
from conversations.steps.parties import Person, pickup_contact, receiver, sender
from conversations.steps.payment import Payment, payment
from conversations.steps.people import person, phone
from conversations.steps.photo_step import photos
from conversations.steps.piece import Piece
from conversations.steps.place_steps import PlacePiece, place_steps
from conversations.steps.summary_step import summary
from conversations.steps.typed import amount, email, text

__all__ = [
    "Payment",
    "Person",
    "Piece",
    "PlacePiece",
    "amount",
    "choice",
    "email",
    "package_photos",
    "package_size",
    "payment",
    "person",
    "phone",
    "photos",
    "pickup_contact",
    "place_steps",
    "receiver",
    "sender",
    "summary",
    "text",
    "yes_no",
]
