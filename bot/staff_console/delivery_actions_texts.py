"""The words of a delivery's actions in the console (``console_web.actions.*``): the dispatch
panel of a delivery's page (``delivery_actions``), its outcomes and its refusals of its own. The
Partner API's refusals are said by ``bot.staff.partner_refusals`` (``ops.*``)."""

from __future__ import annotations

from typing import Final

EN: Final[dict[str, str]] = {
    "console_web.actions.title": "Dispatch",
    "console_web.actions.at_service": "At the service now: {status}.",
    "console_web.actions.rider_now": "Rider now: {rider}.",
    "console_web.actions.no_rider_now": "No rider is assigned now.",
    "console_web.actions.riders": "Riders of the fleet, closest to the pickup first",
    "console_web.actions.no_riders": "The fleet lists no rider.",
    "console_web.actions.assign": "Assign {rider}",
    "console_web.actions.unassign": "Take the rider off",
    "console_web.actions.unassign_hint": (
        "Possible only while the delivery is matched, before the pickup starts."
    ),
    "console_web.actions.cancel": "Cancel the delivery",
    "console_web.actions.reason": (
        "Why it is cancelled ({low} to {high} characters; the service keeps it)"
    ),
    "console_web.actions.reason_length": (
        "Nothing was done: the reason has {count} characters, and it needs {low} to {high}."
    ),
    "console_web.actions.rider_changed": (
        "Nothing was done: {rider} was assigned to this delivery in the meantime. Look at "
        "the list again before choosing."
    ),
    "console_web.actions.rider_gone": (
        "Nothing was done: the rider was taken off this delivery in the meantime. Look at "
        "the list again before choosing."
    ),
    "console_web.actions.unreadable": "The service cannot be asked about this delivery now: {why}",
    "console_web.actions.done_assigned": "Done: the rider is assigned.",
    "console_web.actions.done_unassigned": "Done: the rider is taken off the delivery.",
    "console_web.actions.done_cancelled": (
        "Done: the delivery is cancelled. The customer is told as the service reports it."
    ),
    "console_web.actions.not_done": "Not done",
    "console_web.actions.map": "Map of the pickup and the drop-off",
}

FR: Final[dict[str, str]] = {
    "console_web.actions.title": "Attribution",
    "console_web.actions.at_service": "Au service maintenant : {status}.",
    "console_web.actions.rider_now": "Livreur maintenant : {rider}.",
    "console_web.actions.no_rider_now": "Aucun livreur n’est attribué pour l’instant.",
    "console_web.actions.riders": (
        "Livreurs de la flotte, les plus proches de l’enlèvement d’abord"
    ),
    "console_web.actions.no_riders": "La flotte n’a aucun livreur.",
    "console_web.actions.assign": "Attribuer à {rider}",
    "console_web.actions.unassign": "Retirer le livreur",
    "console_web.actions.unassign_hint": (
        "Possible seulement tant que la livraison est attribuée, avant que l’enlèvement commence."
    ),
    "console_web.actions.cancel": "Annuler la livraison",
    "console_web.actions.reason": (
        "Pourquoi elle est annulée (de {low} à {high} caractères ; le service la garde)"
    ),
    "console_web.actions.reason_length": (
        "Rien n’a été fait : la raison a {count} caractères, il en faut de {low} à {high}."
    ),
    "console_web.actions.rider_changed": (
        "Rien n’a été fait : {rider} a été attribué à cette livraison entre-temps. "
        "Regardez de nouveau la liste avant de choisir."
    ),
    "console_web.actions.rider_gone": (
        "Rien n’a été fait : le livreur a été retiré de cette livraison entre-temps. "
        "Regardez de nouveau la liste avant de choisir."
    ),
    "console_web.actions.unreadable": (
        "Le service ne peut pas être interrogé sur cette livraison pour l’instant : {why}"
    ),
    "console_web.actions.done_assigned": "Fait : le livreur est attribué.",
    "console_web.actions.done_unassigned": "Fait : le livreur est retiré de la livraison.",
    "console_web.actions.done_cancelled": (
        "Fait : la livraison est annulée. Le client est prévenu quand le service l’annonce."
    ),
    "console_web.actions.not_done": "Pas fait",
    "console_web.actions.map": "Carte de l’enlèvement et de la livraison",
}
