"""WhatsApp's own words: what only the WhatsApp conversation says, in every shipped language.

Its buttons' and list rows' labels (paging, "Use my number", the menu), the menu that stands for
Telegram's command menu (WhatsApp has none, so "menu" or "help" lists the words a customer may
type), and its apologies (a sticker or a voice note it cannot read, a photo it could not take).
The flows' questions and everything said about an order or a delivery are the core's
(``conversations.texts``); these are registered on the business's catalogue with the channel
(``WHATSAPP_TEXTS``), so ``[texts]`` overrides reach them like any other message.

Labels obey WhatsApp's limits where they are shown: a button's title at most 20 characters, a
list row's 24 and its description 72 (``tests/whatsapp/talk`` draws them all).
"""

from __future__ import annotations

from typing import Final

from conversations.texts.catalogue import ChannelTexts

EN: Final[dict[str, str]] = {
    # --- the drawing of a question ---------------------------------------------------------------
    "whatsapp.list_button": "Choose",
    "whatsapp.choose_below": "Please choose below.",
    "whatsapp.more": "More…",
    "whatsapp.more_detail": "Options {first} to {last} of {count}",
    "whatsapp.previous": "‹ Previous",
    "whatsapp.page": "Page {page} of {pages}.",
    "whatsapp.type_a_number": "You can also type an option's number or its name.",
    "whatsapp.type_it": "You can also type it.",
    "whatsapp.send_location": "Tap “Send location” below to share a pin, or type the address.",
    "whatsapp.use_number": "Use {phone}",
    "whatsapp.use_my_number": "Use my number",
    "whatsapp.use_number_detail": "Your WhatsApp number",
    # --- the menu (WhatsApp has no command menu) -------------------------------------------------
    "whatsapp.menu": (
        "I take delivery orders here, one question at a time. You can type:\n"
        "• “new” to start an order, “repeat” to order your last delivery again\n"
        "• “back” for the previous question, “cancel” to stop, “help” about the question\n"
        "• “status” for your latest delivery (or “status <ref>”), “deliveries” for the list\n"
        "• “cancel_delivery <ref> <reason>” to cancel a delivery while that is possible\n"
        "• “human” to talk to a person of our team\n"
        "• “my data” for everything this bot keeps about you, “forget me” to erase it"
    ),
    "whatsapp.menu_button": "Menu",
    "whatsapp.menu.new": "New order",
    "whatsapp.menu.repeat": "Repeat last order",
    "whatsapp.menu.status": "Latest delivery",
    "whatsapp.menu.deliveries": "My deliveries",
    "whatsapp.menu.cancel_delivery": "Cancel a delivery",
    "whatsapp.menu.human": "Talk to a person",
    "whatsapp.menu.my_data": "My data",
    "whatsapp.menu.forget_me": "Forget me",
    "whatsapp.human_button": "Talk to a person",
    # --- what the conversation says of its own ---------------------------------------------------
    "whatsapp.no_order": (
        "There is no order in progress. Tap “New order” (or type “new”) to start one."
    ),
    "whatsapp.unsupported": (
        "Sorry, I can't read that kind of message. I read text, taps, locations, contacts "
        "and photos."
    ),
    "whatsapp.share_contact": "a contact card (📎, then Contact)",
    "whatsapp.share_own_contact": "the “Use +…” button with your number",
    "whatsapp.staff_photo": "Our team sent a photo, which I can't show here. {caption}",
    "whatsapp.staff_location": "Our team shared a place: {link}",
    "whatsapp.photo.no_public_host": (
        "I can't take photos here yet: photos need the bot's public https host. "
        "Please describe the package in words."
    ),
    "whatsapp.photo.too_many": (
        "An order takes at most {max_photos} photos, so I left this one out."
    ),
    "whatsapp.photo.not_an_image": "Please send a picture: a JPEG, PNG or WebP image.",
    "whatsapp.photo.too_large": ("That picture is over {megabytes} MB. Please send a smaller one."),
    "whatsapp.photo.download_failed": "I couldn't receive that picture. Please send it again.",
}

