"""Host files and business files for the hosting tests: each business with secrets of its own.

``business_secrets(n)`` gives business ``n`` its own token, keys and secrets, so a test that
wants two businesses to share one passes another's value to ``business_text``.
"""

from __future__ import annotations

from pathlib import Path

HOST_TEXT = """\
[host]
businesses_dir = "businesses"

[server]
public_base_url = "https://host.example.com"

[storage]
path = "{data}/host.sqlite3"
media_dir = "{data}/media"
"""

POSTGRES_TABLES = """
[storage.postgres]
dsn = "postgresql://bot:pw@db.internal:5432/bots"
"""


def business_secrets(n: int) -> dict[str, str]:
    """Business ``n``'s own values, each of a shape its key accepts."""
    return {
        "api_key": f"sk_live_business{n:04d}key0123456789",
        "token": f"{100000000 + n}:AAbusiness{n:04d}tokenVALUE0123456789abc",
        "secret_token": f"secret-token-{n:04d}",
        "signing_secret": f"whsec_business{n:04d}signing",
        "previous_signing_secret": f"whsec_business{n:04d}previous",
        "agent_key": f"agent-key-{n:04d}-0123456789abcdef",
        "phone_number_id": f"{1000000 + n}",
    }


def business_text(n: int, *, whatsapp: bool = False, **shared: str) -> str:
    """A valid business file for business ``n``: Telegram in webhook mode, partner webhooks,
    one agent channel and, with ``whatsapp``, a WhatsApp number; ``shared`` replaces some of
    its values (another business's, for the duplicate checks)."""
    values = {**business_secrets(n), **shared}
    text = f"""\
[partner]
base_url = "https://app.example.com/api/v1"
api_key = "{values["api_key"]}"

[telegram]
token = "{values["token"]}"
mode = "webhook"
secret_token = "{values["secret_token"]}"

[webhooks]
enabled = true
signing_secret = "{values["signing_secret"]}"
previous_signing_secret = "{values["previous_signing_secret"]}"

[operators]
chat_ids = [{1000 + n}]

[[agents.channels]]
name = "shop"
key = "{values["agent_key"]}"
"""
    if whatsapp:
        text += f"""
[whatsapp]
phone_number_id = "{values["phone_number_id"]}"
access_token = "EAAGbusiness{n:04d}accessTOKEN"
app_secret = "{n:032x}"
verify_token = "verify-{n:04d}-token"
"""
    return text


def make_host(root: Path, businesses: dict[str, str], *, host_text: str = HOST_TEXT) -> Path:
    """A host file under ``root`` with ``businesses`` (name: file text) in its directory."""
    (root / "businesses").mkdir(parents=True, exist_ok=True)
    for name, text in businesses.items():
        (root / "businesses" / f"{name}.toml").write_text(text, encoding="utf-8")
    host = root / "host.toml"
    host.write_text(host_text.format(data=root / "data"), encoding="utf-8")
    return host
