"""Telegram's own words: what only the Telegram adapter says, in every shipped language.

The greeting, help and apologies of a Telegram chat, its buttons' labels and hints, its
command menus (``menu.<command>``), the chat's side of a map pick and what is said about
pictures and albums. The flows' questions and everything said about an order or a delivery are
the core's (``conversations.texts``); these are registered on the business's catalogue with the
channel (``TELEGRAM_TEXTS``) and said with the same ``say``, in the customer's language, and a
business's ``[texts]`` overrides reach them like any other message.
"""

from __future__ import annotations

from typing import Final

from conversations.texts.catalogue import ChannelTexts

EN: Final[dict[str, str]] = {
    # --- Telegram's command menus (the descriptions beside each command) ----------------------
    "menu.start": "Start an order, or continue yours",
    "menu.new": "Start a new order",
    "menu.repeat": "Order your last delivery again",
    "menu.cancel": "Stop the order you are filling in",
    "menu.back": "Go back to the previous question",
    "menu.help": "What I can do, and the commands",
    "menu.status": "Status of a delivery: /status [id]",
    "menu.deliveries": "Your deliveries",
    "menu.cancel_delivery": "Cancel a delivery: /cancel_delivery <id> <reason>",
    "menu.mydata": "Everything this bot keeps about you, as a file",
    "menu.forgetme": "Erase what this bot keeps about you",
    "menu.riders": "Riders near a delivery: /riders <delivery ref> [radius km]",
    "menu.assign": "Assign a rider: /assign <delivery ref> <rider id>",
    "menu.unassign": "Take the rider off: /unassign <delivery ref>",
    "menu.report": "Where customers give up: /report [7d|24h] [flow]",
    "menu.console": "A sign-in link to the web console, sent to you privately",
    # --- Telegram, the adapter's own sentences -------------------------------------------------
    "telegram.greeting": "Hello! I take delivery orders here, one question at a time.",
    "telegram.welcome_back": "Welcome back! Here is where we were:",
    "telegram.draft_gone": (
        "That order is no longer open: an order left unfinished for a long time is cleared. "
        "Let's start a new one."
    ),
    "telegram.no_order": "There is no order in progress. Send /new to start one.",
    "telegram.unknown_command": "I don't know that command. /help lists what I can do.",
    "telegram.unreadable": "I can read text, taps, locations, contacts and photos here.",
    "telegram.dead_button": "That button no longer works.",
    "telegram.private_only": "I take orders in a private chat: please message me directly.",
    "telegram.help": (
        "I take delivery orders, one question at a time.\n\n"
        "/new starts an order, /repeat orders your last delivery again, and /start continues "
        "yours. While ordering: /back goes to the previous question, /cancel stops, /help "
        "explains the question.\n\n"
        "/deliveries lists your deliveries, /status <id> shows one, and "
        "/cancel_delivery <id> <reason> cancels one while that is still possible. Once the "
        "order has ended, “status”, “cancel” or “where is my parcel?” is enough.\n\n"
        "/mydata sends you everything this bot keeps about you, and /forgetme erases it."
    ),
    "telegram.privacy_private_only": (
        "Please ask me in a private chat: what I keep about you is not shown in groups."
    ),
    "telegram.sorry": "Sorry, something went wrong on my side. Please try again in a moment.",
    # /console (bot.telegram.operators.console_links): the link goes to a private chat only.
    "telegram.console_off": (
        "The web console is off: set [console] enabled = true in the bot's configuration to use it."
    ),
    "telegram.console_link": (
        "Your sign-in link to the web console. It works once, within {minutes} minutes; keep "
        "it to yourself:\n{link}"
    ),
    "telegram.console_sent": "{name}, I have sent you a sign-in link in our private chat.",
    "telegram.console_start_private": (
        "{name}, I cannot write to you privately yet: open a private chat with me and press "
        "Start, then send /console here again."
    ),
    # The chat's side of a pick (bot.telegram.map_picks): its echo, and a pick it cannot read.
    "telegram.map_picked": "{title}: {place}",
    "telegram.map_picked_unit": "{title}: {place} · {label} {unit}",
    "telegram.map_pick_unreadable": (
        "That pick from the map could not be read: please pick again, or answer here in the chat."
    ),
    "telegram.share_contact": "the button below",
    "telegram.share_own_contact": "the “Share my contact” button below",
    "telegram.share_location_button": "📍 Share my location",
    "telegram.share_contact_button": "📱 Share my contact",
    "telegram.share_location_hint": "You can also share a location with the button below.",
    "telegram.share_contact_hint": "You can also share a contact with the button below.",
    "telegram.share_both_hint": (
        "You can also share a location or a contact with the buttons below."
    ),
    "telegram.keyboard_removed": "OK.",
    "telegram.previous_page": "‹ Prev",
    "telegram.next_page": "Next ›",
    "telegram.photo.no_public_host": (
        "I can't take photos here yet: photos need the bot's public https host. "
        "Please ask the business to set it."
    ),
    "telegram.photo.too_many": (
        "An order takes at most {max_photos} photos, so I left this one out."
    ),
    "telegram.photo.not_an_image": "Please send a picture: a JPEG, PNG or WebP image.",
    "telegram.photo.too_large": (
        "That picture is larger than {megabytes} MB. Please send a smaller one."
    ),
    "telegram.photo.download_failed": "I couldn't receive that picture. Please send it again.",
    # An album's photos are one answer; these say what happened to the ones left out.
    "telegram.album.partly": "I took {taken} of the {sent} pictures in that album.",
    "telegram.album.why.too_many": "An order takes at most {max_photos} photos.",
    "telegram.album.why.not_an_image": "The others were not JPEG, PNG or WebP images.",
    "telegram.album.why.too_large": "The others were larger than {megabytes} MB.",
    "telegram.album.why.download_failed": "I couldn't receive the others: please send them again.",
    "telegram.album.none.too_many": (
        "An order takes at most {max_photos} photos, so I left that album out."
    ),
    "telegram.album.none.not_an_image": (
        "I couldn't take that album: please send JPEG, PNG or WebP images."
    ),
    "telegram.album.none.too_large": (
        "The pictures in that album are larger than {megabytes} MB. Please send smaller ones."
    ),
    "telegram.album.none.download_failed": (
        "I couldn't receive the pictures in that album. Please send them again."
    ),
}
"""The English source of these words; ``FR`` translates it id for id."""

