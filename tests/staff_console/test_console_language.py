"""The console in the staff member's language, over real HTTP on both backends: the header's
form sets it (every page after it, the refusals included, in that language, ``<html lang>``
too), one member's choice is not another's, an unknown code is refused with a plain 400 and
nothing changed, and an operator's first link takes their Telegram client's language (its
sign-in page and its refusals are in it already)."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator

import httpx
import markupsafe
import pytest

from bot.chat_ref import UserRef
from bot.store import Store
from tests.staff_console.console_site import PUBLIC, ConsoleSite, console_site
from tests.support.clock import FakeClock
from tests.support.words import SHIPPED, said_in

FRENCH = said_in("fr")
_CSRF = re.compile(r'name="csrf" value="([^"]+)"')


@pytest.fixture
async def site(store: Store, fake_clock: FakeClock) -> AsyncIterator[ConsoleSite]:
    async with console_site(store, fake_clock) as opened:
        yield opened


def _shown(words: str) -> str:
    return str(markupsafe.escape(words))


async def _csrf(client: httpx.AsyncClient) -> str:
    page = await client.get("/console/deliveries")
    found = _CSRF.search(page.text)
    assert found is not None, page.text
    return found.group(1)


async def _choose(client: httpx.AsyncClient, language: str) -> httpx.Response:
    return await client.post(
        "/console/language", data={"csrf": await _csrf(client), "language": language}
    )


async def _audit(store: Store) -> list[tuple[str, str, str | None]]:
    entries = await store.audit.since(0)
    return [(e.actor, e.outcome, e.detail) for e in entries if e.action == "console_language"]


async def test_every_signed_in_page_offers_the_shipped_languages_in_their_own_names(
    site: ConsoleSite,
) -> None:
    client = await site.signed_in()
    page = await client.get("/console/deliveries")
    assert '<html lang="en">' in page.text
    form = page.text[page.text.index('action="/console/language"') :]
    form = form[: form.index("</form>")]
    assert 'name="csrf"' in form
    assert re.findall(r'<option value="(\w+)" lang="\w+"( selected)?>([^<]+)</option>', form) == [
        ("en", " selected", "English"),
        ("fr", "", _shown("Français")),
    ]


async def test_a_member_chooses_french_and_reads_every_page_in_it(
    site: ConsoleSite, store: Store
) -> None:
    client = await site.signed_in("Bob")
    other = await site.signed_in("Vic")

    chosen = await _choose(client, "fr")
    assert (chosen.status_code, chosen.headers["location"]) == (303, "/console")
    page = await client.get("/console/deliveries")
    assert '<html lang="fr">' in page.text
    assert f"<h1>{_shown(FRENCH.say('console_web.page.deliveries'))}</h1>" in page.text
    assert _shown(FRENCH.say("console_web.sign_out_everywhere")) in page.text
    assert '<option value="fr" lang="fr" selected>' in page.text
    # A refusal and a page that is not there are in French too.
    refused = await client.get("/console/deliveries?channel=fax")
    assert refused.status_code == 400 and '<html lang="fr">' in refused.text
    missing = await client.get("/console/nowhere")
    assert missing.status_code == 404
    assert _shown(FRENCH.say("console_web.not_found")) in missing.text
    # Every session of the member follows the choice; another member's pages do not.
    again = await site.client().post(await site.link("Bob"))
    assert again.status_code == 303
    assert '<html lang="en">' in (await other.get("/console/deliveries")).text

    [bob] = await store.staff.named("Bob")
    assert bob.language == "fr"
    assert await _audit(store) == [(f"staff:{bob.id}", "done", "fr")]

    back = await _choose(client, "en")
    assert back.status_code == 303
    assert '<html lang="en">' in (await client.get("/console/deliveries")).text


async def test_an_unknown_language_is_refused_plainly_and_changes_nothing(
    site: ConsoleSite, store: Store
) -> None:
    client = await site.signed_in("Bob")
    await _choose(client, "fr")
    for code in ("de", "", "fr-FR", "x" * 400):
        refused = await _choose(client, code)
        assert refused.status_code == 400, code
        assert "Traceback" not in refused.text
        names = f"English, {FRENCH.say('console_web.language.own_name')}"
        assert _shown(FRENCH.say("console_web.language.refused", languages=names)) in refused.text
    [bob] = await store.staff.named("Bob")
    assert bob.language == "fr"
    outcomes = await _audit(store)
    assert [outcome for _, outcome, _ in outcomes] == ["done"] + ["refused"] * 4
    assert outcomes[1][2] == "'de'" and outcomes[4][2] == repr("x" * 16)
    # Without its session's token the form does nothing either.
    forged = await client.post("/console/language", data={"language": "en"})
    assert forged.status_code == 403
    assert (await store.staff.named("Bob"))[0].language == "fr"


async def test_an_operator_starts_in_their_telegram_clients_language(
    site: ConsoleSite, store: Store
) -> None:
    olu = UserRef("telegram", 1900)
    link = (await site.door.link_for(olu, "Olu", "fr")).removeprefix(PUBLIC)
    client = site.client()
    # The link's own page already speaks to them in it, and uses nothing up.
    button = await client.get(link)
    assert '<html lang="fr">' in button.text
    assert _shown(FRENCH.say("console_web.signin_button")) in button.text
    assert (await client.post(link)).status_code == 303
    page = await client.get("/console/deliveries")
    assert '<html lang="fr">' in page.text
    used = await site.client().post(link)
    assert used.status_code == 410
    assert _shown(FRENCH.say("console_web.link_used")) in used.text
    # Their own choice then stays, whatever their client says at their next link.
    await _choose(client, "en")
    await site.door.link_for(olu, "Olu", "fr")
    [member] = await store.staff.named("Olu")
    assert member.language == "en"
    # A link nobody issued belongs to no one: its page is in the business's language.
    unknown = await site.client().get("/console/signin/" + "x" * 43)
    assert f'<html lang="{SHIPPED.language}">' in unknown.text
    assert await store.staff.link_language("x" * 43) is None
