"""``fake_cloud_app``: the simulated Cloud API over HTTP, on the Graph API's paths.

::

    POST /{version}/{phone_number_id}/messages   send a message (``FakeCloudApi.send``)
    POST /{version}/{phone_number_id}/media      upload a file (multipart: file, type,
                                                 messaging_product), answers {"id"}; a type
                                                 Meta does not take, or a file over its
                                                 type's limit, is refused with 100
    GET  /{version}/{media_id}                   a file's url, mime_type, sha256, file_size
    GET  /whatsapp_business/attachments/?mid=…   the file's bytes (the url above)

Every call needs ``Authorization: Bearer <access token>`` (401 and code 190 otherwise, as
Meta answers); a refusal is Meta's error envelope with Meta's status (``graph_errors``). A
path's phone number id that is not the fake's is Graph's "object does not exist" (100,
subcode 33). An unknown path answers Graph's 400 "Unknown path components".
"""

from __future__ import annotations

import re
from typing import Final

from starlette.applications import Starlette
from starlette.datastructures import UploadFile
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from bot.whatsapp_fake.cloud_api import FakeCloudApi
from bot.whatsapp_fake.graph_errors import (
    INVALID_ACCESS_TOKEN,
    INVALID_PARAMETER,
    MEDIA_NOT_FOUND,
    GraphError,
)
from bot.whatsapp_fake.graph_fields import json_object_body

MAX_REQUEST_BYTES: Final = 1_000_000
"""A messages call's JSON body: far over any message Meta takes."""
MAX_UPLOAD_BYTES: Final = 100 * 1024 * 1024
"""Meta's largest upload: a document, 100 MB; the other kinds take less (``_MEDIA_LIMITS``)."""
_MEDIA_LIMITS: Final = (
    ("image/", 5 * 1024 * 1024),
    ("audio/", 16 * 1024 * 1024),
    ("video/", 16 * 1024 * 1024),
)
"""Meta's limits by the upload's type; anything else is a document (``MAX_UPLOAD_BYTES``)."""
UPLOAD_TYPES: Final = (
    "audio/aac",
    "audio/mp4",
    "audio/mpeg",
    "audio/amr",
    "audio/ogg",
    "audio/opus",
    "application/vnd.ms-powerpoint",
    "application/msword",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "application/pdf",
    "text/plain",
    "application/vnd.ms-excel",
    "image/jpeg",
    "image/png",
    "image/webp",
    "video/mp4",
    "video/3gpp",
)
"""The types Meta takes in an upload, in the order its refusal lists them (no JSON: a JSON
file goes as ``text/plain``)."""
VERSION: Final = re.compile(r"v[0-9]{1,3}\.[0-9]")
ATTACHMENTS_PATH: Final = "/whatsapp_business/attachments/"
OBJECT_MISSING_SUBCODE: Final = 33


