"""The words of the console's customers (``customers_section``): the search, a customer's
page, blocking and unblocking, in every shipped language (``console_web.customers.*``).

What a block or an unblock did is said with the operators' own words (``safety.*``), as
``/block`` and ``deliverybot customers block`` say it.
"""

from __future__ import annotations

from typing import Final

EN: Final[dict[str, str]] = {
    "console_web.customers.page": "Customers",
    "console_web.customers.search": "Find a customer",
    "console_web.customers.search_label": "Name, phone, Telegram id or channel:customer",
    "console_web.customers.search_hint": (
        "A part of a name, a phone number written any way, a Telegram user id, or a customer "
        "as channel:customer (telegram:1900, whatsapp:+2348021234567, shop-app:cust-42)."
    ),
    "console_web.customers.search_button": "Search",
    "console_web.customers.none_found": "No customer matches “{typed}”.",
    "console_web.customers.found": "Customers matching “{typed}” (at most {most}):",
    "console_web.customers.refused_empty": (
        "Type something to look for: a name, a phone, a Telegram id or channel:customer."
    ),
    "console_web.customers.refused_long": "The search is too long: at most {limit} characters.",
    "console_web.customers.refused_short": "Type at least {least} characters of a name.",
    "console_web.customers.refused_phone": "“{typed}” is not a phone number.",
    "console_web.customers.refused_number": (
        "“{typed}” names no customer: a {channel} customer is written {channel}:<number>."
    ),
    "console_web.customers.refused_channel": (
        "“{channel}” is not a channel with customers. Choose among: {channels}."
    ),
    "console_web.customers.column.customer": "Customer",
    "console_web.customers.column.phone": "Phone",
    "console_web.customers.column.deliveries": "Deliveries",
    "console_web.customers.column.last_order": "Last order",
    "console_web.customers.column.state": "State",
    "console_web.customers.column.ordered": "Ordered",
    "console_web.customers.blocked": "blocked",
    "console_web.customers.may_order": "may order",
    "console_web.customers.no_name": "no name given",
    "console_web.customers.no_phone": "no phone known",
    "console_web.customers.never_ordered": "never",
    "console_web.customers.customer": "Customer {name}",
    "console_web.customers.who": "Who",
    "console_web.customers.name": "Name",
    "console_web.customers.named_as": "Named in commands",
    "console_web.customers.channel": "Channel",
    "console_web.customers.phone": "Phone",
    "console_web.customers.deliveries": "Deliveries",
    "console_web.customers.no_deliveries": "No delivery ordered yet.",
    "console_web.customers.newest_deliveries": "The newest {most} are listed.",
    "console_web.customers.block_state": "Blocked?",
    "console_web.customers.not_blocked": "Not blocked: they may order.",
    "console_web.customers.blocked_by": "Blocked on {at} by {by}.",
    "console_web.customers.blocked_why": "Reason: {reason}",
    "console_web.customers.no_reason": "No reason was given.",
    "console_web.customers.limits": "Limits hit",
    "console_web.customers.no_limits": "No limit hit lately.",
    "console_web.customers.limit_hit": "{kind} (limit {limit}): refused",
    "console_web.customers.limit.open_deliveries": "deliveries on their way",
    "console_web.customers.limit.unpaid_deliveries": "deliveries not paid",
    "console_web.customers.limit.creates_per_hour": "orders in an hour",
    "console_web.customers.limit.creates_per_day": "orders in a day",
    "console_web.customers.limit.drafts_per_hour": "orders started in an hour",
    "console_web.customers.block": "Block",
    "console_web.customers.block_help": (
        "No new order is taken from a blocked customer; their open orders are dropped, "
        "their deliveries still go on."
    ),
    "console_web.customers.reason": "Reason",
    "console_web.customers.reason_rule": "Say why, in {least} to {most} characters.",
    "console_web.customers.block_button": "Block this customer",
    "console_web.customers.unblock_button": "Unblock this customer",
    "console_web.customers.admins_only": "Only an admin can block or unblock a customer.",
    "console_web.customers.refused_reason": (
        "Say why the customer is blocked, in {least} to {most} characters."
    ),
    "console_web.customers.not_found": "The bot knows no customer {customer}.",
}

