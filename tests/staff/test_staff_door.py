"""``StaffDoor`` over a real store on both backends, its clock moved by hand: links where the
config puts the console, roles from ``[console]`` (followed when the config changes), a link
that works once within ``link_minutes``, sessions that end when idle or old, sign-out
everywhere; the audit trail holds every step and never a token."""

from __future__ import annotations

from bot.chat_ref import UserRef
from bot.config import ConsoleConfig
from bot.staff.staff_door import SignedIn, StaffDoor
from bot.store import LinkRefusal, Store
from tests.support.clock import FakeClock

PUBLIC = "https://bot.example.com"
OLU = UserRef("telegram", 1900)
CONSOLE = ConsoleConfig(
    enabled=True, link_minutes=5, idle_minutes=20, session_hours=2, admins=["telegram:1900"]
)


def _door(store: Store, fake_clock: FakeClock, console: ConsoleConfig = CONSOLE) -> StaffDoor:
    door = StaffDoor.from_settings(store, console, PUBLIC + "/", clock=fake_clock)
    assert door is not None
    return door


def _token(url: str) -> str:
    prefix = PUBLIC + "/console/signin/"
    assert url.startswith(prefix)
    return url.removeprefix(prefix)


async def test_no_door_while_the_console_is_off(store: Store, fake_clock: FakeClock) -> None:
    assert StaffDoor.from_settings(store, ConsoleConfig(), PUBLIC, clock=fake_clock) is None


async def test_an_operators_role_follows_the_config_at_each_link(
    store: Store, fake_clock: FakeClock
) -> None:
    door = _door(store, fake_clock)
    first = await door.sign_in(_token(await door.link_for(OLU, "Olu\n\u200b")))
    assert isinstance(first, SignedIn) and (first.member.name, first.member.role) == (
        "Olu",
        "admin",
    )

    demoted = _door(store, fake_clock, CONSOLE.model_copy(update={"admins": []}))
    again = await demoted.sign_in(_token(await demoted.link_for(OLU, "Olu A.")))
    assert isinstance(again, SignedIn)
    assert (again.member.id, again.member.name, again.member.role) == (
        first.member.id,
        "Olu A.",
        "viewer",
    )


async def test_a_link_works_once_within_its_minutes_and_every_try_is_audited(
    store: Store, fake_clock: FakeClock
) -> None:
    door = _door(store, fake_clock)
    late = _token(await door.invite("Bola", "dispatcher"))
    fake_clock.advance(5 * 60)
    assert await door.sign_in(late) is LinkRefusal.EXPIRED

    token = _token(await door.invite("Bola", "dispatcher"))
    fake_clock.advance(5 * 60 - 1)
    signed = await door.sign_in(token)
    assert isinstance(signed, SignedIn)
    assert await door.sign_in(token) is LinkRefusal.USED
    assert await door.sign_in("forged") is LinkRefusal.UNKNOWN

    member = f"staff:{signed.member.id}"
    trail = await store.audit.since(0)
    assert [(e.actor, e.action, e.subject, e.outcome, e.detail) for e in trail] == [
        ("shell", "console_link", member, "issued", "Bola (dispatcher)"),
        ("console", "console_signin", "link", "refused: expired link", None),
        ("shell", "console_link", member, "issued", "Bola (dispatcher)"),
        (member, "console_signin", member, "done", None),
        ("console", "console_signin", "link", "refused: used link", None),
        ("console", "console_signin", "link", "refused: unknown link", None),
    ]
    assert not any(secret in repr(trail) for secret in (late, token, signed.session.token))


async def test_a_session_ends_when_idle_or_old_and_everywhere_on_sign_out(
    store: Store, fake_clock: FakeClock
) -> None:
    door = _door(store, fake_clock)

    async def signed_in() -> str:
        signed = await door.sign_in(_token(await door.link_for(OLU, "Olu")))
        assert isinstance(signed, SignedIn)
        return signed.session.token

    idle, busy = await signed_in(), await signed_in()
    for _ in range(5):  # busy is used every 19 minutes, idle never
        fake_clock.advance(19 * 60)
        assert await door.session(busy) is not None
    assert await door.session(idle) is None
    fake_clock.advance(2 * 3600 - 5 * 19 * 60)  # two hours since signing in
    assert await door.session(busy) is None

    phone, laptop = await signed_in(), await signed_in()
    assert await door.sign_out(phone) is True and await door.session(phone) is None
    found = await door.session(laptop)
    assert found is not None
    await door.sign_out_everywhere(found.member, by=str(OLU))
    assert await door.session(laptop) is None
    (last,) = (await store.audit.since(0))[-1:]
    assert (last.actor, last.action, last.outcome) == (str(OLU), "console_signout", "done")
