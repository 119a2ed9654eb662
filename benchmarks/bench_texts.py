"""Texts figures: what saying a message costs, beside what a turn costs.

1. One ``say``: every message of the English and French catalogues rendered with its
   placeholders, side by side with a bare ``str.format`` of the same template (the floor any
   catalogue pays), as a ratio.
2. Money: ``catalogue.money(amount, "NGN")`` (Babel, in the turn's locale) beside the hand-written
   ``f"{currency} {amount:,.0f}"`` it replaced, as a ratio: once for one amount said again
   and again (a business's fee), once for amounts never said before (Babel's own cost).
3. Share of a turn: orders typed through the terminal demo (sandbox, Partner client, SQLite
   store, ``ChatService``), timing every ``say`` and ``money`` inside them: the time spent
   rendering texts as a share of the whole turn.

Prints figures only. Run: ``PYTHONPATH=. .venv/bin/python benchmarks/bench_texts.py``.
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bot.demo import DemoOptions, DemoStack
from bot.sandbox import default_scenario
from conversations.texts import catalogue
from conversations.texts.catalogue import Catalogue, Texts

ROUNDS = 200
ORDERS = 10
PNG = (
    b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02\x00\x00\x00"
    b"\x90wS\xde\x00\x00\x00\x0cIDATx\x9cc\xf8\xff\xff?\x00\x05\xfe\x02\xfe\xa75\x81\x84\x00"
    b"\x00\x00\x00IEND\xaeB`\x82"
)
ORDER = [
    "1", "location 6.5095 3.3711 Ozone Cinema, Yaba", "1",
    "contact 08031234567 Ada Obi", "Bola Ahmed", "08022223333",
    "Shoes", "1", "parcel.png", "1", "1",
]  # fmt: skip


def _per_call(work: Callable[[], object], calls: int, rounds: int = ROUNDS) -> float:
    """Microseconds per call of ``work`` (which makes ``calls``), after one warm-up run."""
    work()
    started = time.perf_counter()
    for _ in range(rounds):
        work()
    return (time.perf_counter() - started) / (rounds * calls) * 1e6


def bench_say() -> None:
    for language in ("en", "fr"):
        shipped = Texts().catalogue_for(language)
        values = {
            message_id: {name: "X" for name in names}
            for message_id, names in shipped.fields.items()
        }
        templates = [(shipped.messages[m], v) for m, v in values.items()]

        def said(shipped: Catalogue = shipped, values: dict[str, dict[str, str]] = values) -> None:
            for message_id, filled in values.items():
                shipped.say(message_id, **filled)

        def formatted(templates: list[tuple[str, dict[str, str]]] = templates) -> None:
            for template, filled in templates:
                template.format_map(filled)

        ours, floor = _per_call(said, len(values)), _per_call(formatted, len(values))
        print(
            f"say, {language} ({len(values)} messages): {ours:.2f} µs per message; "
            f"bare str.format {floor:.2f} µs; ratio {ours / floor:.2f}"
        )


def bench_money() -> None:
    money = Texts().business_catalogue().money

    def babel() -> None:
        money(1500, "NGN")

    fresh = iter(range(10_000_000, 20_000_000))

    def babel_fresh() -> None:
        money(next(fresh), "NGN")

    def by_hand() -> None:
        amount, currency = 1500.0, "NGN"
        _ = f"{currency} {amount:,.0f}"

    rounds = 20_000
    ours, new = _per_call(babel, 1, rounds), _per_call(babel_fresh, 1, rounds)
    theirs = _per_call(by_hand, 1, rounds)
    print(
        f"money: {ours:.2f} µs (Babel, an amount said before), {new:.2f} µs (a new amount); "
        f"{theirs:.2f} µs by hand; ratios {ours / theirs:.1f} and {new / theirs:.1f}"
    )


async def bench_share_of_a_turn() -> None:
    spent = [0.0, 0]
    say, money_in = Catalogue.say, catalogue._money

    def timed_say(self: Catalogue, message_id: str, /, **values: object) -> str:
        started = time.perf_counter()
        try:
            return say(self, message_id, **values)
        finally:
            spent[0] += time.perf_counter() - started
            spent[1] += 1

    def timed_money(amount: float, currency: str, locale: str) -> str:
        started = time.perf_counter()
        try:
            return money_in(amount, currency, locale)
        finally:
            spent[0] += time.perf_counter() - started

    Catalogue.say = timed_say  # type: ignore[method-assign]
    catalogue._money = timed_money
    try:
        with tempfile.TemporaryDirectory() as scratch:
            photos = Path(scratch) / "photos"
            photos.mkdir()
            (photos / "parcel.png").write_bytes(PNG)
            options = DemoOptions(
                scenario=default_scenario(), data_dir=Path(scratch), photo_dir=photos
            )
            async with DemoStack(options) as demo:
                demo.screen.take()
                await demo.type_line("new")
                spent[:] = [0.0, 0]
                started = time.perf_counter()
                for _ in range(ORDERS):
                    for line in ORDER:
                        await demo.type_line(line)
                    await demo.type_line("new")
                total = time.perf_counter() - started
    finally:
        Catalogue.say = say  # type: ignore[method-assign]
        catalogue._money = money_in
    turns = ORDERS * (len(ORDER) + 1)
    print(
        f"share of a turn: {turns} turns in {total * 1e3:.0f} ms "
        f"({total / turns * 1e3:.2f} ms each); {spent[1]} messages said in "
        f"{spent[0] * 1e3:.1f} ms ({spent[0] / total:.1%} of the turns' time)"
    )


def main() -> None:
    bench_say()
    bench_money()
    asyncio.run(bench_share_of_a_turn())


if __name__ == "__main__":
    main()
