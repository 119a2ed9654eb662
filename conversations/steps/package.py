"""The package's size and photos, asked alike by every flow that carries something."""

from __future__ import annotations

from conversations.flow import Step, Target
from conversations.order.order_limits import MAX_PACKAGE_IMAGES
from conversations.steps.choices import choice
from conversations.steps.common import Offer
from conversations.steps.names import PACKAGE_PHOTOS, PACKAGE_SIZE
from conversations.steps.photo_step import photos
from conversations.texts.said import Words, said, words

SIZES = tuple(
    Offer(size, said(f"steps.size.{size}"), said(f"steps.size.{size}.detail"))
    for size in ("small", "medium", "large")
)


def package_size(*, question: Words, next: Target) -> Step:
    """Small, medium or large: the request's ``packageSize``."""
    return choice(
        PACKAGE_SIZE,
        title=said("steps.title.size"),
        question=question,
        options=SIZES,
        fields=("packageSize",),
        next=next,
    )


def package_photos(*, called: Words, next: Target) -> Step:
    """One to the API's most photos of what is carried (``called``: the package, the parcel,
    as the question names it): the request's ``packageImages``."""
    return photos(
        PACKAGE_PHOTOS,
        title=said("steps.title.photos"),
        question=lambda ctx: ctx.catalogue.say(
            "steps.package_photos", high=MAX_PACKAGE_IMAGES, called=words(called, ctx.catalogue)
        ),
        minimum=lambda ctx: 1,
        maximum=MAX_PACKAGE_IMAGES,
        fields=("packageImages",),
        next=next,
    )
