"""The simulated Cloud API as a process, for the demo's users: the Graph API on a local port,
statuses pushed to the bot's webhook as they come, and a door to chat as a customer.

::

    WA_TOKEN=... WA_APP_SECRET=... python -m bot.whatsapp_fake.fake_server --port 8090 \\
        --webhook http://127.0.0.1:8080/whatsapp --phone-number-id 106540352242922 \\
        --access-token-env WA_TOKEN --app-secret-env WA_APP_SECRET \\
        --template delivery_update:en:2 --template support_reply:en:1

    POST /fake/customers/{wa_id}/messages  {"name": "Ada", "message": {"type": "text",
         "text": {"body": "hi"}}}   pushes the customer's message (Meta's shape) to the bot
    GET  /fake/customers/{wa_id}/messages  what the bot delivered to that customer

A push the webhook does not take is retried as Meta retries it (``webhook_pusher``), so a
customer's POST answers once the bot took the message or the retries ran out. The bot's
``[whatsapp] graph_api_base_url`` points at ``http://127.0.0.1:<port>``. The secrets
are read from the named environment variables, never from the command line or a log. (The
package has no ``__main__``: module names are unique in ``bot``, and ``bot.__main__`` is the
bot's.)
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import AsyncIterator, Sequence
from dataclasses import asdict
from typing import Final

import httpx
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route

from bot.whatsapp_fake.approved_templates import ApprovedTemplate
from bot.whatsapp_fake.cloud_api import FakeCloudApi
from bot.whatsapp_fake.cloud_app import fake_cloud_app
from bot.whatsapp_fake.cloud_rates import (
    PAIR_BURST,
    PAIR_INTERVAL,
    THROUGHPUT_PER_SECOND,
    SendRates,
)
from bot.whatsapp_fake.graph_errors import GraphError
from bot.whatsapp_fake.graph_fields import json_object_body
from bot.whatsapp_fake.webhook_pusher import WebhookPusher

MAX_CUSTOMER_MESSAGE: Final = 64 * 1024
PUSH_TIMEOUT: Final = httpx.Timeout(10.0, connect=5.0)


def customer_routes(fake: FakeCloudApi) -> Starlette:
    """The door to chat as a customer (see the module docstring)."""

    async def push(request: Request) -> Response:
        wa_id = request.path_params["wa_id"]
        try:
            body = await json_object_body(request, MAX_CUSTOMER_MESSAGE)
        except GraphError as unreadable:
            return JSONResponse(unreadable.envelope(), status_code=400)
        name, message = body.get("name", "Customer"), body.get("message")
        if not wa_id.isdigit() or not isinstance(name, str) or not isinstance(message, dict):
            return JSONResponse(
                {"error": "a digits-only wa_id, a name and a message object are needed"},
                status_code=400,
            )
        message_id, delivery = await fake.push_customer_message(wa_id, name, message)
        return JSONResponse(
            {"id": message_id, "delivered": delivery.delivered, "statuses": delivery.statuses}
        )

    async def inbox(request: Request) -> Response:
        messages = fake.sent_to(request.path_params["wa_id"])
        return JSONResponse([{k: v for k, v in asdict(m).items() if k != "raw"} for m in messages])

    return Starlette(
        routes=[
            Route("/customers/{wa_id}/messages", push, methods=["POST"]),
            Route("/customers/{wa_id}/messages", inbox, methods=["GET"]),
        ]
    )


def server_app(fake: FakeCloudApi, webhook_client: httpx.AsyncClient) -> Starlette:
    """The fake's Graph API and the customers' door, pushing statuses while it runs."""

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async with webhook_client, fake.pushing_statuses():
            yield

    return Starlette(
        routes=[Mount("/fake", app=customer_routes(fake)), Mount("", app=fake_cloud_app(fake))],
        lifespan=lifespan,
    )


def template_argument(text: str) -> ApprovedTemplate:
    """``name:language:count`` as ``--template`` takes it."""
    name, _, rest = text.partition(":")
    language, _, count = rest.partition(":")
    if not name or not language or not count.isdigit():
        raise argparse.ArgumentTypeError(f"{text!r}: write NAME:LANGUAGE:PARAMETER_COUNT")
    return ApprovedTemplate(name, language, int(count))


def parser() -> argparse.ArgumentParser:
    """The command line (see the module docstring)."""
    arguments = argparse.ArgumentParser(
        prog="python -m bot.whatsapp_fake.fake_server",
        description="A simulated WhatsApp Cloud API for one business number.",
    )
    arguments.add_argument("--host", default="127.0.0.1")
    arguments.add_argument("--port", type=int, default=8090)
    arguments.add_argument("--webhook", required=True, help="the bot's POST /whatsapp URL")
    arguments.add_argument("--phone-number-id", required=True)
    arguments.add_argument("--access-token-env", required=True, metavar="VAR")
    arguments.add_argument("--app-secret-env", required=True, metavar="VAR")
    arguments.add_argument(
        "--template", type=template_argument, action="append", default=[], dest="templates"
    )
    arguments.add_argument("--throughput", type=float, default=THROUGHPUT_PER_SECOND)
    arguments.add_argument("--pair-burst", type=int, default=PAIR_BURST)
    arguments.add_argument("--pair-interval", type=float, default=PAIR_INTERVAL)
    return arguments


def main(argv: Sequence[str] | None = None) -> int:
    """Run the fake until interrupted."""
    import uvicorn  # only the process needs the server

    options = parser().parse_args(argv)
    secrets = {}
    for variable in (options.access_token_env, options.app_secret_env):
        value = os.environ.get(variable, "")
        if not value:
            print(f"environment variable {variable} is not set", file=sys.stderr)
            return 2
        secrets[variable] = value
    fake = FakeCloudApi(
        phone_number_id=options.phone_number_id,
        access_token=secrets[options.access_token_env],
        templates=options.templates,
    )
    fake.rates = SendRates(
        fake.clock,
        throughput=options.throughput,
        pair_burst=options.pair_burst,
        pair_interval=options.pair_interval,
    )
    client = httpx.AsyncClient(timeout=PUSH_TIMEOUT)
    fake.attach_webhook(WebhookPusher(client, options.webhook, secrets[options.app_secret_env]))
    uvicorn.run(server_app(fake, client), host=options.host, port=options.port, log_level="info")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
