"""The console's riders page's words (``riders_section``), in every shipped language."""

from __future__ import annotations

from typing import Final

EN: Final[dict[str, str]] = {
    "console_web.riders.title": "Riders",
    "console_web.riders.intro": (
        "Every delivery on its way now, with its rider where their last position put them and "
        "its drop-off. A position is kept only while its delivery is active, and only when the "
        "rider on the map is on ([tracking]). Reload the page to see the riders move."
    ),
    "console_web.riders.map": "Map of the riders on their way",
    "console_web.riders.caption": "Deliveries on their way, oldest first",
    "console_web.riders.position": "Last position",
    "console_web.riders.no_position": "no position",
    "console_web.riders.just_now": "just now",
    "console_web.riders.minutes_ago": "{minutes} min ago",
    "console_web.riders.hours_ago": "{hours} h ago",
    "console_web.riders.rider_pin": "{ref}: {rider}",
    "console_web.riders.dropoff_pin": "{ref}: drop-off",
    "console_web.riders.none": "No delivery is on its way now.",
}

FR: Final[dict[str, str]] = {
    "console_web.riders.title": "Livreurs",
    "console_web.riders.intro": (
        "Chaque livraison en route, avec son livreur là où sa dernière position l'a placé, et "
        "son lieu de livraison. Une position n'est gardée que tant que sa livraison est en "
        "cours, et seulement quand le livreur sur la carte est activé ([tracking]). Rechargez "
        "la page pour voir les livreurs avancer."
    ),
    "console_web.riders.map": "Carte des livreurs en route",
    "console_web.riders.caption": "Livraisons en route, les plus anciennes d'abord",
    "console_web.riders.position": "Dernière position",
    "console_web.riders.no_position": "aucune position",
    "console_web.riders.just_now": "à l'instant",
    "console_web.riders.minutes_ago": "il y a {minutes} min",
    "console_web.riders.hours_ago": "il y a {hours} h",
    "console_web.riders.rider_pin": "{ref} : {rider}",
    "console_web.riders.dropoff_pin": "{ref} : lieu de livraison",
    "console_web.riders.none": "Aucune livraison n'est en route.",
}
