"""The people of an order, as pieces: the sender (who orders), the receiver, and who hands
the package to the rider. Each hands back a ``Person``.

The step names are the same in every flow that uses them (``steps.names``).
"""

from __future__ import annotations

from collections.abc import Callable

from pydantic import BaseModel, ConfigDict

from conversations.context import Context
from conversations.flow import Branch, Condition, Preset, Target, by_answer
from conversations.steps.choices import yes_no
from conversations.steps.common import Offer
from conversations.steps.names import (
    PICKUP_CONTACT,
    PICKUP_CONTACT_NAME,
    PICKUP_CONTACT_PHONE,
    RECEIVER_NAME,
    RECEIVER_PHONE,
    SENDER_EMAIL,
    SENDER_NAME,
    SENDER_PHONE,
)
from conversations.steps.people import person, phone
from conversations.steps.piece import Piece
from conversations.steps.typed import email
from conversations.texts.said import Words, said, words

OWN_PHONE_QUESTION = said("steps.sender.phone_question")


class Person(BaseModel):
    """A party of the order as the steps settled it; ``email`` is "" when not given."""

    model_config = ConfigDict(frozen=True)

    name: str
    phone: str
    email: str = ""


def _person(ctx: Context, name_step: str, phone_step: str, email_step: str = "") -> Person | None:
    answers = ctx.answers
    name, number = answers.text(name_step), answers.text(phone_step)
    if not name or not number:
        return None
    return Person(name=name, phone=number, email=answers.text(email_step) if email_step else "")


def _own_name(ctx: Context) -> Preset | None:
    """A returning customer's name from their last order (their phone comes with it)."""
    known = ctx.session.remembered
    return Preset(known.name) if known is not None and known.name and known.phone else None


def _own_phone(ctx: Context) -> Preset | None:
    """A returning customer's phone, when their remembered name was taken too (and, when the
    phone must be proven, it was proven by their own contact when it was remembered)."""
    known = ctx.session.remembered
    if known is None or not known.phone or ctx.answers.text(SENDER_NAME) != known.name:
        return None
    if ctx.session.sender_phone_owner is not None and not known.phone_verified:
        return None
    return Preset(known.phone)


def _own_phone_question(asked: Words) -> Callable[[Context], str]:
    """``asked``, or, when the phone must be proven, the request for their own contact."""

    def question(ctx: Context) -> str:
        if ctx.session.sender_phone_owner is not None:
            return ctx.catalogue.say("steps.sender.share_phone_question")
        return words(asked, ctx.catalogue)

    return question


def sender(
    *,
    next: Target,
    phone_question: Words = OWN_PHONE_QUESTION,
    is_receiver: bool = False,
) -> Piece[Person]:
    """Who orders: name (a shared contact gives the phone too), phone, and an optional email
    that is not asked on the way (offered from the summary). A returning customer's name and
    phone are pre-set from their last order: the summary shows them and changes them. When
    the session asks for a proven phone (``Session.sender_phone_owner``), it comes from their
    own shared contact only (``people``), and a remembered phone is pre-set only if it was
    proven so.
    ``is_receiver``: the sender also receives (an errand), so their name and phone are the
    receiver's too."""
    also = ("receiverName",) if is_receiver else ()
    also_phone = ("receiverPhone",) if is_receiver else ()
    steps = (
        person(
            SENDER_NAME,
            title=said("steps.title.own_name"),
            question=said("steps.sender.name_question"),
            phone_step=SENDER_PHONE,
            fields=("senderName", *also),
            next=SENDER_PHONE,
            preset=_own_name,
            own_contact=True,
        ),
        phone(
            SENDER_PHONE,
            title=said("steps.title.own_phone"),
            question=_own_phone_question(phone_question),
            fields=("senderPhone", *also_phone),
            next=SENDER_EMAIL,
            preset=_own_phone,
            own_contact=True,
        ),
        email(
            SENDER_EMAIL,
            title=said("steps.title.own_email"),
            question=said("steps.sender.email_question"),
            fields=("senderEmail",),
            ask=False,
            next=next,
        ),
    )
    return Piece(
        steps, SENDER_NAME, lambda ctx: _person(ctx, SENDER_NAME, SENDER_PHONE, SENDER_EMAIL)
    )


def receiver(*, next: Target) -> Piece[Person]:
    """Who receives the package: name (or a shared contact) and phone."""
    steps = (
        person(
            RECEIVER_NAME,
            title=said("steps.title.receiver"),
            question=said("steps.receiver.name_question"),
            phone_step=RECEIVER_PHONE,
            fields=("receiverName",),
            next=RECEIVER_PHONE,
        ),
        phone(
            RECEIVER_PHONE,
            title=said("steps.title.receiver_phone"),
            question=said("steps.receiver.phone_question"),
            fields=("receiverPhone",),
            next=next,
        ),
    )
    return Piece(steps, RECEIVER_NAME, lambda ctx: _person(ctx, RECEIVER_NAME, RECEIVER_PHONE))


def pickup_contact(*, next: Target, when: Condition | None = None) -> Piece[Person]:
    """Who hands the package to the rider: "Me" (the sender; the result is None then), taken
    without asking and changed from the summary to someone else, by name and phone. ``when``
    limits it (a rider picks up from an address)."""
    steps = (
        yes_no(
            PICKUP_CONTACT,
            title=said("steps.title.pickup_contact"),
            question=said("steps.pickup_contact.question"),
            options=(
                Offer("yes", said("steps.pickup_contact.me")),
                Offer("no", said("steps.pickup_contact.someone_else")),
            ),
            preset="yes",
            when=when,
            skip_to=next if when is not None else None,
            fields=("pickupContactSameAsSender",),
            next=Branch(
                "who hands it over",
                by_answer(PICKUP_CONTACT),
                {"yes": next, "no": PICKUP_CONTACT_NAME},
            ),
        ),
        person(
            PICKUP_CONTACT_NAME,
            title=said("steps.title.pickup_contact_name"),
            question=said("steps.pickup_contact.name_question"),
            phone_step=PICKUP_CONTACT_PHONE,
            depends_on=(PICKUP_CONTACT,),
            fields=("pickupContactName",),
            next=PICKUP_CONTACT_PHONE,
        ),
        phone(
            PICKUP_CONTACT_PHONE,
            title=said("steps.title.pickup_contact_phone"),
            question=said("steps.pickup_contact.phone_question"),
            depends_on=(PICKUP_CONTACT,),
            fields=("pickupContactPhone",),
            next=next,
        ),
    )
    return Piece(
        steps,
        PICKUP_CONTACT,
        lambda ctx: _person(ctx, PICKUP_CONTACT_NAME, PICKUP_CONTACT_PHONE),
    )