FR: Final[dict[str, str]] = {
    # --- Telegram's command menus (the descriptions beside each command) ----------------------
    "menu.start": "Commencer une commande, ou reprendre la vôtre",
    "menu.new": "Commencer une nouvelle commande",
    "menu.repeat": "Recommander votre dernière livraison",
    "menu.cancel": "Arrêter la commande en cours",
    "menu.back": "Revenir à la question précédente",
    "menu.help": "Ce que je sais faire, et les commandes",
    "menu.status": "Statut d'une livraison : /statut [id]",
    "menu.deliveries": "Vos livraisons",
    "menu.cancel_delivery": "Annuler une livraison : /annuler_livraison <id> <motif>",
    "menu.mydata": "Tout ce que ce bot garde sur vous, dans un fichier",
    "menu.forgetme": "Effacer ce que ce bot garde sur vous",
    "menu.riders": "Livreurs proches d'une livraison : /riders <réf. livraison> [rayon km]",
    "menu.assign": "Attribuer un livreur : /assign <réf. livraison> <id livreur>",
    "menu.unassign": "Retirer le livreur : /unassign <réf. livraison>",
    "menu.report": "Où les clients abandonnent : /report [7d|24h] [parcours]",
    "menu.console": "Un lien de connexion à la console web, envoyé en privé",
    # --- Telegram, the adapter's own sentences -------------------------------------------------
    "telegram.greeting": (
        "Bonjour ! Je prends ici les commandes de livraison, une question à la fois."
    ),
    "telegram.welcome_back": "Bon retour ! Voici où nous en étions :",
    "telegram.draft_gone": (
        "Cette commande n'est plus ouverte : une commande laissée inachevée trop longtemps "
        "est effacée. Commençons-en une nouvelle."
    ),
    "telegram.no_order": "Aucune commande en cours. Envoyez /nouveau pour en commencer une.",
    "telegram.unknown_command": (
        "Je ne connais pas cette commande. /aide liste ce que je sais faire."
    ),
    "telegram.unreadable": (
        "Je sais lire ici du texte, des boutons, des positions, des contacts et des photos."
    ),
    "telegram.dead_button": "Ce bouton ne fonctionne plus.",
    "telegram.private_only": (
        "Je prends les commandes en conversation privée : écrivez-moi directement."
    ),
    "telegram.help": (
        "Je prends les commandes de livraison, une question à la fois.\n\n"
        "/nouveau commence une commande, /repeter recommande votre dernière livraison, et "
        "/start reprend la vôtre. Pendant la commande : /retour revient à la question "
        "précédente, /annuler arrête, /aide explique la question.\n\n"
        "/livraisons liste vos livraisons, /statut <id> en montre une, et "
        "/annuler_livraison <id> <motif> en annule une tant que c'est encore possible. Une "
        "fois la commande terminée, « statut », « annuler » ou « où est mon colis ? » "
        "suffisent.\n\n"
        "/mydata vous envoie tout ce que ce bot garde sur vous, et /forgetme l'efface."
    ),
    "telegram.privacy_private_only": (
        "Demandez-le-moi dans une conversation privée : ce que je garde sur vous n'est pas "
        "montré dans les groupes."
    ),
    "telegram.console_off": (
        "La console web est désactivée : mettez [console] enabled = true dans la configuration "
        "du bot pour l'utiliser."
    ),
    "telegram.console_link": (
        "Votre lien de connexion à la console web. Il ne sert qu'une fois, dans les {minutes} "
        "minutes ; gardez-le pour vous :\n{link}"
    ),
    "telegram.console_sent": (
        "{name}, je vous ai envoyé un lien de connexion dans notre conversation privée."
    ),
    "telegram.console_start_private": (
        "{name}, je ne peux pas encore vous écrire en privé : ouvrez une conversation privée "
        "avec moi et appuyez sur Démarrer, puis renvoyez /console ici."
    ),
    "telegram.sorry": (
        "Désolé, quelque chose s'est mal passé de mon côté. Réessayez dans un instant."
    ),
    "telegram.map_picked": "{title} : {place}",
    "telegram.map_picked_unit": "{title} : {place} · {label} {unit}",
    "telegram.map_pick_unreadable": (
        "Ce choix sur la carte n'a pas pu être lu : merci de choisir à nouveau, ou de répondre "
        "ici dans la conversation."
    ),
    "telegram.share_contact": "le bouton ci-dessous",
    "telegram.share_own_contact": "le bouton « Partager mon contact » ci-dessous",
    "telegram.share_location_button": "📍 Partager ma position",
    "telegram.share_contact_button": "📱 Partager mon contact",
    "telegram.share_location_hint": (
        "Vous pouvez aussi partager une position avec le bouton ci-dessous."
    ),
    "telegram.share_contact_hint": (
        "Vous pouvez aussi partager un contact avec le bouton ci-dessous."
    ),
    "telegram.share_both_hint": (
        "Vous pouvez aussi partager une position ou un contact avec les boutons ci-dessous."
    ),
    "telegram.keyboard_removed": "OK.",
    "telegram.previous_page": "‹ Préc.",
    "telegram.next_page": "Suiv. ›",
    "telegram.photo.no_public_host": (
        "Je ne peux pas encore prendre de photos ici : il faut l'hôte https public du bot. "
        "Demandez à l'entreprise de le configurer."
    ),
    "telegram.photo.too_many": (
        "Une commande prend au plus {max_photos} photos, j'ai donc laissé celle-ci de côté."
    ),
    "telegram.photo.not_an_image": "Envoyez une image : JPEG, PNG ou WebP.",
    "telegram.photo.too_large": ("Cette image dépasse {megabytes} Mo. Envoyez-en une plus petite."),
    "telegram.photo.download_failed": "Je n'ai pas pu recevoir cette image. Renvoyez-la.",
    # An album's photos are one answer; these say what happened to the ones left out.
    "telegram.album.partly": "J'ai pris {taken} des {sent} images de cet album.",
    "telegram.album.why.too_many": "Une commande prend au plus {max_photos} photos.",
    "telegram.album.why.not_an_image": "Les autres n'étaient pas des images JPEG, PNG ou WebP.",
    "telegram.album.why.too_large": "Les autres dépassaient {megabytes} Mo.",
    "telegram.album.why.download_failed": (
        "Je n'ai pas pu recevoir les autres : renvoyez-les, s'il vous plaît."
    ),
    "telegram.album.none.too_many": (
        "Une commande prend au plus {max_photos} photos, j'ai donc laissé cet album de côté."
    ),
    "telegram.album.none.not_an_image": (
        "Je n'ai pas pu prendre cet album : envoyez des images JPEG, PNG ou WebP."
    ),
    "telegram.album.none.too_large": (
        "Les images de cet album dépassent {megabytes} Mo. Envoyez-en de plus petites."
    ),
    "telegram.album.none.download_failed": (
        "Je n'ai pas pu recevoir les images de cet album. Renvoyez-les, s'il vous plaît."
    ),
}

TELEGRAM_TEXTS: Final = ChannelTexts("telegram", {"en": EN, "fr": FR})
