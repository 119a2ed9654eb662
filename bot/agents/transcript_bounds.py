"""How much of what agents send a conversation's transcript keeps.

Every refused answer is kept with the turn it got, so a transcript shows what was tried; but an
agent may send anything, as often as its key allows. A refused answer is kept whole only when
its JSON is at most ``REFUSED_ANSWER_CHARS`` characters of text a store can write; else its
first characters stand for it (escaped, so half an emoji is kept as ``\\ud83d``) with its
length. A conversation's transcript is at most ``TRANSCRIPT_CHARS`` characters: past that, its
oldest refused entries are dropped first. Answers that were taken are never dropped (the schema
bounds each of them), nor is the newest entry, which holds the open question.
"""

from __future__ import annotations

import json

from bot.agents.json_values import unkeepable
from bot.store import AgentConversation
from bot.store.agent_conversations import AgentConversations

REFUSED_ANSWER_CHARS = 512
TRANSCRIPT_CHARS = 256 * 1024


def kept_answer(raw: object) -> object:
    """``raw`` (a refused answer) as the transcript keeps it."""
    text = json.dumps(raw, ensure_ascii=False)
    if len(text) <= REFUSED_ANSWER_CHARS and unkeepable(raw) is None:
        return raw
    escaped = json.dumps(raw, ensure_ascii=True)
    return {"truncated": escaped[:REFUSED_ANSWER_CHARS], "length": len(text)}


async def bound_transcript(agents: AgentConversations, conversation: AgentConversation) -> None:
    """Drop ``conversation``'s oldest refused entries until its transcript fits."""
    entries = await agents.transcript(conversation)
    size = sum(len(entry) for entry in entries)
    for entry in entries[:-1]:
        if size <= TRANSCRIPT_CHARS:
            return
        if json.loads(entry)["view"].get("refused") is not None:
            await agents.forget_entry(conversation, entry)
            size -= len(entry)
