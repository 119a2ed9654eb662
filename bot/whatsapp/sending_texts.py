"""The WhatsApp sending side's own words, in every shipped language.

The words a receiver's drop-off code claim is typed with (the ``wa.me`` link fills them in),
and what the operators are told when WhatsApp refuses the bot's access or a message the
customer was owed. Registered on the business's catalogue with the channel
(``WHATSAPP_SENDING_TEXTS``), said with ``say`` like any message; ``[texts]`` overrides them.
"""

from __future__ import annotations

from typing import Final

from conversations.texts.catalogue import ChannelTexts

EN: Final[dict[str, str]] = {
    # Typed into the receiver's chat by the hand-off link, before the link's token.
    "whatsapp.sending.claim_words": "Please send me my drop-off code",
    "whatsapp.sending.alert_access": (
        "WhatsApp refused the bot's access ({reason}): no WhatsApp message goes out. Renew the "
        "access token in the Meta app (System User settings) and restart the bot."
    ),
    "whatsapp.sending.alert_news_failed": (
        "WhatsApp could not deliver a message about delivery {ref} to its customer "
        "(+{number}): {reason}. Please reach them another way."
    ),
    "whatsapp.sending.alert_failed": (
        "WhatsApp could not deliver a message to the customer +{number}: {reason}."
    ),
}

FR: Final[dict[str, str]] = {
    "whatsapp.sending.claim_words": "Merci de m’envoyer mon code de remise",
    "whatsapp.sending.alert_access": (
        "WhatsApp a refusé l’accès du bot ({reason}) : aucun message WhatsApp ne part. "
        "Renouvelez le jeton d’accès dans l’application Meta (paramètres de l’utilisateur "
        "système) et redémarrez le bot."
    ),
    "whatsapp.sending.alert_news_failed": (
        "WhatsApp n’a pas pu remettre un message sur la livraison {ref} à son client "
        "(+{number}) : {reason}. Merci de le joindre autrement."
    ),
    "whatsapp.sending.alert_failed": (
        "WhatsApp n’a pas pu remettre un message au client +{number} : {reason}."
    ),
}

WHATSAPP_SENDING_TEXTS: Final = ChannelTexts("whatsapp_sending", {"en": EN, "fr": FR})
"""The sending side's words, registered with the WhatsApp channel."""