FR: Final[dict[str, str]] = {
    "whatsapp.list_button": "Choisir",
    "whatsapp.choose_below": "Veuillez choisir ci-dessous.",
    "whatsapp.more": "Plus…",
    "whatsapp.more_detail": "Options {first} à {last} sur {count}",
    "whatsapp.previous": "‹ Précédent",
    "whatsapp.page": "Page {page} sur {pages}.",
    "whatsapp.type_a_number": "Vous pouvez aussi taper le numéro ou le nom d'une option.",
    "whatsapp.type_it": "Vous pouvez aussi le taper.",
    "whatsapp.send_location": (
        "Touchez « Envoyer la position » ci-dessous pour partager un repère, ou tapez l'adresse."
    ),
    "whatsapp.use_number": "Mon n° {phone}",
    "whatsapp.use_my_number": "Mon numéro",
    "whatsapp.use_number_detail": "Votre numéro WhatsApp",
    "whatsapp.menu": (
        "Je prends ici les commandes de livraison, une question à la fois. Vous pouvez taper :\n"
        "• « nouveau » pour commencer une commande, « répéter » pour refaire la dernière\n"
        "• « retour » pour la question précédente, « annuler » pour arrêter, « aide » sur la "
        "question\n"
        "• « statut » pour votre dernière livraison (ou « statut <réf> »), « livraisons » pour "
        "la liste\n"
        "• « annuler_livraison <réf> <motif> » pour annuler une livraison tant que c'est possible\n"
        "• « humain » pour parler à une personne de notre équipe\n"
        "• « mes données » pour tout ce que ce bot garde sur vous, « oubliez-moi » pour "
        "l'effacer"
    ),
    "whatsapp.menu_button": "Menu",
    "whatsapp.menu.new": "Nouvelle commande",
    "whatsapp.menu.repeat": "Refaire la dernière",
    "whatsapp.menu.status": "Dernière livraison",
    "whatsapp.menu.deliveries": "Mes livraisons",
    "whatsapp.menu.cancel_delivery": "Annuler une livraison",
    "whatsapp.menu.human": "Parler à quelqu'un",
    "whatsapp.menu.my_data": "Mes données",
    "whatsapp.menu.forget_me": "Oubliez-moi",
    "whatsapp.human_button": "Parler à quelqu'un",
    "whatsapp.no_order": (
        "Aucune commande n'est en cours. Touchez « Nouvelle commande » (ou écrivez « nouveau ») "
        "pour en commencer une."
    ),
    "whatsapp.unsupported": (
        "Désolé, je ne sais pas lire ce genre de message. Je lis le texte, les boutons, les "
        "positions, les contacts et les photos."
    ),
    "whatsapp.share_contact": "une fiche contact (📎, puis Contact)",
    "whatsapp.share_own_contact": "le bouton « Mon n° » avec votre numéro",
    "whatsapp.staff_photo": (
        "Notre équipe a envoyé une photo que je ne peux pas afficher ici. {caption}"
    ),
    "whatsapp.staff_location": "Notre équipe a partagé un lieu : {link}",
    "whatsapp.photo.no_public_host": (
        "Je ne peux pas encore recevoir de photos ici : il faut l'hôte https public du bot. "
        "Veuillez décrire le colis avec des mots."
    ),
    "whatsapp.photo.too_many": (
        "Une commande prend au plus {max_photos} photos : je n'ai pas gardé celle-ci."
    ),
    "whatsapp.photo.not_an_image": "Veuillez envoyer une image : JPEG, PNG ou WebP.",
    "whatsapp.photo.too_large": (
        "Cette image dépasse {megabytes} Mo. Veuillez en envoyer une plus petite."
    ),
    "whatsapp.photo.download_failed": (
        "Je n'ai pas pu recevoir cette image. Veuillez l'envoyer à nouveau."
    ),
}

WHATSAPP_TEXTS: Final = ChannelTexts("whatsapp", {"en": EN, "fr": FR})
"""WhatsApp's words, registered with the channel."""