def fake_cloud_app(fake: FakeCloudApi) -> Starlette:
    """The Graph API app serving ``fake`` (see the module docstring)."""

    def refused(error: GraphError) -> Response:
        fake.refusals[error.error.code] += 1
        return JSONResponse(error.envelope(), status_code=error.error.http_status)

    def checked(request: Request, *, number: bool) -> None:
        if not fake.authorized(request.headers.get("authorization")):
            raise GraphError(INVALID_ACCESS_TOKEN, "Cannot parse access token")
        if not VERSION.fullmatch(request.path_params.get("version", "v1.0")):
            raise GraphError(INVALID_PARAMETER, "Unknown path components")
        if number and request.path_params["phone_number_id"] != fake.phone_number_id:
            raise GraphError(
                INVALID_PARAMETER,
                f"Unsupported post request. Object with ID "
                f"'{request.path_params['phone_number_id']}' does not exist.",
                subcode=OBJECT_MISSING_SUBCODE,
            )

    async def messages(request: Request) -> Response:
        try:
            checked(request, number=True)
            body = await json_object_body(request, MAX_REQUEST_BYTES)
        except GraphError as error:
            return refused(error)
        try:
            message = await fake.send(body)  # counts its own refusals
        except GraphError as error:
            return JSONResponse(error.envelope(), status_code=error.error.http_status)
        return JSONResponse(
            {
                "messaging_product": "whatsapp",
                "contacts": [{"input": body["to"], "wa_id": message.wa_id}],
                "messages": [{"id": message.message_id}],
            }
        )

    async def upload(request: Request) -> Response:
        try:
            checked(request, number=True)
            try:
                form = await request.form(max_part_size=MAX_UPLOAD_BYTES)
            except HTTPException:  # Starlette's answer to a malformed or oversized form
                raise GraphError(
                    INVALID_PARAMETER, "The upload must be a multipart form of at most 100 MB."
                ) from None
            try:
                file, mime_type = form.get("file"), form.get("type")
                if form.get("messaging_product") != "whatsapp":
                    raise GraphError(
                        INVALID_PARAMETER, "The parameter messaging_product is required."
                    )
                if not isinstance(file, UploadFile) or not isinstance(mime_type, str):
                    raise GraphError(
                        INVALID_PARAMETER, "The parameters file and type are required."
                    )
                if mime_type not in UPLOAD_TYPES:
                    raise GraphError(
                        INVALID_PARAMETER,
                        "Param file must be a file with one of the following types: "
                        f"{', '.join(UPLOAD_TYPES)}. Received file of type '{mime_type}'.",
                    )
                content = await file.read()
                if len(content) > _limit_for(mime_type):
                    raise GraphError(
                        INVALID_PARAMETER, f"The file is too large for its type {mime_type}."
                    )
            finally:
                await form.close()
        except GraphError as error:
            return refused(error)
        return JSONResponse({"id": fake.put_media(content, mime_type).media_id})

    async def media_url(request: Request) -> Response:
        try:
            checked(request, number=False)
            media = fake.media.get(request.path_params["media_id"])
            if media is None:
                raise GraphError(
                    MEDIA_NOT_FOUND,
                    f"Object with ID '{request.path_params['media_id']}' does not exist.",
                    subcode=OBJECT_MISSING_SUBCODE,
                )
        except GraphError as error:
            return refused(error)
        url = request.url.replace(path=ATTACHMENTS_PATH, query=f"mid={media.media_id}")
        return JSONResponse(
            {
                "url": str(url),
                "mime_type": media.mime_type,
                "sha256": media.sha256,
                "file_size": len(media.content),
                "id": media.media_id,
                "messaging_product": "whatsapp",
            }
        )

    async def download(request: Request) -> Response:
        if not fake.authorized(request.headers.get("authorization")):
            # The lookaside host answers a missing token with a bare 401, not Graph's envelope.
            return Response(status_code=401)
        media = fake.media.get(request.query_params.get("mid", ""))
        if media is None:
            return Response(status_code=404)
        return Response(media.content, media_type=media.mime_type)

    async def unknown_path(request: Request, exc: Exception) -> Response:
        status = exc.status_code if isinstance(exc, HTTPException) else 500
        if status == 500:
            raise exc
        return refused(GraphError(INVALID_PARAMETER, "Unknown path components"))

    return Starlette(
        routes=[
            Route(ATTACHMENTS_PATH, download, methods=["GET"]),
            Route("/{version}/{phone_number_id}/messages", messages, methods=["POST"]),
            Route("/{version}/{phone_number_id}/media", upload, methods=["POST"]),
            Route("/{version}/{media_id}", media_url, methods=["GET"]),
        ],
        exception_handlers={HTTPException: unknown_path},
    )


def _limit_for(mime_type: str) -> int:
    """The largest upload of ``mime_type`` Meta takes."""
    return next(
        (limit for prefix, limit in _MEDIA_LIMITS if mime_type.startswith(prefix)),
        MAX_UPLOAD_BYTES,
    )
