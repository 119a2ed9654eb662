"""The live deliveries list's words (``console_web.live.*``): what the page says of its live
updates, and the refusal of one stream too many (``live_section``)."""

from __future__ import annotations

from typing import Final

EN: Final[dict[str, str]] = {
    "console_web.live.on": "This list updates itself as deliveries change.",
    "console_web.live.lost": "Live updates are interrupted: trying again…",
    "console_web.live.busy": (
        "Too many live lists are open on this server right now. The list still works: "
        "reload it to see the latest deliveries."
    ),
}

FR: Final[dict[str, str]] = {
    "console_web.live.on": "Cette liste se met à jour d’elle-même quand les livraisons changent.",
    "console_web.live.lost": "Les mises à jour en direct sont interrompues\u00a0: nouvel essai…",
    "console_web.live.busy": (
        "Trop de listes en direct sont ouvertes sur ce serveur en ce moment. La liste "
        "fonctionne toujours\u00a0: rechargez-la pour voir les dernières livraisons."
    ),
}
