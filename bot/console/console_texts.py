"""The terminal console's own words, in every shipped language.

How a console customer is told to answer (``console.way.*``), share a contact or a location,
give photo files, and the demo's banner: the words only the console says. They are registered
on the business's catalogue with the console channel (``CONSOLE_TEXTS``) and said with the same
``say``, in the customer's language.
"""

from __future__ import annotations

from typing import Final

from conversations.texts.catalogue import ChannelTexts

EN: Final[dict[str, str]] = {
    # --- the console, the adapter's own sentences ----------------------------------------------
    "console.welcome_back": "Welcome back! Here is where we were:",
    "console.order_again": (
        "(type new to start another order, or repeat to order the same again; status, "
        "deliveries and cancel_delivery <ref> <reason> are about the deliveries you ordered)"
    ),
    "console.share_contact": "a line like: contact +2348022223333",
    "console.location_usage": (
        "Share a location like this: location 6.5244 3.3792 (an address may follow)."
    ),
    "console.contact_usage": "Share a contact like this: contact 08031234567 Ada Obi",
    "console.no_such_file": (
        "No such file: {files}. Type the path of a JPEG, PNG or WebP photo (several may go "
        "on one line)."
    ),
    "console.photos_so_far": "(photos so far: {have}; {need}up to {high})",
    "console.photos_at_least": "at least {low}, ",
    "console.reply": "(reply: {ways})",
    "console.way.as_shown": "type one as shown",
    "console.way.a_number": "a number",
    "console.way.default": "Enter for the default",
    "console.default_mark": "[default]",
    "console.places_hint": ":places lists the ones the demo knows",
    "console.still_waiting": "still waiting for the service… ({seconds} s)",
    "console.way.address": "type the address",
    "console.way.address_in": "type the address ({places})",
    "console.way.answer": "type your answer",
    "console.way.photos": "photo file paths",
    "console.way.edit": "edit <step>",
    "console.way.location": "location <lat> <lng> [address]",
    "console.way.contact": "contact <phone> [name]",
    "console.banner": (
        "deliverybot demo: {org}, with the Partner API sandbox in this process (no token, no "
        "network).\nYou are the customer. Answer with an option's number or type the answer; "
        "`help` explains the\nquestion, `back` and `cancel` always work; `new` starts another "
        "order and `repeat` orders the\nsame as last time. Photos are image files: type their "
        "paths. Typed addresses are looked up\noffline: `:places` lists the ones known; share a "
        "pin for anywhere else. As in Telegram,\n`status [ref]`, `deliveries` and "
        "`cancel_delivery <ref> <reason>` check and cancel the deliveries\nyou ordered; type a "
        "drop-off code link (`/start otp_...`, or `:link`) back in to claim the code\nas its "
        "receiver.\nLines starting with `:` play the business and its riders: `:help` lists "
        "them, `:quit` leaves.\n`/mydata` shows what the bot keeps about you; `/forgetme` "
        "erases it.\n"
    ),
    "console.photo.not_a_file": "{path}: not a file",
    "console.photo.unreadable": "{path}: cannot be read ({reason})",
    "console.photo.empty": "{path}: the file is empty",
    "console.photo.too_large": "{path}: {megabytes} MB is over the 5 MB limit",
    "console.photo.not_an_image": "{path}: not a JPEG, PNG or WebP image",
    "console.photo.too_many": "At most {maximum} photos at a time ({given} given).",
    "console.photos_refused": "I can't send these as photos:\n{problems}",
}
"""The English source of these words; ``FR`` translates it id for id."""

FR: Final[dict[str, str]] = {
    # --- the console, the adapter's own sentences ----------------------------------------------
    "console.welcome_back": "Bon retour ! Voici où nous en étions :",
    "console.order_again": (
        "(tapez nouveau pour une autre commande, ou répéter pour recommander la même ; "
        "statut, livraisons et annuler_livraison <réf> <motif> concernent vos livraisons)"
    ),
    "console.share_contact": "une ligne comme : contact +2348022223333",
    "console.location_usage": (
        "Partagez une position ainsi : position 6.5244 3.3792 (une adresse peut suivre)."
    ),
    "console.contact_usage": "Partagez un contact ainsi : contact 08031234567 Ada Obi",
    "console.no_such_file": (
        "Fichier introuvable : {files}. Tapez le chemin d'une photo JPEG, PNG ou WebP "
        "(plusieurs par ligne possible)."
    ),
    "console.photos_so_far": "(photos jusqu'ici : {have} ; {need}au plus {high})",
    "console.photos_at_least": "au moins {low}, ",
    "console.reply": "(réponse : {ways})",
    "console.way.as_shown": "tapez-en une telle qu'affichée",
    "console.way.a_number": "un numéro",
    "console.way.default": "Entrée pour la valeur par défaut",
    "console.default_mark": "[par défaut]",
    "console.places_hint": ":places liste celles que la démo connaît",
    "console.still_waiting": "toujours en attente du service… ({seconds} s)",
    "console.way.address": "tapez l'adresse",
    "console.way.address_in": "tapez l'adresse ({places})",
    "console.way.answer": "tapez votre réponse",
    "console.way.photos": "chemins de fichiers photo",
    "console.way.edit": "modifier <étape>",
    "console.way.location": "position <lat> <lng> [adresse]",
    "console.way.contact": "contact <téléphone> [nom]",
    "console.banner": (
        "démo deliverybot : {org}, avec le bac à sable de l'API partenaire dans ce processus "
        "(sans jeton ni réseau).\nVous êtes le client. Répondez par le numéro d'une option ou "
        "tapez la réponse ; `aide` explique\nla question, `retour` et `annuler` marchent "
        "toujours ; `nouveau` commence une autre commande et\n`répéter` commande la même chose "
        "que la dernière fois. Les photos sont des fichiers image : tapez\nleurs chemins. Les "
        "adresses tapées sont cherchées hors ligne : `:places` liste celles qui sont\nconnues ; "
        "partagez une position pour tout autre endroit. Comme dans Telegram, `statut [réf]`,\n"
        "`livraisons` et `annuler_livraison <réf> <motif>` suivent et annulent vos livraisons ; "
        "tapez\nun lien de code de remise (`/start otp_...`, ou `:link`) pour recevoir le code "
        "en tant que destinataire.\nLes lignes qui commencent par `:` jouent l'entreprise et ses "
        "livreurs : `:help` les liste, `:quit`\nquitte.\n`/mydata` montre ce que le bot garde "
        "sur vous ; `/forgetme` l'efface.\n"
    ),
    "console.photo.not_a_file": "{path} : ce n'est pas un fichier",
    "console.photo.unreadable": "{path} : illisible ({reason})",
    "console.photo.empty": "{path} : le fichier est vide",
    "console.photo.too_large": "{path} : {megabytes} Mo dépasse la limite de 5 Mo",
    "console.photo.not_an_image": "{path} : ce n'est pas une image JPEG, PNG ou WebP",
    "console.photo.too_many": "Au plus {maximum} photos à la fois ({given} données).",
    "console.photos_refused": "Je ne peux pas envoyer ceci comme photos :\n{problems}",
}

CONSOLE_TEXTS: Final = ChannelTexts("console", {"en": EN, "fr": FR})
