import pytest

from bot.chat_ref import UserRef
from bot.store import Store


async def test_a_users_own_contact_is_recorded(store: Store) -> None:
    await store.contacts.record(UserRef("telegram", 7), "+2348012345678", contact_user_id=7)
    assert await store.contacts.phone_for(UserRef("telegram", 7)) == "+2348012345678"
    assert await store.contacts.phone_for(UserRef("telegram", 8)) is None


async def test_sharing_again_replaces_the_number(store: Store) -> None:
    await store.contacts.record(UserRef("telegram", 7), "+2348012345678", contact_user_id=7)
    await store.contacts.record(UserRef("telegram", 7), "+447700900123", contact_user_id=7)
    assert await store.contacts.phone_for(UserRef("telegram", 7)) == "+447700900123"


@pytest.mark.parametrize("contact_user_id", [8, None])
async def test_someone_elses_contact_is_refused(store: Store, contact_user_id: int | None) -> None:
    with pytest.raises(ValueError, match="own contact"):
        await store.contacts.record(
            UserRef("telegram", 7), "+2348012345678", contact_user_id=contact_user_id
        )
    assert await store.contacts.phone_for(UserRef("telegram", 7)) is None


@pytest.mark.parametrize("phone", ["08012345678", "+0801234567", "+234 801 234 5678", ""])
async def test_numbers_must_be_e164(store: Store, phone: str) -> None:
    with pytest.raises(ValueError, match=r"E\.164"):
        await store.contacts.record(UserRef("telegram", 7), phone, contact_user_id=7)


async def test_forget(store: Store) -> None:
    await store.contacts.record(UserRef("telegram", 7), "+2348012345678", contact_user_id=7)
    assert await store.contacts.forget(UserRef("telegram", 7))
    assert not await store.contacts.forget(UserRef("telegram", 7))
    assert await store.contacts.phone_for(UserRef("telegram", 7)) is None
