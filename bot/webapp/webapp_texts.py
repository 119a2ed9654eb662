"""The "Pick on the map" Mini App's words, in every shipped language.

The page's labels, buttons and errors (``webapp.*``): the page reads them in the customer's
language from its question's answer (``bot.webapp.routes``). They are registered on the
business's catalogue with the Telegram channel that opens the page (``WEBAPP_TEXTS``), and a
business's ``[texts]`` overrides reach them like any other message.
"""

from __future__ import annotations

from typing import Final

from conversations.texts.catalogue import ChannelTexts

EN: Final[dict[str, str]] = {
    # --- the "Pick on the map" Mini App (bot.webapp) ------------------------------------------
    "webapp.button": "🗺 Pick on the map",
    "webapp.title": "Pick the place",
    "webapp.confirm": "Use this place",
    "webapp.saved_heading": "Saved places",
    "webapp.pin_hint": "Or drag the pin to the place (or tap the map), then confirm.",
    "webapp.my_location": "My location",
    "webapp.search_label": "Search an address",
    "webapp.search_button": "Search",
    "webapp.no_results": "Nothing found. Try other words, or place the pin on the map.",
    "webapp.search_limited": "Too many searches just now: please wait a minute.",
    "webapp.address_label": "Address or landmark, for the rider",
    "webapp.unit_optional": "(optional)",
    "webapp.unit_other": "Not in the list: type it",
    "webapp.unit_missing": "Please give the {label} first.",
    "webapp.unit_unknown": "That is not one of the listed units.",
    "webapp.chosen": "Chosen: {place}",
    "webapp.pick_first": "Pick a saved place, search, or place the pin first.",
    "webapp.map_failed": "The map could not load: pick a saved place or search below.",
    "webapp.closed": "This question is no longer open: please go back to the chat.",
    "webapp.refused": "Please open this page with the button in the chat.",
}
"""The English source of these words; ``FR`` translates it id for id."""

FR: Final[dict[str, str]] = {
    "webapp.button": "🗺 Choisir sur la carte",
    "webapp.title": "Choisissez le lieu",
    "webapp.confirm": "Utiliser ce lieu",
    "webapp.saved_heading": "Lieux enregistrés",
    "webapp.pin_hint": (
        "Ou faites glisser l'épingle jusqu'au lieu (ou touchez la carte), puis confirmez."
    ),
    "webapp.my_location": "Ma position",
    "webapp.search_label": "Chercher une adresse",
    "webapp.search_button": "Chercher",
    "webapp.no_results": "Rien trouvé. Essayez d'autres mots, ou placez l'épingle sur la carte.",
    "webapp.search_limited": "Trop de recherches à l'instant : merci d'attendre une minute.",
    "webapp.address_label": "Adresse ou repère, pour le livreur",
    "webapp.unit_optional": "(facultatif)",
    "webapp.unit_other": "Pas dans la liste : le taper",
    "webapp.unit_missing": "Merci d'indiquer d'abord : {label}.",
    "webapp.unit_unknown": "Ce n'est pas l'une des unités de la liste.",
    "webapp.chosen": "Choisi : {place}",
    "webapp.pick_first": "Choisissez d'abord un lieu enregistré, cherchez, ou placez l'épingle.",
    "webapp.map_failed": (
        "La carte n'a pas pu se charger : choisissez un lieu enregistré ou cherchez ci-dessous."
    ),
    "webapp.closed": "Cette question n'est plus ouverte : merci de revenir à la conversation.",
    "webapp.refused": "Merci d'ouvrir cette page avec le bouton de la conversation.",
}

WEBAPP_TEXTS: Final = ChannelTexts("webapp", {"en": EN, "fr": FR})
