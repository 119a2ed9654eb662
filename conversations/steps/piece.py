"""``Piece``: a reusable group of steps that hands back its result.

A flow composes pieces instead of copying their steps (``steps=(*sender.steps, ...)``) and
reads what a piece settled through ``piece.result(ctx)`` rather than through the answers of
its steps, in the way an aiogram-dialog sub-dialog returns its result to its parent. A piece
writes its own request fields, declared in its steps.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from conversations.context import Context
from conversations.flow import Step

T = TypeVar("T")


@dataclass(frozen=True)
class Piece(Generic[T]):
    """``steps`` to put in a flow, ``first`` the one to lead to, and ``result``: what the
    piece settled (None until its steps are answered)."""

    steps: tuple[Step, ...]
    first: str
    result: Callable[[Context], T | None]
