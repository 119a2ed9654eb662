"""What the receiver of a drop-off code is told while proving their phone number.

The code itself is said by ``deliveries_texts.otp_for_receiver``, and the link the customer
forwards by ``deliveries_texts.otp_link_for_customer``; these are the steps between.
"""

from __future__ import annotations

from conversations.texts.catalogue import Catalogue
from conversations.texts.deliveries_texts import short_ref
from conversations.texts.desk_texts import ChannelWords
from conversations.texts.said import said

UNKNOWN_LINK = said("handoff.unknown_link")
ALREADY_SENT = said("handoff.already_sent")
HANDOFF_PRIVATE_ONLY = said("handoff.private_only")
WRONG_PHONE = said("handoff.wrong_phone")


def ask_for_contact(catalogue: Catalogue, delivery_id: str, words: ChannelWords) -> str:
    return catalogue.say(
        "handoff.ask_for_contact",
        ref=short_ref(delivery_id),
        where=catalogue.say(words.share_contact),
    )


def not_own_contact(catalogue: Catalogue, words: ChannelWords) -> str:
    return catalogue.say("handoff.not_own_contact", where=catalogue.say(words.share_own_contact))


def unreadable_phone(catalogue: Catalogue, words: ChannelWords) -> str:
    return catalogue.say("handoff.unreadable_phone", where=catalogue.say(words.share_contact))
