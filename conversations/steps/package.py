"""The package's size and photos, asked alike by every flow that carries something."""

from __future__ import annotations

from bot.partner.models import MAX_PACKAGE_IMAGES
from conversations.dialog import Option
from conversations.flow import Step, Target
from conversations.steps.choices import choice
from conversations.steps.photo_step import photos

PACKAGE_SIZE = "package_size"
PACKAGE_PHOTOS = "photos"
SIZES = (
    Option(id="small", label="Small", detail="fits in a bag"),
    Option(id="medium", label="Medium", detail="a box you can carry"),
    Option(id="large", label="Large", detail="needs both arms or a carrier"),
)


def package_size(*, question: str, next: Target) -> Step:
    """Small, medium or large: the request's ``packageSize``."""
    return choice(
        PACKAGE_SIZE,
        title="Size",
        question=question,
        options=SIZES,
        fields=("packageSize",),
        next=next,
    )


def package_photos(*, called: str, next: Target) -> Step:
    """One to the API's most photos of what is carried (``called``: "package", "parcel"): the
    request's ``packageImages``."""
    return photos(
        PACKAGE_PHOTOS,
        title="Photos",
        question=f"Please send 1 to {MAX_PACKAGE_IMAGES} photos of the {called}.",
        minimum=lambda ctx: 1,
        maximum=MAX_PACKAGE_IMAGES,
        fields=("packageImages",),
        next=next,
    )
