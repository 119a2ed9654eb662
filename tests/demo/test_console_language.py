"""The console in the customer's language, with the business's own wording from ``[texts]``."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.demo import DemoOptions, DemoStack
from bot.demo.demo_cli import banner
from bot.sandbox import default_scenario_data, parse_scenario
from conversations.texts.catalogue import Texts
from tests.conversations.test_flow_languages import english_in
from tests.support.clock import FakeClock

from .conftest import TO_SUMMARY


@pytest.fixture
async def stacks(tmp_path: Path, photo_dir: Path) -> AsyncIterator[list[DemoStack]]:
    made: list[DemoStack] = []
    yield made
    for stack in made:
        await stack.aclose()


async def started(
    made: list[DemoStack], tmp_path: Path, photo_dir: Path, **options: object
) -> DemoStack:
    clock = FakeClock()
    stack = DemoStack(
        DemoOptions(
            scenario=parse_scenario(default_scenario_data()),
            data_dir=tmp_path,
            clock=clock,
            sleep=clock.sleep,
            photo_dir=photo_dir,
            **options,  # type: ignore[arg-type]
        )
    )
    await stack.start()
    made.append(stack)
    stack.screen.take()
    return stack


async def test_a_french_customer_reads_french_with_money_as_french_writes_it(
    stacks: list[DemoStack], tmp_path: Path, photo_dir: Path
) -> None:
    stack = await started(stacks, tmp_path, photo_dir, language="fr")
    assert await stack.type_line("deliveries") == [
        "bot: Vous n'avez pas encore de livraison. Envoyez nouveau pour en commander une."
    ]
    for line in TO_SUMMARY:
        said = await stack.type_line(line)
    summary = "\n".join(said)
    assert "Frais de livraison\u00a0: à partir de 1\u202f500\xa0NGN" in summary
    said = await stack.type_line("1")
    assert any(
        line.startswith("bot: C'est fait\u00a0! La référence de votre commande est")
        for line in said
    )


async def test_a_language_that_is_not_shipped_falls_back_to_the_business_default(
    stacks: list[DemoStack], tmp_path: Path, photo_dir: Path
) -> None:
    stack = await started(stacks, tmp_path, photo_dir, language="yo")
    assert await stack.type_line("deliveries") == [
        "bot: You have no deliveries yet. Send new to order one."
    ]


async def test_the_business_wording_replaces_the_shipped_one(
    stacks: list[DemoStack], tmp_path: Path, photo_dir: Path
) -> None:
    texts = Texts(
        overrides={
            "en": {"desk.none_yet": "Nothing ordered yet: {new} starts your first delivery."},
            "fr": {
                "desk.none_yet": "Rien pour l'instant\u00a0: {new} lance votre première livraison."
            },
        }
    )
    english = await started(stacks, tmp_path / "en", photo_dir, texts=texts)
    assert await english.type_line("status") == [
        "bot: Nothing ordered yet: new starts your first delivery."
    ]
    french = await started(stacks, tmp_path / "fr", photo_dir, texts=texts, language="fr")
    assert await french.type_line("status") == [
        "bot: Rien pour l'instant\u00a0: nouveau lance votre première livraison."
    ]


ORG = "Swift Lagos Deliveries"


async def test_a_french_customer_reads_no_english_in_the_demo(
    stacks: list[DemoStack], tmp_path: Path, photo_dir: Path
) -> None:
    """Everything the demo shows a French customer: the banner, every question with its
    options and its hints, the summary's groups and their menu, and what the words typed
    after the order get, which French and English words alike reach."""
    opening = banner(ORG, "fr")
    assert opening.startswith(f"démo deliverybot : {ORG}, avec le bac à sable")
    assert "`nouveau`" in opening and "`statut [réf]`" in opening
    screens = [opening]
    stack = await started(stacks, tmp_path, photo_dir, language="fr")
    for line in TO_SUMMARY:
        screens += await stack.type_line(line)
    assert any("retour · annuler · aide" in line for line in screens)
    assert any("modifier <étape>" in line for line in screens)  # the summary's own hint
    screens += await stack.type_line("Modifier\u00a0: personnes")
    assert any("Que voulez-vous modifier" in line for line in screens)
    screens += await stack.type_line("retour")
    screens += await stack.type_line("1")  # confirmed
    ended = []
    for typed in ("statut", "où est mon colis ?", "annuler", "status", "where is my parcel?"):
        said = await stack.type_line(typed)
        assert said and not any("terminée" in line for line in said), (typed, said)
        ended.append(said)
    status, where, cancel = ended[:3]
    assert status == where == ended[3] == ended[4]  # the latest delivery, in either words
    assert "annuler_livraison" in "\n".join(cancel)  # how to cancel it, in French words
    for line in customers_lines([*screens, *(line for said in ended for line in said)]):
        assert not english_in(line.replace(ORG, "")), line  # the business's name is its own


def customers_lines(lines: list[str]) -> list[str]:
    """The lines the customer reads: not the operators' chat (``ops:``) nor the demo's
    narration for whoever plays the business (``demo:``), and not the lines under them; those
    speak the business's language."""
    kept, speaker = [], "bot"
    for line in lines:
        head = line.split(":", 1)[0]
        if line[:1].strip() and head.isidentifier():
            speaker = head
        if speaker not in ("ops", "demo"):
            kept.append(line)
    return kept
