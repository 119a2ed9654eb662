"""The words of a customer's data on their console page (``customer_data_section``): the
export and the forget, its confirmation and what it did, in every shipped language
(``console_web.customer_data.*``)."""

from __future__ import annotations

from typing import Final

EN: Final[dict[str, str]] = {
    "console_web.customer_data.heading": "Their data",
    "console_web.customer_data.help": (
        "Everything the bot keeps about this customer, as one JSON file; or erase it when "
        "they ask to be forgotten."
    ),
    "console_web.customer_data.export_button": "Export data",
    "console_web.customer_data.forget_button": "Forget this customer",
    "console_web.customer_data.admins_only": (
        "Only an admin can export or erase a customer's data."
    ),
    "console_web.customer_data.confirm_title": "Forget {customer}?",
    "console_web.customer_data.confirm_text": (
        "This erases what the bot keeps about {customer}: remembered details, places and "
        "phones, unfinished orders, conversations, hand-offs and photos. Their finished "
        "deliveries stay in the books without their name, phones or addresses; a delivery "
        "still on its way is finished first, then erased. This cannot be undone."
    ),
    "console_web.customer_data.confirm_yes": "Yes, forget them",
    "console_web.customer_data.confirm_no": "Keep them",
    "console_web.customer_data.done_title": "Customer forgotten",
    "console_web.customer_data.done": "{customer} is forgotten: {rows} rows erased.",
    "console_web.customer_data.books": (
        "Finished deliveries kept for the books, without them: {count}."
    ),
    "console_web.customer_data.open": "Still on their way, erased once they end: {refs}.",
    "console_web.customer_data.erased": "Erased, by table",
    "console_web.customer_data.nothing_kept": "Nothing was kept about them.",
    "console_web.customer_data.back": "Back to the customers",
}

FR: Final[dict[str, str]] = {
    "console_web.customer_data.heading": "Leurs données",
    "console_web.customer_data.help": (
        "Tout ce que le bot garde sur ce client, en un fichier JSON\u00a0; ou l'effacer "
        "quand il demande à être oublié."
    ),
    "console_web.customer_data.export_button": "Exporter les données",
    "console_web.customer_data.forget_button": "Oublier ce client",
    "console_web.customer_data.admins_only": (
        "Seul un administrateur peut exporter ou effacer les données d'un client."
    ),
    "console_web.customer_data.confirm_title": "Oublier {customer}\u00a0?",
    "console_web.customer_data.confirm_text": (
        "Ceci efface ce que le bot garde sur {customer}\u00a0: coordonnées mémorisées, lieux "
        "et téléphones, commandes inachevées, conversations, échanges avec l'équipe et photos. "
        "Ses livraisons terminées restent dans les comptes sans son nom, ses téléphones ni ses "
        "adresses\u00a0; une livraison encore en route est d'abord terminée, puis effacée. "
        "C'est définitif."
    ),
    "console_web.customer_data.confirm_yes": "Oui, l'oublier",
    "console_web.customer_data.confirm_no": "Le garder",
    "console_web.customer_data.done_title": "Client oublié",
    "console_web.customer_data.done": "{customer} est oublié\u00a0: {rows} lignes effacées.",
    "console_web.customer_data.books": (
        "Livraisons terminées gardées pour les comptes, sans lui\u00a0: {count}."
    ),
    "console_web.customer_data.open": (
        "Encore en route, effacées dès qu'elles se terminent\u00a0: {refs}."
    ),
    "console_web.customer_data.erased": "Effacé, par table",
    "console_web.customer_data.nothing_kept": "Rien n'était gardé sur lui.",
    "console_web.customer_data.back": "Retour aux clients",
}
