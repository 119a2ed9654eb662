"""The sandbox's ASGI app: the Partner API, the admin API, the OpenAPI document, and the
fault gate in front of them.

Anything that is not a known route still answers the error envelope: an unknown path is 404
``not_found``, a wrong method 405 ``method_not_allowed``, and an unexpected failure 500
``internal_error``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Match, Route
from starlette.types import ASGIApp, Scope

from bot.sandbox.admin import AdminActions, admin_routes
from bot.sandbox.api import api_routes
from bot.sandbox.core import Core
from bot.sandbox.error_envelope import ApiError, error_response
from bot.sandbox.faults import FaultGate
from bot.sandbox.operations import API_PREFIX, OPERATIONS_BY_NAME

# The contract document is docs/openapi.json; the package's openapi.json is a link to it in a
# checkout and a copy of it in an installed wheel, which has no docs/.
OPENAPI_PATH = Path(__file__).with_name("openapi.json")


async def openapi_document(request: Request) -> Response:
    try:
        content = OPENAPI_PATH.read_bytes()
    except OSError:
        return error_response(ApiError(404, "not_found", "The OpenAPI document is not installed."))
    return Response(content, media_type="application/json")


async def _http_error(request: Request, exc: Exception) -> Response:
    status = exc.status_code if isinstance(exc, HTTPException) else 500
    if status == 404:
        error = ApiError(404, "not_found", f"No such endpoint: {request.url.path}")
    elif status == 405:
        error = ApiError(405, "method_not_allowed", f"{request.method} is not allowed here.")
    else:
        error = ApiError(status, "http_error", "The request could not be handled.")
    headers = dict(exc.headers or {}) if isinstance(exc, HTTPException) else {}
    return error_response(error, headers)


async def _internal_error(request: Request, exc: Exception) -> Response:
    return error_response(ApiError(500, "internal_error", "The sandbox failed unexpectedly."))


def _operation_resolver(routes: list[BaseRoute]) -> Callable[[Scope], str | None]:
    api = [r for r in routes if isinstance(r, Route) and r.name in OPERATIONS_BY_NAME]

    def resolve(scope: Scope) -> str | None:
        for route in api:
            match, _ = route.matches(scope)
            if match is Match.FULL:
                return route.name
        return None

    return resolve


def build_app(core: Core, actions: AdminActions) -> ASGIApp:
    routes: list[BaseRoute] = [
        *api_routes(core),
        Route(f"{API_PREFIX}/openapi.json", openapi_document, methods=["GET"]),
        *admin_routes(core, actions),
    ]
    starlette = Starlette(
        routes=routes,
        exception_handlers={HTTPException: _http_error, Exception: _internal_error},
    )
    return FaultGate(
        starlette,
        plan=core.faults,
        counter=core.calls,
        resolve=_operation_resolver(routes),
        sleep=core.sleep,
    )
