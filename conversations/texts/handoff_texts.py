"""What the receiver of a drop-off code is told while proving their phone number.

The code itself is said by ``deliveries_texts.otp_for_receiver``, and the link the customer
forwards by ``deliveries_texts.otp_link_for_customer``; these are the steps between.
"""

from __future__ import annotations

from conversations.texts.catalogue import say
from conversations.texts.deliveries_texts import short_ref
from conversations.texts.desk_texts import ChannelWords

_CONSTANTS = {
    "UNKNOWN_LINK": "handoff.unknown_link",
    "ALREADY_SENT": "handoff.already_sent",
    "HANDOFF_PRIVATE_ONLY": "handoff.private_only",
    "WRONG_PHONE": "handoff.wrong_phone",
}


def __getattr__(name: str) -> str:
    """``handoff_texts.WRONG_PHONE`` and the other constant sentences, in the current language."""
    message_id = _CONSTANTS.get(name)
    if message_id is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return say(message_id)


def ask_for_contact(delivery_id: str, words: ChannelWords) -> str:
    return say(
        "handoff.ask_for_contact", ref=short_ref(delivery_id), where=say(words.share_contact)
    )


def not_own_contact(words: ChannelWords) -> str:
    return say("handoff.not_own_contact", where=say(words.share_own_contact))


def unreadable_phone(words: ChannelWords) -> str:
    return say("handoff.unreadable_phone", where=say(words.share_contact))
