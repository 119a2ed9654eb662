"""The package's size, asked alike by every flow that carries something."""

from __future__ import annotations

from conversations.dialog import Option
from conversations.flow import Step, Target
from conversations.steps.choices import choice

PACKAGE_SIZE = "package_size"
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
