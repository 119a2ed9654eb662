"""The console's health page's words (``health_section``), in every shipped language."""

from __future__ import annotations

from typing import Final

EN: Final[dict[str, str]] = {
    "console_web.health.title": "Health",
    "console_web.health.intro": (
        "The figures /metrics gives Prometheus, read the same way: here for a business that "
        "runs no monitoring of its own. Reload the page to read them again."
    ),
    "console_web.health.deployment_heading": "Work waiting (the whole deployment)",
    "console_web.health.deployment_caption": (
        "Read from the database now: every instance of the bot reads the same rows."
    ),
    "console_web.health.instance_heading": "Counted by this instance",
    "console_web.health.instance_caption": (
        "Counted by the instance that answered this page since it started; with several "
        "instances, each counts its own."
    ),
    "console_web.health.figure": "Figure",
    "console_web.health.value": "Now",
    "console_web.health.whose": "Whose",
    "console_web.health.deployment": "whole deployment",
    "console_web.health.instance": "this instance",
    "console_web.health.partner_events.pending": "Partner API events waiting to be relayed",
    "console_web.health.partner_events.oldest": (
        "Inbox lag: how long the oldest Partner API event has waited"
    ),
    "console_web.health.telegram_updates.pending": "Telegram updates waiting to be handled",
    "console_web.health.telegram_updates.oldest": (
        "Inbox lag: how long the oldest Telegram update has waited"
    ),
    "console_web.health.followups": (
        "Follow-ups pending: creates whose answer was lost, still being checked"
    ),
    "console_web.health.open_caption": "Unfinished orders, by flow (the whole deployment)",
    "console_web.health.open_orders": "Unfinished orders",
    "console_web.health.no_open_orders": "No order is unfinished.",
    "console_web.health.partner_429": "Partner API rate-limit refusals (429)",
    "console_web.health.own_limit_waits": (
        "Requests held back to stay under the API key's rate limit"
    ),
    "console_web.health.telegram_429": "Telegram rate-limit refusals (429)",
    "console_web.health.partner_no_answer": (
        "Partner API calls with no answer (time-out, refused connection)"
    ),
    "console_web.health.relay_failures": "Messages about deliveries not sent to a chat",
    "console_web.health.unconfirmed_creates": "Creates whose answer was lost",
    "console_web.health.store_down": (
        "The database is not answering: the work waiting cannot be read just now."
    ),
}

FR: Final[dict[str, str]] = {
    "console_web.health.title": "Santé",
    "console_web.health.intro": (
        "Les chiffres que /metrics donne à Prometheus, lus de la même façon : ici pour une "
        "entreprise sans surveillance à elle. Rechargez la page pour les relire."
    ),
    "console_web.health.deployment_heading": "Travail en attente (tout le déploiement)",
    "console_web.health.deployment_caption": (
        "Lu dans la base de données à l'instant : chaque instance du bot lit les mêmes lignes."
    ),
    "console_web.health.instance_heading": "Compté par cette instance",
    "console_web.health.instance_caption": (
        "Compté par l'instance qui a répondu à cette page depuis son démarrage ; avec "
        "plusieurs instances, chacune compte les siens."
    ),
    "console_web.health.figure": "Chiffre",
    "console_web.health.value": "Maintenant",
    "console_web.health.whose": "De qui",
    "console_web.health.deployment": "tout le déploiement",
    "console_web.health.instance": "cette instance",
    "console_web.health.partner_events.pending": (
        "Événements de l'API partenaire en attente de relais"
    ),
    "console_web.health.partner_events.oldest": (
        "Retard de la boîte : attente du plus ancien événement de l'API partenaire"
    ),
    "console_web.health.telegram_updates.pending": "Mises à jour Telegram en attente",
    "console_web.health.telegram_updates.oldest": (
        "Retard de la boîte : attente de la plus ancienne mise à jour Telegram"
    ),
    "console_web.health.followups": (
        "Suivis en cours : créations dont la réponse s'est perdue, encore vérifiées"
    ),
    "console_web.health.open_caption": "Commandes inachevées, par parcours (tout le déploiement)",
    "console_web.health.open_orders": "Commandes inachevées",
    "console_web.health.no_open_orders": "Aucune commande inachevée.",
    "console_web.health.partner_429": "Refus de débit de l'API partenaire (429)",
    "console_web.health.own_limit_waits": (
        "Requêtes retenues pour rester sous la limite de débit de la clé"
    ),
    "console_web.health.telegram_429": "Refus de débit de Telegram (429)",
    "console_web.health.partner_no_answer": (
        "Appels à l'API partenaire sans réponse (délai dépassé, connexion refusée)"
    ),
    "console_web.health.relay_failures": "Messages sur les livraisons non envoyés",
    "console_web.health.unconfirmed_creates": "Créations dont la réponse s'est perdue",
    "console_web.health.store_down": (
        "La base de données ne répond pas : le travail en attente ne peut pas être lu pour "
        "l'instant."
    ),
}