FR: Final[dict[str, str]] = {
    "console_web.customers.page": "Clients",
    "console_web.customers.search": "Trouver un client",
    "console_web.customers.search_label": "Nom, téléphone, id Telegram ou canal:client",
    "console_web.customers.search_hint": (
        "Une partie d'un nom, un numéro de téléphone écrit de n'importe quelle façon, un id "
        "d'utilisateur Telegram, ou un client sous la forme canal:client (telegram:1900, "
        "whatsapp:+2348021234567, shop-app:cust-42)."
    ),
    "console_web.customers.search_button": "Chercher",
    "console_web.customers.none_found": "Aucun client ne correspond à «\u00a0{typed}\u00a0».",
    "console_web.customers.found": (
        "Clients correspondant à «\u00a0{typed}\u00a0» ({most} au plus)\u00a0:"
    ),
    "console_web.customers.refused_empty": (
        "Tapez ce que vous cherchez\u00a0: un nom, un téléphone, un id Telegram ou canal:client."
    ),
    "console_web.customers.refused_long": (
        "La recherche est trop longue\u00a0: {limit} caractères au plus."
    ),
    "console_web.customers.refused_short": "Tapez au moins {least} caractères d'un nom.",
    "console_web.customers.refused_phone": (
        "«\u00a0{typed}\u00a0» n'est pas un numéro de téléphone."
    ),
    "console_web.customers.refused_number": (
        "«\u00a0{typed}\u00a0» ne désigne aucun client\u00a0: un client {channel} s'écrit "
        "{channel}:<numéro>."
    ),
    "console_web.customers.refused_channel": (
        "«\u00a0{channel}\u00a0» n'est pas un canal qui a des clients. Choisissez "
        "parmi\u00a0: {channels}."
    ),
    "console_web.customers.column.customer": "Client",
    "console_web.customers.column.phone": "Téléphone",
    "console_web.customers.column.deliveries": "Livraisons",
    "console_web.customers.column.last_order": "Dernière commande",
    "console_web.customers.column.state": "État",
    "console_web.customers.column.ordered": "Commandée",
    "console_web.customers.blocked": "bloqué",
    "console_web.customers.may_order": "peut commander",
    "console_web.customers.no_name": "aucun nom donné",
    "console_web.customers.no_phone": "aucun téléphone connu",
    "console_web.customers.never_ordered": "jamais",
    "console_web.customers.customer": "Client {name}",
    "console_web.customers.who": "Qui",
    "console_web.customers.name": "Nom",
    "console_web.customers.named_as": "Nommé dans les commandes",
    "console_web.customers.channel": "Canal",
    "console_web.customers.phone": "Téléphone",
    "console_web.customers.deliveries": "Livraisons",
    "console_web.customers.no_deliveries": "Aucune livraison commandée pour l'instant.",
    "console_web.customers.newest_deliveries": "Les {most} plus récentes sont listées.",
    "console_web.customers.block_state": "Bloqué\u00a0?",
    "console_web.customers.not_blocked": "Pas bloqué\u00a0: ce client peut commander.",
    "console_web.customers.blocked_by": "Bloqué le {at} par {by}.",
    "console_web.customers.blocked_why": "Raison\u00a0: {reason}",
    "console_web.customers.no_reason": "Aucune raison n'a été donnée.",
    "console_web.customers.limits": "Limites atteintes",
    "console_web.customers.no_limits": "Aucune limite atteinte récemment.",
    "console_web.customers.limit_hit": "{kind} (limite {limit})\u00a0: refusé",
    "console_web.customers.limit.open_deliveries": "livraisons en cours",
    "console_web.customers.limit.unpaid_deliveries": "livraisons non payées",
    "console_web.customers.limit.creates_per_hour": "commandes en une heure",
    "console_web.customers.limit.creates_per_day": "commandes en un jour",
    "console_web.customers.limit.drafts_per_hour": "commandes commencées en une heure",
    "console_web.customers.block": "Bloquer",
    "console_web.customers.block_help": (
        "Aucune nouvelle commande n'est acceptée d'un client bloqué\u00a0; ses commandes en "
        "cours de saisie sont abandonnées, ses livraisons continuent."
    ),
    "console_web.customers.reason": "Raison",
    "console_web.customers.reason_rule": "Dites pourquoi, en {least} à {most} caractères.",
    "console_web.customers.block_button": "Bloquer ce client",
    "console_web.customers.unblock_button": "Débloquer ce client",
    "console_web.customers.admins_only": (
        "Seul un administrateur peut bloquer ou débloquer un client."
    ),
    "console_web.customers.refused_reason": (
        "Dites pourquoi le client est bloqué, en {least} à {most} caractères."
    ),
    "console_web.customers.not_found": "Le bot ne connaît aucun client {customer}.",
}
