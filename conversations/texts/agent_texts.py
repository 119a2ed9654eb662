"""What an agent channel (the JSON API, the MCP server) is told besides the flows' own questions.

The flows' prompts and re-asks are the same sentences a chat shows (``dialogue``); these are the
few things only a program that answers on a customer's behalf needs: how to answer each kind of
question, why an answer that does not fit the open question was refused, and what it is told
instead of a drop-off code. Like every customer-facing sentence, none names an error code, a
request field or an enum value of the Partner API.
"""

from __future__ import annotations

from conversations.texts.deliveries_texts import short_ref
from conversations.texts.desk_texts import ChannelWords
from conversations.texts.taps import Taps

# How the flows' marks are said to an agent (``taps``): choosing is answering with an option's
# id or a command; photos are uploaded to the JSON API, and only linked over MCP.
API_TAPS = Taps(words="taps.agent", commands_in_lower_case=True, ways="taps.api.way")
MCP_TAPS = Taps(words="taps.agent", commands_in_lower_case=True, ways="taps.mcp.way")

# How an agent names what the customer can do, in the desk's answers ("use /status"): marks
# each door draws in its own terms, tool names or routes (``bot.agents.door_words``).
AGENT_WORDS = ChannelWords(
    new="[[call:new]]",
    status="[[call:status]]",
    deliveries="[[call:deliveries]]",
    cancel_delivery="[[call:cancel_delivery]]",
    share_contact="a contact answer",
    share_own_contact="a contact answer with the receiver's own number",
)

# --- how to answer each kind of question (the prompt's hints) ---------------------------------

HINT_CHOICE = "Answer with the id of one of the options; never make up an id."
HINT_TEXT = "Answer with the customer's words as text."
HINT_PHONE = (
    "Answer with the phone number as the customer gave it (text), or as a contact with a name "
    "and a phone number."
)
HINT_CONTACT = "Answer with a contact: a phone number and the person's name."
HINT_PLACE = (
    "Answer with the address as the customer said it (text), or with a location pin "
    "(latitude and longitude); options are places the business already knows."
)
HINT_PHOTOS = (
    "Answer with photos as https URLs on an image host the business allows; send the done "
    "command once every photo is in."
)
HINT_CONFIRM = (
    "Read this summary back to the customer and confirm only once they agreed to it; an edit "
    "option changes one answer and comes back here."
)
HINT_TOTAL = (
    "Confirm with the total shown here (its amount and currency, or its quote_token when the "
    "fee is set later): a total the customer was not shown is refused with the summary again."
)
HINT_DEFAULT = "The pre-selected option is what the customer gets when they have no preference."
HINT_SKIP = "This question may be skipped with the skip command."


def photo_count(have: int, low: int, high: int) -> str:
    """How many photos the step has and takes."""
    return f"{have} photo(s) so far; at least {low} and at most {high} in all."


# --- an answer that does not fit the open question --------------------------------------------

NOT_AN_OPTION = (
    "That is not one of the options of this question. Answer with one of the option ids given, "
    "exactly as given."
)
WRONG_KIND = "This question does not take that kind of answer. The accepted kinds are listed."
STALE_ANSWER = "That answer was for an earlier question. The open question is the one given here."
NO_OPEN_QUESTION = "This conversation has no open question: it has ended."
TOTAL_NOT_SHOWN = (
    "Not confirmed: the confirm must carry the total this summary shows now, and it did not "
    "(it was left out, or the fee changed since). Read the summary to the customer again and "
    "confirm with its total once they agree."
)
CANCEL_BY_REFERENCE = (
    "Name the delivery to cancel by the short reference the customer was shown and agreed to "
    "cancel (like 3F2A9C1E), with the customer's reason."
)


def cancel_reason_length(length: int, low: int, high: int) -> str:
    """A cancel whose reason is too short or too long."""
    return (
        f"Give the customer's reason for cancelling in their words, {low} to {high} characters "
        f"(this one has {length})."
    )


UNKNOWN_FIELD = "That answer cannot be changed here. The summary's edit options list what can."

# --- the drop-off code ---------------------------------------------------------------------------


def otp_sent_to_receiver(delivery_id: str, receiver_link: str) -> str:
    """Instead of the drop-off code: where it went. The agent never gets the code itself."""
    return (
        f"The drop-off code for delivery {short_ref(delivery_id)} was sent to the verified "
        "receiver only: it is never given to you, so never make one up or repeat one. If the "
        "receiver has not got it yet, the customer can forward them this link, where they "
        f"verify their own phone number to see it: {receiver_link}"
    )


def otp_not_handed_off(delivery_id: str) -> str:
    """Instead of the drop-off code, when this bot has no way to pass it to the receiver."""
    return (
        f"A drop-off code for delivery {short_ref(delivery_id)} was issued for the verified "
        "receiver only: it is never given to you, so never make one up or repeat one. This "
        "service cannot pass it on to the receiver: if they have not got it, the customer "
        "should contact the business."
    )


def otp_not_handed_off_for_operators(delivery_id: str) -> str:
    """Operators of a bot without Telegram: a drop-off code came that no receiver can claim."""
    return (
        f"The drop-off code for delivery {short_ref(delivery_id)} came by webhook, but this "
        "bot has no Telegram to hand it to the receiver. Switch OTP via webhook only off in "
        "the dashboard, then use Resend delivery OTP: the service sends the code itself."
    )
