"""Package photos: the adapter has already re-hosted each one on an https URL the service may
download (plain http only to a loopback host, for a bot run against a local sandbox:
``conversations.order.photos.is_image_url``); this step only counts and checks them. Sending them is
the answer (no "done"). Re-hosted photos expire, so a repeated order asks for them again
(``replay=False``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pydantic import JsonValue

from conversations.context import Context
from conversations.dialog import Answer, CommandAnswer, PhotoCount, PhotosAnswer
from conversations.flow import (
    Accept,
    Ask,
    Condition,
    Invalid,
    Next,
    Partial,
    Question,
    Result,
    Step,
)
from conversations.order.photos import is_image_url
from conversations.steps.common import Text, question_text, unexpected, value_writer
from conversations.texts.catalogue import Catalogue
from conversations.texts.said import Words, said


def _count(catalogue: Catalogue, photos: int) -> str:
    return (
        catalogue.say("steps.one_photo")
        if photos == 1
        else catalogue.say("steps.photos", count=photos)
    )


def _urls(urls: list[str]) -> list[JsonValue]:
    return list(urls)


def photos(
    name: str,
    *,
    title: Words,
    question: Text,
    next: Next,
    minimum: Callable[[Context], int],
    maximum: int,
    when: Condition | None = None,
    depends_on: Sequence[str] = (),
    fields: Sequence[str] = (),
) -> Step:
    """Between ``minimum`` and ``maximum`` photos: the photos sent are the answer as soon as
    there are ``minimum`` of them (several at once, an album, are one answer); fewer are kept
    while the rest come. More are added by changing the photos from the summary."""

    def so_far(ctx: Context) -> list[str]:
        pending = ctx.pending
        return [u for u in pending if isinstance(u, str)] if isinstance(pending, list) else []

    def ask(ctx: Context) -> Ask:
        low = minimum(ctx)
        return Question(
            question_text(question, ctx),
            accepts=("photos",),
            allow_skip=low == 0 and not so_far(ctx),
            photos=PhotoCount(have=len(so_far(ctx)), min=low, max=maximum),
        )

    async def accept(ctx: Context, answer: Answer) -> Result:
        have, needed = so_far(ctx), max(minimum(ctx), 1)
        if isinstance(answer, CommandAnswer) and answer.name == "done":
            # Photos are the answer once there are enough; "done" still closes a session
            # saved while it waited for one.
            if len(have) < needed:
                return Invalid(
                    ctx.catalogue.say("steps.photos_first", photos=_count(ctx.catalogue, needed))
                )
            return Accept(_urls(have))
        if not isinstance(answer, PhotosAnswer):
            return unexpected(ctx.catalogue, "steps.way.photos")
        if not answer.urls or not all(is_image_url(u) for u in answer.urls):
            return Invalid(ctx.catalogue.say("steps.photos_unreceived"))
        added = [u for u in dict.fromkeys(answer.urls) if u not in have]
        kept = (have + added)[:maximum]
        kept_first = len(have) + len(added) > maximum
        note = (
            ctx.catalogue.say("steps.photos_kept_first", maximum=maximum) + " "
            if kept_first
            else ""
        )
        if len(kept) >= needed:
            return Accept(
                _urls(kept),
                note=note
                + ctx.catalogue.say("steps.photos_got", photos=_count(ctx.catalogue, len(kept))),
            )
        more = ctx.catalogue.say(
            "steps.photos_more", photos=_count(ctx.catalogue, len(kept)), more=needed - len(kept)
        )
        return Partial(_urls(kept), note + more)

    def describe(ctx: Context, value: JsonValue) -> str:
        count = len(value) if isinstance(value, list) else 0
        return ctx.catalogue.say("steps.none") if count == 0 else _count(ctx.catalogue, count)

    return Step(
        name=str(name),
        title=title,
        input="photos",
        ask=ask,
        accept=accept,
        next=next,
        when=when,
        depends_on=tuple(str(d) for d in depends_on),
        fields=tuple(fields),
        write=value_writer(fields),
        replay=False,
        describe=describe,
        skip_value=[],
        help=said("steps.help.photos", maximum=maximum),
    )
