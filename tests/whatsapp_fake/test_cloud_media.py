"""The fake's media endpoints as pywa uses them: upload, the URL, the download with the token."""

from __future__ import annotations

import hashlib

import httpx
import pytest
from pywa_async.errors import WhatsAppError

from .cloud_fixtures import CUSTOMER, PHONE_NUMBER_ID, Cloud

PHOTO = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4


async def test_an_upload_is_sent_by_its_id_and_downloaded_whole(cloud: Cloud) -> None:
    uploaded = await cloud.client.wa.upload_media(
        media=PHOTO, mime_type="image/png", filename="parcel.png"
    )
    await cloud.client.wa.send_image(to=CUSTOMER, image=uploaded.id, caption="Your parcel")

    url = await cloud.client.wa.get_media_url(uploaded.id)
    assert (url.mime_type, url.file_size) == ("image/png", len(PHOTO))
    assert url.sha256 == hashlib.sha256(PHOTO).hexdigest()
    assert await cloud.client.wa.get_media_bytes(url.url) == PHOTO
    (seen,) = cloud.fake.sent_to(CUSTOMER)
    assert (seen.kind, seen.media_id, seen.text) == ("image", uploaded.id, "Your parcel")


async def test_a_customer_s_photo_put_in_the_fake_is_downloaded_by_its_id(cloud: Cloud) -> None:
    photo = cloud.fake.put_media(PHOTO, "image/jpeg")

    url = await cloud.client.wa.get_media_url(photo.media_id)

    assert await cloud.client.wa.get_media_bytes(url.url) == PHOTO


async def test_the_download_needs_the_token_and_an_unknown_id_is_refused(cloud: Cloud) -> None:
    photo = cloud.fake.put_media(PHOTO, "image/jpeg")
    url = (await cloud.client.wa.get_media_url(photo.media_id)).url

    async with httpx.AsyncClient(transport=httpx.ASGITransport(cloud.app)) as anonymous:
        assert (await anonymous.get(url)).status_code == 401
    with pytest.raises(WhatsAppError) as refused:
        await cloud.client.wa.get_media_url("4242")
    assert (refused.value.code, refused.value.status_code) == (100, 400)


async def test_an_upload_that_is_no_form_or_lacks_its_type_is_refused(cloud: Cloud) -> None:
    path = f"/{PHONE_NUMBER_ID}/media"
    not_a_form = await cloud.client.session.post(
        path, content=b"--x\r\nbroken", headers={"Content-Type": "multipart/form-data"}
    )
    no_type = await cloud.client.session.post(
        path, files={"file": ("a.png", PHOTO, "image/png")}, data={"messaging_product": "whatsapp"}
    )

    for answer in (not_a_form, no_type):
        assert (answer.status_code, answer.json()["error"]["code"]) == (400, 100)
    assert cloud.fake.refusals == {100: 2}


async def test_a_document_may_be_larger_than_a_photo_and_is_sent_by_its_id(cloud: Cloud) -> None:
    six_mb = b"{" + b" " * (6 * 1024 * 1024) + b"}"
    document = await cloud.client.wa.upload_media(
        media=six_mb, mime_type="text/plain", filename="my-data.json"
    )
    await cloud.client.wa.send_document(
        to=CUSTOMER, document=document.id, filename="my-data.json", caption="Yours"
    )
    with pytest.raises(WhatsAppError) as refused:
        await cloud.client.wa.upload_media(media=six_mb, mime_type="image/png", filename="a.png")

    (seen,) = cloud.fake.sent_to(CUSTOMER)
    assert (seen.kind, seen.media_id, seen.text) == ("document", document.id, "Yours")
    assert (seen.filename, seen.file_size) == ("my-data.json", len(six_mb))
    assert refused.value.code == 100


async def test_a_type_meta_does_not_take_is_refused_with_its_list(cloud: Cloud) -> None:
    with pytest.raises(WhatsAppError) as refused:
        await cloud.client.wa.upload_media(
            media=b"{}", mime_type="application/json", filename="my-data.json"
        )

    assert (refused.value.code, refused.value.status_code) == (100, 400)
    details = str(refused.value.details)
    assert details.startswith("Param file must be a file with one of the following types: ")
    assert "text/plain" in details and details.endswith("Received file of type 'application/json'.")


async def test_a_file_without_its_name_and_an_unknown_media_id_are_refused(cloud: Cloud) -> None:
    nameless = await cloud.client.session.post(
        f"/{PHONE_NUMBER_ID}/media",
        data={"messaging_product": "whatsapp", "type": "text/plain", "file": "{}"},
    )
    with pytest.raises(WhatsAppError) as unknown:
        await cloud.client.wa.send_document(to=CUSTOMER, document="4242", filename="a.json")

    assert (nameless.status_code, nameless.json()["error"]["code"]) == (400, 100)
    assert unknown.value.code == 131009 and "Invalid media id 4242" in str(unknown.value.details)
    assert cloud.fake.sent_to(CUSTOMER) == []
