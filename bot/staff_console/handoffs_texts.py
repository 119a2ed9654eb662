"""The console's hand-off pages' words (``console_web.handoffs.*``), English and French.

What a hand-off's state, order and messages are called is the staff card's own words
(``staff.*``): the two doors say them alike.
"""

from __future__ import annotations

from typing import Final

EN: Final[dict[str, str]] = {
    "console_web.handoffs.nav": "Hand-offs",
    "console_web.handoffs.intro": (
        "Customers who asked for a person: waiting for someone, or being answered. Taking one "
        "here or with the Telegram card's button is the same: whoever takes it first has it."
    ),
    "console_web.handoffs.none": "Nobody is waiting for a person.",
    "console_web.handoffs.page": "Hand-off #{ref}",
    "console_web.handoffs.back": "All hand-offs",
    "console_web.handoffs.open_link": "Open #{ref}",
    "console_web.handoffs.customer": "Customer",
    "console_web.handoffs.state": "State",
    "console_web.handoffs.order": "Order",
    "console_web.handoffs.opened": "Asked",
    "console_web.handoffs.answers": "Answers so far",
    "console_web.handoffs.deliveries": "Their latest deliveries",
    "console_web.handoffs.last_messages": "Last messages",
    "console_web.handoffs.conversation": "The conversation since they asked",
    "console_web.handoffs.no_messages": "Nothing said yet.",
    "console_web.handoffs.earlier": "Only the last {count} messages are shown.",
    "console_web.handoffs.closed_note": "Closed: the bot has the conversation again.",
    "console_web.handoffs.read_only": (
        "Your role reads hand-offs; a dispatcher or an admin takes and answers them."
    ),
    "console_web.handoffs.take": "Take it",
    "console_web.handoffs.reply_label": "Reply to the customer",
    "console_web.handoffs.reply_hint": "Sent as the business, through the customer's chat.",
    "console_web.handoffs.reply_button": "Send",
    "console_web.handoffs.place_legend": "Answer “{question}” with a place",
    "console_web.handoffs.place_hint": "Pick it on the map, or type its latitude and longitude.",
    "console_web.handoffs.latitude": "Latitude",
    "console_web.handoffs.pick_map": ("Map: click the place to fill in its latitude and longitude"),
    "console_web.handoffs.service_area": "Service area",
    "console_web.handoffs.longitude": "Longitude",
    "console_web.handoffs.place_button": "Fill in this place",
    "console_web.handoffs.done": "Done: give the conversation back to the bot",
    "console_web.handoffs.refused_ref": (
        "“{ref}” is not a hand-off reference: it is six letters and digits, as K7M2QX."
    ),
    "console_web.handoffs.not_found": "There is no hand-off #{ref}.",
    "console_web.handoffs.refused_empty": "Nothing was sent: the reply is empty.",
    "console_web.handoffs.refused_long": (
        "Nothing was sent: a reply has at most {limit} characters."
    ),
    "console_web.handoffs.refused_place": (
        "Nothing was filled: a place is a latitude from -90 to 90 and a longitude from -180 "
        "to 180, written as numbers."
    ),
    "console_web.handoffs.not_at_place": (
        "Nothing was filled: the customer's order of #{ref} is not at a place question now."
    ),
}

FR: Final[dict[str, str]] = {
    "console_web.handoffs.nav": "Prises en charge",
    "console_web.handoffs.intro": (
        "Les clients qui ont demandé une personne : en attente, ou en cours de réponse. En "
        "prendre un ici ou avec le bouton de la carte Telegram revient au même : le premier "
        "qui le prend l'a."
    ),
    "console_web.handoffs.none": "Personne n'attend une personne.",
    "console_web.handoffs.page": "Prise en charge #{ref}",
    "console_web.handoffs.back": "Toutes les prises en charge",
    "console_web.handoffs.open_link": "Ouvrir #{ref}",
    "console_web.handoffs.customer": "Client",
    "console_web.handoffs.state": "État",
    "console_web.handoffs.order": "Commande",
    "console_web.handoffs.opened": "Demandé",
    "console_web.handoffs.answers": "Réponses jusqu'ici",
    "console_web.handoffs.deliveries": "Ses dernières livraisons",
    "console_web.handoffs.last_messages": "Derniers messages",
    "console_web.handoffs.conversation": "La conversation depuis sa demande",
    "console_web.handoffs.no_messages": "Rien n'a encore été dit.",
    "console_web.handoffs.earlier": "Seuls les {count} derniers messages sont affichés.",
    "console_web.handoffs.closed_note": "Terminée : le bot a repris la conversation.",
    "console_web.handoffs.read_only": (
        "Votre rôle lit les prises en charge ; un répartiteur ou un administrateur les prend "
        "et y répond."
    ),
    "console_web.handoffs.take": "La prendre",
    "console_web.handoffs.reply_label": "Répondre au client",
    "console_web.handoffs.reply_hint": (
        "Envoyé au nom de l'entreprise, dans la conversation du client."
    ),
    "console_web.handoffs.reply_button": "Envoyer",
    "console_web.handoffs.place_legend": "Répondre « {question} » avec un lieu",
    "console_web.handoffs.place_hint": (
        "Choisissez-le sur la carte, ou tapez sa latitude et sa longitude."
    ),
    "console_web.handoffs.latitude": "Latitude",
    "console_web.handoffs.pick_map": (
        "Carte : cliquez sur le lieu pour remplir sa latitude et sa longitude"
    ),
    "console_web.handoffs.service_area": "Zone desservie",
    "console_web.handoffs.longitude": "Longitude",
    "console_web.handoffs.place_button": "Remplir avec ce lieu",
    "console_web.handoffs.done": "Terminé : rendre la conversation au bot",
    "console_web.handoffs.refused_ref": (
        "« {ref} » n'est pas une référence de prise en charge : six lettres et chiffres, "
        "comme K7M2QX."
    ),
    "console_web.handoffs.not_found": "Il n'y a pas de prise en charge #{ref}.",
    "console_web.handoffs.refused_empty": "Rien n'a été envoyé : la réponse est vide.",
    "console_web.handoffs.refused_long": (
        "Rien n'a été envoyé : une réponse a au plus {limit} caractères."
    ),
    "console_web.handoffs.refused_place": (
        "Rien n'a été rempli : un lieu est une latitude de -90 à 90 et une longitude de -180 "
        "à 180, écrites en chiffres."
    ),
    "console_web.handoffs.not_at_place": (
        "Rien n'a été rempli : la commande du client de #{ref} n'est pas à une question de "
        "lieu maintenant."
    ),
}
