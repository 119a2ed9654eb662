"""What the receiver of a drop-off code is told while proving their phone number.

The code itself is said by ``deliveries_texts.otp_for_receiver``, and the link the customer
forwards by ``deliveries_texts.otp_link_for_customer``; these are the steps between.
"""

from __future__ import annotations

from conversations.texts.deliveries_texts import short_ref
from conversations.texts.desk_texts import ChannelWords

UNKNOWN_LINK = (
    "This drop-off code link is not valid any more: the delivery may be finished, or the "
    "link was copied incompletely. Please ask the sender for a new one."
)
ALREADY_SENT = "The drop-off code for this delivery was already sent to its receiver."
HANDOFF_PRIVATE_ONLY = (
    "Please open the link in a private chat with me: codes are never sent to groups."
)
WRONG_PHONE = (
    "Sorry, your number is not the receiver's number for this delivery, so I can't send the "
    "code to you. If you are the receiver, ask the sender to check the receiver's number."
)


def ask_for_contact(delivery_id: str, words: ChannelWords) -> str:
    return (
        "You were sent this link to receive the drop-off code for delivery "
        f"{short_ref(delivery_id)}.\n"
        "The code may only go to the receiver, so please share your own phone number with "
        f"{words.share_contact}. I use it only to check that it is the receiver's number."
    )


def not_own_contact(words: ChannelWords) -> str:
    return (
        "That is someone else's contact. To get the code, share your own number with "
        f"{words.share_own_contact}."
    )


def unreadable_phone(words: ChannelWords) -> str:
    return f"I couldn't read a phone number from that contact. Please try {words.share_contact}."
