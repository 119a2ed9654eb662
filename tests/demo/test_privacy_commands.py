"""``/mydata`` and ``/forgetme`` in the terminal demo: the export printed, the erasure asked
first, and an open delivery kept (and said to be) until it ends."""

from __future__ import annotations

import json

from bot.chat_ref import CONSOLE, ChatRef

from .conftest import TO_SUMMARY, MakeStack

QUESTION = "This erases what the bot keeps about you"


async def test_my_data_prints_the_order_and_forget_me_erases_after_asking(
    make_stack: MakeStack,
) -> None:
    stack = await make_stack()
    for line in (*TO_SUMMARY, "1"):
        await stack.type_line(line)

    printed = await stack.type_line("/mydata")

    assert printed[0].endswith(
        "Here is everything this bot keeps about you, as one file you can keep or read."
    )
    photo = printed[-1].strip()
    document = json.loads("\n".join(printed[1:-1]))
    kept = json.dumps(document, ensure_ascii=False)
    for value in ("Bola Ahmed", "Ozone Cinema", "Shoes", "2348022223333"):
        assert value in kept, value
    assert photo.endswith(document["photos"][0]["file_name"])

    asked = await stack.type_line("forgetme")
    assert QUESTION in asked[0] and asked[-2:] == ["    1. Erase my data", "    2. Keep it"]
    assert (await stack.type_line("2"))[0].endswith("Nothing was erased.")
    await stack.type_line("/forgetme")
    [answer] = await stack.type_line("1")

    assert answer.startswith("bot: Done: what this bot kept about you is erased.")
    assert "is still on its way: it is finished first" in answer
    chat = ChatRef(CONSOLE, stack.customer_chat)
    assert await stack.bot.store.sessions.get(chat) is None
    # The parcel's photo is the open delivery's until it ends (then the retention erases it).
    assert (stack.bot.store.media_dir / document["photos"][0]["file_name"]).exists()
