"""The French catalogue: ``messages_en`` translated, id for id, with the same placeholders
(``tests/conversations/test_catalogue.py`` keeps the two equal).

A command has its French words (``keyword.*``: ``statut``, ``/nouveau``, ``position``), and
every language's words are understood (``conversations.keywords``); what has none stays as
the parser reads it (``contact``, ``/start``, the demo's ``:places``). French punctuation
takes a no-break space (U+00A0, typed as such) before ``: ; ? !`` and inside « », so a line
never starts with one.
"""

from __future__ import annotations

from typing import Final

MESSAGES: Final[dict[str, str]] = {
    # --- how a channel says "choose" (taps) ---------------------------------------------------
    "taps.buttons.verb": "touchez",
    "taps.buttons.any_option": "l'une des options",
    "taps.buttons.any_command": "un bouton",
    "taps.keyboard.verb": "tapez",
    "taps.keyboard.any_option": "le numéro ou le nom d'une option",
    "taps.keyboard.any_command": "une commande",
    "taps.agent.verb": "répondez par",
    "taps.agent.any_option": "l'une des options",
    "taps.agent.any_command": "une commande",
    "taps.buttons.way.photos": "les envoyer ici en images",
    "taps.keyboard.way.photos": "taper les chemins des fichiers photo",
    # after "Merci de": each starts with a consonant, so "de" never needs its elision
    "taps.api.way.photos": (
        "renvoyer les images elles-mêmes (un POST de chacune sur la route /photos de la "
        "conversation), ou des liens vers elles sur un site que l'entreprise accepte"
    ),
    "taps.mcp.way.photos": "renvoyer des liens vers elles sur un site que l'entreprise accepte",
    "command.back": "Retour",
    "command.skip": "Passer",
    "command.done": "Terminé",
    "command.help": "Aide",
    "command.cancel": "Annuler",
    "command.edit": "Modifier",
    # --- the engine, around any flow's questions (dialogue) -----------------------------------
    "dialogue.service_down": (
        "Je n'arrive pas à joindre le service de livraison pour le moment. Réessayez dans "
        "un instant ; rien de ce que vous m'avez dit n'est perdu."
    ),
    "dialogue.closed": (
        "Cette conversation est terminée. Commencez une nouvelle commande quand vous voulez."
    ),
    "dialogue.restarted": (
        "Désolé : ce formulaire de commande a changé depuis votre dernier message, nous "
        "devons donc reprendre depuis le début."
    ),
    "dialogue.flow_gone": "Désolé : ce type de commande n'est plus proposé ici.",
    "dialogue.no_warehouse_now": (
        "Désolé : l'entreprise ne reçoit plus de colis en entrepôt, un livreur viendra donc "
        "chercher le vôtre. Tout ce que vous m'avez dit est conservé."
    ),
    "dialogue.stale": (
        "Cette réponse concernait une question précédente, je l'ai donc laissée de côté. "
        "Voici où nous en sommes :"
    ),
    "dialogue.cancelled": "Annulé. Rien n'a été commandé.",
    "dialogue.cancel_question": (
        "Annuler cette commande ? Les réponses données jusqu'ici seront perdues."
    ),
    "dialogue.cancel_yes": "Oui, annuler",
    "dialogue.cancel_no": "Non, continuer",
    "dialogue.new_order_question": (
        "Commencer une nouvelle commande ? Les réponses données pour celle-ci seront perdues."
    ),
    "dialogue.new_order_yes": "Oui, en commencer une nouvelle",
    "dialogue.same_place_as_last": "Comme la dernière fois : {place}",
    "dialogue.first_question": ("C'est la première question ; il n'y a rien avant."),
    "dialogue.edit_from_summary": (
        "Vous pourrez modifier chaque réponse depuis le récapitulatif, à la fin. Pour revenir "
        "à la question précédente, [[tap:!back]]."
    ),
    "dialogue.stuck": (
        "Un souci ? [[Tap:!help]] pour des conseils, ou [[tap:!cancel]] pour arrêter."
    ),
    "dialogue.no_skip": "Cette réponse est nécessaire ; on ne peut pas la passer.",
    "dialogue.pick_an_option": "[[Tap:*]], s'il vous plaît.",
    "dialogue.commands": (
        "Vous pouvez toujours dire Retour (question précédente), Annuler (arrêter) ou Aide."
    ),
    "dialogue.wrong_kind": "Pour répondre : {ways}.",
    "dialogue.ways_joiner": ", ou ",
    "dialogue.way.choice": "[[tap:*]]",
    "dialogue.way.text": "tapez votre réponse",
    "dialogue.way.contact": "partagez un contact",
    "dialogue.way.location": "partagez une position",
    "dialogue.way.photos": "envoyez des photos",
    "dialogue.way.command": "[[tap:!]]",
    "dialogue.help.choice": "[[Tap:*]], ou tapez son nom.",
    "dialogue.help.text": "Tapez votre réponse dans un message.",
    "dialogue.help.phone": "Tapez un numéro de téléphone, ou partagez un contact.",
    "dialogue.help.contact": (
        "Tapez le nom, ou partagez un contact pour donner le nom et le téléphone d'un coup."
    ),
    "dialogue.help.place": (
        "Partagez une position, ou tapez l'adresse : je la cherche et vous montre ce que "
        "j'ai trouvé avant de l'utiliser. Les lieux enregistrés, s'il y en a, sont les options."
    ),
    "dialogue.help.photos": (
        "Envoyez les photos, une par une ou ensemble : les envoyer, c'est répondre."
    ),
    "dialogue.help.confirm": (
        "Vérifiez les détails. Confirmez pour envoyer la commande, ou choisissez ce qu'il "
        "faut modifier."
    ),
    "dialogue.address_not_found_with_area": (
        "Je n'ai pas trouvé « {typed} ». Vérifiez l'orthographe ou citez un repère proche, "
        "ou partagez une position."
    ),
    "dialogue.address_not_found": (
        "Je n'ai pas trouvé « {typed} ». Ajoutez le quartier ou la ville, ou partagez une position."
    ),
    "dialogue.address_again_with_area": (
        "D'accord. Retapez l'adresse avec plus de détails (un numéro ou un repère proche), "
        "ou partagez une position."
    ),
    "dialogue.address_again": (
        "D'accord. Retapez l'adresse avec le quartier ou la ville, ou partagez une position."
    ),
    "dialogue.empty_answer": "Cette réponse était vide : veuillez répondre à la question.",
    "dialogue.keep_label": "Garder : {answer}",
    "dialogue.no_longer_offered": (
        "{title} : l'entreprise ne propose plus votre choix ; veuillez choisir à nouveau."
    ),
    "dialogue.can_change": "Vous pouvez modifier : {titles}.",
    "dialogue.list_joiner": ", ",
    "dialogue.refused_place": (
        "Le service de livraison indique que ce lieu est hors de la zone desservie par "
        "l'entreprise. Veuillez choisir un autre lieu."
    ),
    "dialogue.outside_area": (
        "Ce lieu est hors de la zone desservie par l'entreprise (environ {radius_km} km "
        "autour de sa base). Choisissez un lieu plus proche, ou partagez une autre position."
    ),
    "dialogue.nothing_to_repeat": (
        "Vous n'avez encore rien commandé ici, il n'y a donc rien à refaire."
    ),
    "dialogue.cannot_repeat": (
        "Désolé : votre dernière commande a été faite avec un formulaire qui a changé depuis, "
        "elle ne peut donc pas être reprise. Voici une nouvelle commande à la place."
    ),
    "dialogue.no_such_flow": (
        "Il n'y a pas de formulaire de commande appelé {name}. Les voici : {names}."
    ),
    "dialogue.repeating": (
        "Votre dernière commande ({label}) est reprise : je ne demande que ce qui ne peut pas "
        "être réutilisé, et vous pourrez tout modifier au récapitulatif."
    ),
    "dialogue.not_reused": (
        "{titles} : non conservé d'une commande à l'autre, on vous le redemandera."
    ),
    "dialogue.try_again": "Réessayer",
    "dialogue.no_payment_method_alert": (
        "Les clients ne peuvent pas commander : aucun moyen de paiement n'est activé pour les "
        "livraisons. Activez le paiement à la livraison ou le paiement en ligne dans le tableau "
        "de bord (Settings, Delivery: payment collection, paymentCollection dans les "
        "capabilities). Les commandes en cours sont conservées et reprennent dès qu'un moyen "
        "est activé."
    ),
    "dialogue.order_held_kept": (
        "Désolé, cette entreprise ne peut pas encaisser de livraison pour le moment ; votre "
        "commande est donc conservée ici : revenez plus tard et touchez Réessayer pour "
        "continuer."
    ),
    "dialogue.order_held": (
        "Désolé, cette entreprise ne peut pas encaisser de livraison pour le moment, les "
        "commandes ne peuvent donc pas encore être passées : revenez plus tard et touchez "
        "Réessayer."
    ),
    "dialogue.image_host_alert": (
        "Le service de livraison a refusé les photos du colis (image_host_rejected). L'hôte "
        "des médias du bot doit figurer dans la liste des hôtes d'images autorisés du tableau "
        "de bord (Settings, API & Webhooks), et les photos doivent être accessibles en https."
    ),
    "dialogue.other_refusal_alert": (
        "Le service de livraison a refusé une commande pour une raison que seule l'entreprise "
        "peut corriger (la clé d'API, ses droits ou la facturation)."
    ),
    "dialogue.other_refusal_alert_said": (
        "Le service de livraison a refusé une commande pour une raison que seule l'entreprise "
        "peut corriger (la clé d'API, ses droits ou la facturation) : {said}"
    ),
    "dialogue.refused_answers": (
        "Le service de livraison n'a pas pu accepter certaines de vos réponses : {titles}. "
        "Veuillez les donner à nouveau."
    ),
    "dialogue.refused_order": (
        "Le service de livraison n'a pas pu accepter cette commande telle quelle. Rien n'a "
        "été créé ; vérifiez les détails et renvoyez-la."
    ),
    "dialogue.refused_service": "Désolé, l'entreprise ne propose plus ce service ici.",
    "dialogue.refused_payment": (
        "Ce moyen de paiement n'est plus possible pour cette commande. Veuillez choisir à nouveau."
    ),
    "dialogue.refused_places": (
        "Le service de livraison ne dessert pas l'un de ces lieux : {titles}. Veuillez "
        "redonner les lieux."
    ),
    "dialogue.refused_a_place": (
        "Le service de livraison ne dessert pas l'un de ces lieux. Veuillez redonner les lieux."
    ),
    "dialogue.refused_photos": (
        "Le service de livraison n'a pas pu accepter les photos. C'est un réglage que "
        "l'entreprise doit corriger ; elle a été prévenue. Votre commande est conservée ici."
    ),
    "dialogue.refused_photo_link": (
        "Le service de livraison n'a pas pu récupérer les photos aux liens donnés : "
        "l'entreprise n'accepte pas les photos de ce site. Vos autres réponses sont "
        "conservées. Merci de [[way:photos]]."
    ),
    "dialogue.refused_photos_expired": (
        "Les photos de cette commande ne sont plus conservées : elles ne sont gardées qu'un "
        "temps, et la commande a attendu plus longtemps. Vos autres réponses sont "
        "conservées. Merci de [[way:photos]]."
    ),
    "dialogue.busy_wait": (
        "Le service de livraison est saturé. Attendez environ {seconds}, puis renvoyez-la."
    ),
    "dialogue.busy": ("Le service de livraison est saturé. Attendez un instant, puis renvoyez-la."),
    "dialogue.one_second": "1 seconde",
    "dialogue.seconds": "{count} secondes",
    "dialogue.one_minute": "une minute",
    "dialogue.minutes": "{count} minutes",
    "dialogue.create_waiting": (
        "Beaucoup de commandes partent en ce moment : la vôtre part dans environ {wait}. "
        "Restez ici : je vous réponds dès qu'elle est envoyée."
    ),
    "dialogue.refused_other": (
        "Le service de livraison a refusé cette commande pour une raison que seule "
        "l'entreprise peut corriger ; elle a été prévenue. Rien n'a été créé."
    ),
    "dialogue.created": "C'est fait ! La référence de votre commande est {ref}.",
    "dialogue.created.awaiting_price": (
        "Votre demande est enregistrée. L'équipe va fixer les frais de livraison et "
        "l'approuver ; vous recevrez un message dès que le prix sera fixé."
    ),
    "dialogue.created.pending": (
        "Votre livraison est réservée et attend qu'un livreur lui soit attribué."
    ),
    "dialogue.created.picked_up": "Le livreur a déjà récupéré le colis.",
    "dialogue.created.in_transit": "Le colis est en route.",
    "dialogue.created.delivered": "Le colis a été livré.",
    "dialogue.created.cancelled": "Cette livraison a été annulée.",
    "dialogue.created.other": "Statut : {status}.",
    "dialogue.created.rider_named": (
        "{rider} a déjà été désigné et partira bientôt vers le lieu d'enlèvement."
    ),
    "dialogue.created.rider": (
        "Un livreur a déjà été désigné et partira bientôt vers le lieu d'enlèvement."
    ),
    "dialogue.checking": (
        "J'ai envoyé votre commande, mais la réponse du service de livraison ne m'est pas "
        "parvenue : je ne sais donc pas encore si elle est passée. Je vérifie et vous le dirai "
        "ici dès que je le saurai ; ne la recommandez pas en attendant."
    ),
    "dialogue.duplicate_held": (
        "Vous avez envoyé une commande avec ces mêmes détails il y a peu et je vérifie encore "
        "si elle est passée : elle existe donc peut-être déjà. Attendez mon message à son "
        "sujet, ou renvoyez celle-ci pour passer une seconde commande."
    ),
    "dialogue.not_placed": (
        "À propos de la commande que je vérifiais : le service de livraison ne l'a pas "
        "acceptée, elle n'a donc pas été passée et rien n'a été créé. Vous pouvez commencer "
        "une nouvelle commande quand vous voulez."
    ),
    "dialogue.still_unknown": (
        "Je ne sais toujours pas si votre commande est passée : le service de livraison n'a "
        "pas donné de réponse claire. L'entreprise a été prévenue et va vérifier pour vous ; "
        "ne la recommandez pas avant sa réponse."
    ),
    "dialogue.went_through": "Bonne nouvelle : la commande que je vérifiais est bien passée.",
    "dialogue.still_unknown_alert": (
        "Une commande n'a pas pu être confirmée après {attempts} tentatives : le service de "
        "livraison n'a donné aucune réponse certaine à sa création (clé d'idempotence {key}, "
        "chat {chat_id}, {package}, {place}). Cherchez-la dans le tableau de bord et prévenez "
        "le client ; le bot a cessé de réessayer."
    ),
    # --- a delivery in plain words (deliveries_texts) -----------------------------------------
    "status.awaiting_price": "en attente de prix",
    "status.pending": "en attente d'un livreur",
    "status.matched": "livreur attribué",
    "status.picked_up": "récupéré",
    "status.in_transit": "en route",
    "status.delivered": "livré",
    "status.cancelled": "annulé",
    "status.paid": "payé",
    "status.unpaid": "non payé",
    "status.unknown": "inconnu",
    "payment.paid": "payé",
    "payment.unpaid": "pas encore payé",
    "payment.pending": "paiement en cours",
    "payment.failed": "paiement échoué",
    "payment.refunded": "remboursé",
    "vehicle.motorbike": "moto",
    "vehicle.bicycle": "vélo",
    "vehicle.car": "voiture",
    "vehicle.van": "camionnette",
    "vehicle.truck": "camion",
    "vehicle.tricycle": "tricycle",
    "vehicle.walking": "à pied",
    "delivery.fee_set": "Les frais de livraison sont de {amount}.",
    "delivery.paid_amount": "Nous avons bien reçu votre paiement de {amount}. Merci\u00a0!",
    "delivery.paid": "Nous avons bien reçu votre paiement. Merci\u00a0!",
    "delivery.status.awaiting_price": (
        "Votre demande attend que l'équipe fixe les frais de livraison."
    ),
    "delivery.status.pending": "Votre livraison est réservée et attend un livreur.",
    "delivery.status.matched": "{rider} est attribué et se rend au lieu d'enlèvement.",
    "delivery.status.picked_up": "Le livreur a récupéré votre colis.",
    "delivery.status.in_transit": "Votre colis est en route vers le lieu de livraison.",
    "delivery.status.delivered": "Votre colis a été livré.",
    "delivery.status.cancelled": "Votre livraison a été annulée.",
    "delivery.status.cancelled_reason": "Votre livraison a été annulée. Motif : {reason}",
    "delivery.status.other": "Le statut de votre livraison est maintenant : {status}.",
    "delivery.a_rider": "Un livreur",
    "delivery.a_rider_with": "Un livreur ({details})",
    "delivery.heading": "Livraison {ref}",
    # --- le livreur sur la carte ([tracking]) ---------------------------------------------
    "tracking.your_rider": "Votre livreur",
    "tracking.to_pickup": "{rider} est en route pour récupérer {ref}.",
    "tracking.to_dropoff": "{rider} vous apporte {ref}.",
    "tracking.eta": (
        "Arrivée dans {minutes} min environ : une estimation d'après la distance, pas une promesse."
    ),
    "tracking.eta_soon": "Arrivée dans quelques minutes : une estimation d'après la distance.",
    "tracking.unavailable": "La position de {rider} n'est pas disponible pour le moment.",
    "tracking.map_link": "Sur la carte : {url}",
    # --- les droits du client sur ses données ----------------------------------------------
    "privacy.export_intro": (
        "Voici tout ce que ce bot garde sur vous, en un fichier à garder ou à lire."
    ),
    "privacy.export_nothing": "Ce bot ne garde rien sur vous.",
    "privacy.forget_question": (
        "Ceci efface ce que le bot garde sur vous : vos coordonnées retenues, vos lieux et "
        "numéros de téléphone, vos commandes inachevées, vos conversations et vos photos. Vos "
        "livraisons passées restent dans les comptes de l'entreprise, sans votre nom, vos "
        "numéros ni vos adresses. Tout effacer ?"
    ),
    "privacy.forget_yes": "Effacer mes données",
    "privacy.forget_no": "Les garder",
    "privacy.forget_kept": "Rien n'a été effacé.",
    "privacy.forget_done": "C'est fait : ce que ce bot gardait sur vous est effacé.",
    "privacy.forget_books": (
        "L'entreprise garde {count} livraisons passées pour ses comptes, sans votre nom, vos "
        "numéros ni vos adresses."
    ),
    "privacy.forget_books_one": (
        "L'entreprise garde votre livraison passée pour ses comptes, sans votre nom, vos "
        "numéros ni vos adresses."
    ),
    "privacy.forget_open": (
        "Votre livraison {refs} est encore en route : elle est d'abord terminée, et ce dont elle "
        "a besoin est effacé dès qu'elle prend fin."
    ),
    "delivery.tracking": "Suivez-la ici : {url}",
    "delivery.note": "• {note}",
    "delivery.note_tracking_sent": "Le bot a envoyé le lien de suivi au client.",
    "delivery.note_code_handled": (
        "Le bot remet le code de remise au seul destinataire : personne d'autre n'a à l'envoyer."
    ),
    "delivery.otp_for_receiver": (
        "Votre code de remise pour la livraison {ref} est {code}. Ne le donnez au livreur "
        "qu'une fois le colis entre vos mains."
    ),
    "delivery.otp_link_for_customer": (
        "Le code de remise de la livraison {ref} est prêt. Seul le destinataire peut le voir : "
        "transférez-lui ce lien :\n{link}\n"
        "Il l'ouvre et partage son propre numéro de téléphone pour obtenir le code."
    ),
    "delivery.otp_link_for_self": (
        "Le code de remise de la livraison {ref} est prêt. Il ne va qu'au téléphone du "
        "destinataire, qui est le vôtre : ouvrez ce lien et partagez votre propre contact "
        "pour l'obtenir :\n{link}"
    ),
    "delivery.otp_waiting_for_operators": (
        "Le code de remise de la livraison {ref} attend que le destinataire vérifie son "
        "numéro de téléphone."
    ),
    "delivery.otp_setting_off_for_operators": (
        "Le service a envoyé au bot le code de remise de la livraison {ref}, comme le fait "
        "l'option « OTP via webhook only » du tableau de bord, mais le réglage [relay] "
        "otp_via_webhook du bot est désactivé : les récapitulatifs de commande disent aux "
        "clients que le service envoie le code par SMS au destinataire. Mettez "
        "otp_via_webhook = true dans la configuration du bot et redémarrez-le."
    ),
    "delivery.otp_unrelayed_for_operators": (
        "Le code de remise de la livraison {ref} est arrivé, mais cette livraison n'a pas été "
        "commandée par ce bot : le bot n'a envoyé le code à personne."
    ),
    "delivery.operator_digest_more": (
        "…et {count} autres mises à jour, omises pour suivre le rythme des nouvelles, sur les "
        "livraisons {refs}. /deliveries montre où en est chaque livraison."
    ),
    "delivery.polled_summary": ("La livraison {ref} est maintenant : {status} (vu par sondage)."),
    # --- the customer desk (desk_texts) -------------------------------------------------------
    "desk.busy": ("Le service de livraison est saturé pour le moment. Réessayez dans une minute."),
    "desk.unreachable": (
        "Je n'ai pas pu joindre le service de livraison. Réessayez dans quelques minutes."
    ),
    "desk.not_accepted": (
        "Le service de livraison n'a pas accepté cela pour l'instant. Réessayez plus tard ; "
        "si cela se répète, contactez l'entreprise."
    ),
    "desk.private_only": (
        "Demandez-moi en conversation privée : vos livraisons ne sont pas montrées dans les "
        "groupes."
    ),
    "desk.unknown_delivery": (
        "Je ne trouve pas de livraison {typed} parmi les vôtres. {deliveries} les liste."
    ),
    "desk.none_yet": ("Vous n'avez pas encore de livraison. Envoyez {new} pour en commander une."),
    "desk.rider": "Livreur : {name}",
    "desk.rider_with_vehicle": "Livreur : {name} ({vehicle})",
    "desk.rider_assigned": "attribué",
    "desk.fee": "Frais : {amount}",
    "desk.fee_with_payment": "Frais : {amount}, {payment}",
    "desk.fee_not_set": "Frais : pas encore fixés",
    "desk.from": "De : {address}",
    "desk.to": "À : {address}",
    "desk.last_known": "Dernier statut connu : {status}.",
    "desk.list_entry": "• {ref} : {status}, commandée le {date}",
    "desk.list_title": "Vos livraisons :",
    "desk.list_title_paged": "Vos livraisons (page {page} sur {pages}) :",
    "desk.details_hint": (
        "Envoyez {status} {ref} (ou une autre référence ci-dessus) pour les détails."
    ),
    "desk.next_page": "{deliveries} {page} pour la page suivante",
    "desk.previous_page": "{deliveries} {page} pour la précédente",
    "desk.other_pages": "Envoyez {ways}.",
    "desk.or": " ou ",
    "desk.not_your_list": (
        "Cette liste appartient à quelqu'un d'autre. Envoyez {deliveries} pour la vôtre."
    ),
    "desk.stale_list_button": "Ce bouton ne fonctionne plus. Envoyez à nouveau {deliveries}.",
    "desk.cancel_usage": (
        "Pour annuler, envoyez {command}, la livraison et votre motif, par exemple\n"
        "{command} 3F2A9C1E commandée deux fois"
    ),
    "desk.bad_reason": (
        "Donnez un motif de {low} à {high} caractères (le vôtre en a {length}).\n\n{usage}"
    ),
    "desk.cancelled": "La livraison {ref} est annulée.",
    "desk.already_cancelled": "La livraison {ref} est déjà annulée.",
    "desk.delivered_not_cancellable": (
        "La livraison {ref} a été livrée : elle ne peut plus être annulée."
    ),
    "desk.not_cancellable": (
        "La livraison {ref} ne peut plus être annulée : le livreur a déjà le colis."
    ),
    # --- the receiver's drop-off code hand-off (handoff_texts) --------------------------------
    "handoff.unknown_link": (
        "Ce lien de code de remise n'est plus valable : la livraison est peut-être terminée, "
        "ou le lien a été copié en partie. Demandez-en un nouveau à l'expéditeur."
    ),
    "handoff.already_sent": (
        "Le code de remise de cette livraison a déjà été envoyé à son destinataire."
    ),
    "handoff.private_only": (
        "Ouvrez le lien dans une conversation privée avec moi : les codes ne sont jamais "
        "envoyés dans les groupes."
    ),
    "handoff.wrong_phone": (
        "Désolé, votre numéro n'est pas celui du destinataire de cette livraison : je ne peux "
        "donc pas vous envoyer le code. Si vous êtes le destinataire, demandez à l'expéditeur "
        "de vérifier son numéro."
    ),
    "handoff.ask_for_contact": (
        "On vous a envoyé ce lien pour recevoir le code de remise de la livraison {ref}.\n"
        "Le code ne peut aller qu'au destinataire : partagez votre propre numéro de téléphone "
        "avec {where}. Je ne m'en sers que pour vérifier que c'est celui du destinataire."
    ),
    "handoff.not_own_contact": (
        "C'est le contact de quelqu'un d'autre. Pour obtenir le code, partagez votre propre "
        "numéro avec {where}."
    ),
    "handoff.unreadable_phone": (
        "Je n'ai pas pu lire de numéro de téléphone dans ce contact. Essayez {where}."
    ),
    # --- money (money_texts) -------------------------------------------------------------------
    "money.fee_fixed": "Frais de livraison : {amount}.",
    "money.fee_from": (
        "Frais de livraison : à partir de {amount} ; le montant final dépend de la distance."
    ),
    "money.fee_quoted": (
        "Frais de livraison : chiffrés par l'équipe après examen de votre commande."
    ),
    "money.fee_hidden": "Frais de livraison : fixés par l'entreprise, non affichés ici.",
    "money.you_pay": "Vous les payez {how}.",
    "money.how.cash.before_dispatch": (
        "en espèces au livreur à l'enlèvement, avant qu'il parte avec le colis"
    ),
    "money.how.cash.after_delivery": "en espèces au livreur une fois le colis livré",
    "money.how.cash.off_platform": ("en espèces, directement à l'entreprise (pas par ce service)"),
    "money.how.online.before_dispatch": (
        "en ligne avant le départ du livreur (il peut attendre que ce soit payé) ; "
        "l'entreprise vous indiquera comment payer"
    ),
    "money.how.online.after_delivery": (
        "en ligne après la livraison ; l'entreprise vous indiquera comment payer"
    ),
    "money.how.online.off_platform": (
        "directement à l'entreprise, hors de ce service ; elle vous indiquera comment payer"
    ),
    "money.timing.before_dispatch": (
        "Les frais se paient avant le départ du livreur : il peut attendre qu'ils le soient."
    ),
    "money.timing.after_delivery": "Les frais sont perçus après la livraison.",
    "money.timing.off_platform": "Les frais se règlent directement avec l'entreprise.",
    "money.next.cash.before_dispatch": (
        "Préparez {it} en espèces pour le livreur à l'enlèvement : il part une fois "
        "qu'ils sont payés."
    ),
    "money.next.cash.after_delivery": (
        "{It} se paient en espèces au livreur une fois le colis livré."
    ),
    "money.next.cash.off_platform": "{It} se paient en espèces, directement à l'entreprise.",
    "money.next.online.before_dispatch": (
        "Ensuite, payez {it} en ligne avant le départ du livreur : l'entreprise vous indiquera "
        "comment payer, et le livreur peut attendre que ce soit payé."
    ),
    "money.next.online.after_delivery": (
        "Après la livraison, payez {it} en ligne : l'entreprise vous indiquera comment payer."
    ),
    "money.next.online.off_platform": (
        "L'entreprise vous dira comment lui payer {it} directement."
    ),
    "money.online_how": "Comment payer : {how}",
    "money.online_link": "Payez ici : {link}",
    "money.the_fee": "les frais de livraison",
    "money.the_fee_capital": "Les frais de livraison",
    "money.it": "ce montant",
    "money.it_capital": "Ils",
    "money.fee_then": "Frais de livraison : {amount}. {then}",
    # --- the steps' own re-asks and notes (conversations/steps) --------------------------------
    "steps.none": "aucun",
    "steps.too_short": "C'est trop court : tapez au moins {low} caractères.",
    "steps.too_long": "Restez sous {high} caractères pour : {what} (il y en avait {length}).",
    "steps.what.answer": "la réponse",
    "steps.what.name": "le nom",
    "steps.what.address": "l'adresse",
    "steps.please": "Pour répondre : {ways}.",
    "steps.way.answer": "tapez votre réponse",
    "steps.way.phone": "tapez le numéro de téléphone, ou partagez un contact",
    "steps.way.name": "tapez le nom, ou partagez un contact",
    "steps.way.email": "tapez une adresse e-mail, ou passez",
    "steps.way.amount": "tapez un montant",
    "steps.way.photos": "envoyez des photos",
    "steps.way.choice": "[[tap:*]]",
    "steps.way.confirm": "confirmez la commande, ou choisissez ce qu'il faut modifier",
    "steps.phone_example": "{national} ou {international}",
    "steps.bad_phone": (
        "Ce numéro de téléphone ne semble pas utilisable. Essayez comme ceci : {example}."
    ),
    "steps.name_needs_letter": "Un nom contient au moins une lettre. Veuillez taper le nom.",
    "steps.no_usable_name": "Ce contact n'a pas de nom utilisable. Tapez le nom.",
    "steps.contact_phone_unusable": "Je n'ai pas pu utiliser le numéro de ce contact.",
    "steps.bad_email": "Cela ne ressemble pas à une adresse e-mail (comme nom@exemple.com).",
    "steps.amount_format": "Tapez le montant en {currency}, par exemple {example}.",
    "steps.amount_too_high": "Tapez un montant d'au plus {limit}.",
    "steps.one_photo": "1 photo",
    "steps.photos": "{count} photos",
    "steps.photos_first": "Envoyez d'abord au moins {photos}.",
    "steps.photos_unreceived": "Ces photos n'ont pas pu être reçues. Renvoyez-les.",
    "steps.photos_kept_first": "J'ai gardé les {maximum} premières.",
    "steps.photos_got": "Reçu : {photos}.",
    "steps.photos_more": "Reçu : {photos}. Envoyez-en encore {more}.",
    "steps.pin_not_real": "Cette position n'est pas un vrai lieu. Partagez-la à nouveau.",
    "steps.saved_place_gone": "Ce lieu enregistré n'est plus proposé. Choisissez-en un autre.",
    "steps.place_ways": (
        "Partagez une position, choisissez un lieu enregistré, ou tapez l'adresse."
    ),
    "steps.no_address_search": (
        "Je ne peux pas chercher d'adresse tapée ici. Partagez une position."
    ),
    "steps.address_search_down": (
        "La recherche d'adresse ne fonctionne pas pour le moment. Partagez une position."
    ),
    "steps.address_as_message": "Tapez l'adresse dans un message.",
    "steps.right_place": "[[Tap:*]] : le bon lieu, ou « Aucun de ceux-ci ».",
    "steps.give_unit": "Veuillez indiquer : {unit}.",
    "steps.unit_not_listed": (
        "« {typed} » n'est pas dans la liste. Valeurs possibles ({unit}) : {units}."
    ),
    # --- the flows' own questions, titles, options and help (flows, steps, rules) ---------
    "rules.kind.pickup_delivery": "Enlèvement et livraison",
    "rules.kind.errand": "Course : nous l'achetons pour vous",
    "rules.errand_mode.at_place": "L'acheter dans une boutique",
    "rules.errand_mode.link": "L'acheter depuis un lien",
    "rules.errand_mode.photo": "Acheter ce qui est sur ma photo",
    "rules.payment.cash_on_delivery": "Espèces à la livraison",
    "rules.payment.online_checkout": "Payer en ligne",
    "rules.payment.cash_at_pickup": "Espèces au livreur à l'enlèvement",
    "rules.payment.cash_to_business": "Espèces, directement à l'entreprise",
    "rules.settings_broken": (
        "Désolé, cette entreprise ne peut pas prendre de commandes ici pour le moment : ses "
        "réglages de livraison sont à corriger (aucun moyen de paiement n'est activé). Veuillez "
        "contacter l'entreprise directement."
    ),
    "rules.nothing_offered": (
        "Désolé, cette entreprise ne propose aucun service de livraison ici pour le moment. "
        "Veuillez contacter l'entreprise directement."
    ),
    "rules.not_offered.pickup_delivery": (
        "Désolé, cette entreprise ne propose pas l'enlèvement et la livraison pour le moment."
    ),
    "rules.not_offered.errand": (
        "Désolé, cette entreprise ne propose pas de courses pour le moment."
    ),
    "rules.hint.approval": (
        "L'équipe devra peut-être fixer le prix et valider la commande avant son départ."
    ),
    "rules.hint.auto_dispatch": "Un livreur proche peut être assigné tout de suite.",
    "rules.hint.otp_you": "Le service vous envoie par SMS un code de remise à donner au livreur.",
    "rules.hint.otp_receiver": (
        "Le service envoie par SMS au destinataire un code de remise à donner au livreur."
    ),
    "rules.hint.otp_you_link": (
        "Votre code de remise arrive ici (on peut vous demander de partager votre contact "
        "d'abord) ; donnez-le au livreur."
    ),
    "rules.hint.otp_receiver_link": (
        "Le code de remise du destinataire arrive ici, sous forme de lien à lui transférer ; "
        "il donne le code au livreur."
    ),
    "rules.hint.no_otp": (
        "Pas de code de remise : le livreur prend une photo comme preuve de livraison."
    ),
    "rules.hint.radius": "L'entreprise livre dans un rayon d'environ {km} km.",
    "steps.yes": "Oui",
    "steps.no": "Non",
    "steps.help.phone": (
        "Tapez le numéro à la manière locale ou avec l'indicatif du pays, ou partagez un contact."
    ),
    "steps.help.person": (
        "Tapez le nom complet, ou partagez un contact pour donner le nom et le téléphone d'un coup."
    ),
    "steps.help.photos": (
        "Envoyez les photos en une fois (jusqu'à {maximum}) ; un album de plusieurs photos "
        "convient."
    ),
    "steps.help.email": "Tapez une adresse e-mail pour les nouvelles, ou passez.",
    "steps.help.amount": (
        "Tapez le montant dans la devise de l'entreprise, en chiffres (5000 ou 5 000)."
    ),
    "steps.title.summary": "Récapitulatif",
    "steps.summary.confirm": "Confirmer et envoyer",
    "steps.summary.retry": "Réessayer l'envoi",
    "steps.summary.group.places": "lieux",
    "steps.summary.group.people": "personnes",
    "steps.summary.group.package": "détails du colis",
    "steps.summary.group.payment": "détails du paiement",
    "steps.summary.group.other": "autres détails",
    "steps.summary.group_question": "Que voulez-vous modifier ?",
    "steps.summary.back_to_summary": "Retour au récapitulatif",
    "steps.title.size": "Taille",
    "steps.size.small": "Petit",
    "steps.size.small.detail": "tient dans un sac",
    "steps.size.medium": "Moyen",
    "steps.size.medium.detail": "un carton qu'on porte seul",
    "steps.size.large": "Grand",
    "steps.size.large.detail": "il faut les deux bras ou un chariot",
    "steps.title.photos": "Photos",
    "steps.package_photos": "Veuillez envoyer de 1 à {high} photos {called}.",
    "steps.title.payment": "Paiement",
    "steps.payment.question": "Comment la livraison sera-t-elle payée ?",
    "steps.payment.single": "Paiement : {label}.",
    "steps.title.cash_to_collect": "Espèces à encaisser",
    "steps.payment.no_cash": "Rien à encaisser",
    "steps.payment.cash_question": (
        "Le livreur doit-il encaisser de l'argent auprès du destinataire pour la marchandise ? "
        "Tapez le montant en {currency}, ou {no}."
    ),
    "steps.place.unknown": "Je ne sais pas où c'est",
    "steps.place.way.pick": "en choisir un ci-dessous",
    "steps.place.way.pin": "partager une position",
    "steps.place.way.type": "taper l'adresse",
    "steps.place.way.joiner": ", ",
    "steps.place.way.last": "{first} ou {last}",
    "steps.place.question": "{question} Vous pouvez {ways}.",
    "steps.place.not_known": "inconnu : le livreur le trouvera",
    "steps.place.pin_address": (
        "Quelle est l'adresse à cette position ? Rue, bâtiment ou repère : cela aide le livreur."
    ),
    "steps.place.address_title": "{title} : adresse",
    "steps.place.retype": "Aucun de ceux-ci : la retaper",
    "steps.place.taken": "Trouvé : {address}.",
    "steps.place.pin_named": "Le livreur reçoit cette adresse avec votre position : {address}.",
    "steps.place.found_one": "J'ai trouvé ce lieu. Est-ce le bon ?",
    "steps.place.found_several": "Lequel est-ce ?",
    "steps.place.found_title": "{title} : lieu trouvé",
    "steps.unit.or_skip": " (ou passez)",
    "steps.unit.type_it": "{unit} ? Tapez-le{optional}.",
    "steps.unit.as_typed": "Utiliser « {own} » tel que tapé",
    "steps.unit.whole_list": "Afficher toute la liste",
    "steps.unit.matches": (
        "Ceux-ci correspondent à « {typed} ». Choisissez : {unit}, ou tapez à nouveau{optional}."
    ),
    "steps.unit.title": "{title} : unité",
    "steps.unit.titled": "{title} : {unit}",
    "steps.unit.pick_custom": "{unit} : lequel ? Choisissez-en un ou tapez le vôtre{optional}.",
    "steps.unit.pick_listed": "{unit} : lequel ? Choisissez-en un ou tapez-le{optional}.",
    "steps.unit.examples_joiner": " ou ",
    "steps.unit.search_custom": (
        "{unit} : lequel ? Tapez-le (comme {like}, ou le vôtre), ou une partie pour chercher ; "
        "ou choisissez-le dans la liste de {count}{optional}."
    ),
    "steps.unit.search_listed": (
        "{unit} : lequel ? Tapez-le (comme {like}), ou une partie pour chercher ; ou "
        "choisissez-le dans la liste de {count}{optional}."
    ),
    "steps.unit.range": "{first} à {last}",
    "steps.title.own_name": "Votre nom",
    "steps.sender.name_question": (
        "Quel est votre nom ? Ajoutez votre téléphone sur la même ligne si vous voulez, ou "
        "partagez votre contact."
    ),
    "steps.title.own_phone": "Votre téléphone",
    "steps.sender.phone_question": "Quel est votre numéro de téléphone ?",
    "steps.title.own_email": "Votre e-mail",
    "steps.sender.email_question": "Une adresse e-mail pour les nouvelles ? (facultatif)",
    "steps.title.receiver": "Destinataire",
    "steps.receiver.name_question": (
        "Qui reçoit le colis ? Tapez son nom (et son téléphone sur la même ligne, si vous "
        "voulez), ou partagez son contact."
    ),
    "steps.title.receiver_phone": "Téléphone du destinataire",
    "steps.receiver.phone_question": "Le numéro de téléphone du destinataire ?",
    "steps.title.pickup_contact": "Contact à l'enlèvement",
    "steps.pickup_contact.question": "Qui remettra le colis au livreur ?",
    "steps.pickup_contact.me": "Moi",
    "steps.pickup_contact.someone_else": "Quelqu'un d'autre",
    "steps.title.pickup_contact_name": "Nom du contact à l'enlèvement",
    "steps.pickup_contact.name_question": (
        "Qui le remettra ? Tapez son nom (et son téléphone sur la même ligne, si vous voulez), "
        "ou partagez son contact."
    ),
    "steps.title.pickup_contact_phone": "Téléphone du contact à l'enlèvement",
    "steps.pickup_contact.phone_question": "Son numéro de téléphone ?",
    "flows.entry.title": "Nouvelle commande",
    "flows.entry.title.service": "Service",
    "flows.entry.question": "Que souhaitez-vous commander ?",
    "flows.entry.single": "Un seul service est disponible : {label}.",
    "flows.title.pickup_place": "Lieu d'enlèvement",
    "flows.title.dropoff_place": "Lieu de livraison",
    "flows.size_question": "Quelle taille fait-il ?",
    "flows.called.package": "du colis",
    "flows.called.parcel": "du colis",
    "flows.pickup_delivery.title": "Enlèvement et livraison",
    "flows.pickup_delivery.mode.pickup": "Un livreur l'enlève à une adresse",
    "flows.pickup_delivery.mode.warehouse": "Je le dépose dans un entrepôt",
    "flows.pickup_delivery.title.mode": "Mode d'enlèvement",
    "flows.pickup_delivery.mode_question": "Comment le livreur récupère-t-il le colis ?",
    "flows.pickup_delivery.mode_single": (
        "Le livreur enlèvera le colis à l'adresse que vous donnerez."
    ),
    "flows.pickup_delivery.title.warehouse": "Entrepôt",
    "flows.pickup_delivery.warehouse_question": "Dans quel entrepôt déposerez-vous le colis ?",
    "flows.pickup_delivery.warehouse_single": "Vous déposerez le colis à {named}.",
    "flows.pickup_delivery.pickup_question": "Où le livreur doit-il enlever le colis ?",
    "flows.pickup_delivery.dropoff_question": "Où le livreur doit-il le livrer ?",
    "flows.pickup_delivery.title.package": "Colis",
    "flows.pickup_delivery.description_question": (
        "Que contient le colis ? Quelques mots suffisent."
    ),
    "flows.pickup_delivery.title.fragile": "Fragile",
    "flows.pickup_delivery.fragile_question": "Est-il fragile ?",
    "flows.pickup_delivery.summary": "Veuillez vérifier votre enlèvement et livraison :",
    "flows.return_parcel.no_warehouse": (
        "Désolé, les retours ne peuvent pas être commandés ici : l'entreprise n'a pas "
        "d'entrepôt où retourner les colis."
    ),
    "flows.return_parcel.title": "Retourner un colis",
    "flows.return_parcel.label": "Nous retourner un colis",
    "flows.return_parcel.title.returned_to": "Retourné à",
    "flows.return_parcel.returned_to_question": "Où le colis doit-il retourner ?",
    "flows.return_parcel.returned_to_single": "Le colis retourne à {label}.",
    "flows.return_parcel.pickup_question": "Où le livreur doit-il récupérer le colis ?",
    "flows.return_parcel.title.parcel": "Colis",
    "flows.return_parcel.description_question": (
        "Que retournez-vous ? Quelques mots, et un numéro de commande si vous en avez un."
    ),
    "flows.return_parcel.summary": "Veuillez vérifier votre retour :",
    "flows.pharmacy_errand.title": "Course en pharmacie",
    "flows.pharmacy_errand.label": "Des médicaments en pharmacie",
    "flows.pharmacy_errand.no_at_place": (
        "Les courses achetées en boutique ne sont pas disponibles pour le moment."
    ),
    "flows.pharmacy_errand.title.medicine": "Médicament",
    "flows.pharmacy_errand.medicine_question": (
        "Quel médicament le livreur doit-il acheter ? Son nom, son dosage et la quantité."
    ),
    "flows.pharmacy_errand.title.prescription": "Ordonnance",
    "flows.pharmacy_errand.prescription_question": (
        "S'il faut une ordonnance, envoyez-en une photo (jusqu'à {high}), ou passez."
    ),
    "flows.pharmacy_errand.title.pharmacy": "Pharmacie",
    "flows.pharmacy_errand.pharmacy_question": "À quelle pharmacie le livreur doit-il aller ?",
    "flows.pharmacy_errand.dropoff_question": "Où le livreur doit-il apporter le médicament ?",
    "flows.pharmacy_errand.summary": "Veuillez vérifier votre course en pharmacie :",
    "flows.errand.title": "Course",
    "flows.errand.title.mode": "Type de course",
    "flows.errand.mode_question": "Quel type de course ?",
    "flows.errand.mode_single": "Type de course : {label}.",
    "flows.errand.title.items": "À acheter",
    "flows.errand.items_question.photo": (
        "Que doit acheter le livreur ? Quelques mots ; vous enverrez la photo ensuite."
    ),
    "flows.errand.items_question": (
        "Que doit acheter le livreur ? Listez les articles (quantité, taille, couleur...)."
    ),
    "flows.errand.photos_question.photo": (
        "Envoyez une photo de ce qu'il vous faut (de 1 à {high} photos)."
    ),
    "flows.errand.photos_question": (
        "Des photos pour aider le livreur à prendre le bon article ? Jusqu'à {high}, ou passez."
    ),
    "flows.errand.not_a_link": (
        "Cela ne ressemble pas à un lien web. Veuillez coller le lien complet."
    ),
    "flows.errand.link_question.curated": (
        "Choisissez une boutique ci-dessous, ou collez un lien vers ce que vous voulez acheter."
    ),
    "flows.errand.link_question": "Collez le lien vers ce que vous voulez acheter.",
    "flows.errand.shop_gone": (
        "Cette boutique n'est plus proposée. Veuillez en choisir une autre ou coller un lien."
    ),
    "flows.errand.link_ways": "Veuillez choisir une boutique, ou coller un lien.",
    "flows.errand.title.link": "Lien de la boutique",
    "flows.errand.online_order": "Commande en ligne : {shop}, boutique à trouver par le livreur",
    "flows.errand.online_order.curated": "Commande en ligne : {shop}",
    "flows.errand.unknown_shop": (
        "Emplacement de la boutique inconnu — à trouver par le livreur : {note}"
    ),
    "flows.errand.title.shop": "Boutique",
    "flows.errand.shop_question": "Où se trouve la boutique ?",
    "flows.errand.title.shop_note": "Détails de la boutique",
    "flows.errand.shop_note_question": (
        "Que savez-vous de la boutique ? Son nom, la rue ou le quartier."
    ),
    "flows.errand.title.shop_phone": "Téléphone de la boutique",
    "flows.errand.shop_phone_question": (
        "Le numéro de téléphone de la boutique, si vous l'avez ? (facultatif)"
    ),
    "flows.errand.title.budget": "Budget",
    "flows.errand.budget_question": "Votre budget pour les articles, en {currency} ? (facultatif)",
    "flows.errand.title.substitutes": "Remplacements",
    "flows.errand.substitutes_question": (
        "Si un article n'est pas disponible, le livreur peut-il acheter un article proche ?"
    ),
    "flows.errand.substitutes.yes": "Oui, un article proche convient",
    "flows.errand.substitutes.no": "Non, seulement ce que j'ai demandé",
    "flows.errand.size_question": "Quelle taille fera l'ensemble, à peu près ?",
    "flows.errand.dropoff_question": "Où le livreur doit-il l'apporter ?",
    "flows.errand.phone_question": (
        "Quel est votre numéro de téléphone ? Le livreur vous appellera à son arrivée."
    ),
    "flows.errand.summary": "Veuillez vérifier votre course :",
    "steps.summary.line": "• {title} : {value}",
    "dialogue.change_step": "Modifier : {what}",
    # --- operator chats (bot/telegram/operators) ----------------------------------------------
    "ops.refused": "Désolé, cette commande est réservée aux opérateurs de l'équipe.",
    "ops.report.usage": "Utilisation : /report [7d|24h] [parcours]",
    "ops.report.none": "Aucune conversation sur les derniers {period}.",
    "ops.report.title": "Où les clients abandonnent, derniers {period} :",
    "ops.report.flow": "{flow} : {started} commencées, {created} créées",
    "ops.report.step": (
        "  {step} : {abandoned} sur {reached} ont abandonné ({share}), médiane {median}"
    ),
    "ops.report.reason": ", redemandé surtout pour {reason}",
    "ops.report.handoffs": "  personne demandée à : {steps}",
    "ops.the_delivery": "La livraison",
    "ops.the_delivery_ref": "La livraison {ref}",
    "ops.fee_required": (
        "{delivery} n'a pas encore de frais de livraison (elle attend un prix). Fixez d'abord "
        "les frais."
    ),
    "ops.rider_not_found": (
        "Il n'y a pas de livreur {rider} dans cette flotte. /riders <réf. de livraison> liste "
        "les livreurs."
    ),
    "ops.that_rider_not_found": (
        "Ce livreur n'est pas dans cette flotte. /riders <réf. de livraison> liste les livreurs."
    ),
    "ops.rider_not_active": (
        "Le livreur {rider} n'a pas encore accepté l'invitation de la flotte : il ne peut pas "
        "être attribué."
    ),
    "ops.that_rider_not_active": (
        "Ce livreur n'a pas encore accepté l'invitation de la flotte : il ne peut pas être "
        "attribué."
    ),
    "ops.assign_not_allowed": (
        "{delivery} : l'enlèvement a commencé, son livreur ne peut plus changer."
    ),
    "ops.unassign_not_allowed": (
        "{delivery} n'a pas de livreur à retirer : on ne peut retirer un livreur que tant que "
        "la livraison est attribuée (pas encore récupérée)."
    ),
    "ops.cancel_not_allowed": "{delivery} ne peut plus être annulée.",
    "ops.not_a_reference": (
        "« {typed} » n'est pas une référence de livraison : tapez la référence que "
        "montrent les discussions (comme 3F2A9C1E, au moins {shortest} caractères) ou l'id "
        "complet."
    ),
    "ops.no_delivery_among_newest": (
        "Aucune livraison {ref} parmi les {count} plus récentes : vérifiez la référence, "
        "ou tapez l'id complet."
    ),
    "ops.ambiguous_reference": (
        "{ref} est le début de plusieurs livraisons ({ids}) : tapez une plus grande partie de l'id."
    ),
    "ops.no_such_delivery_named": "Il n'y a pas de livraison {typed}.",
    "ops.no_such_delivery": "Livraison inconnue.",
    "ops.slow_down_in": (
        "L'API partenaire demande au bot de ralentir ; réessayez dans {seconds} secondes."
    ),
    "ops.slow_down": "L'API partenaire demande au bot de ralentir ; réessayez dans une minute.",
    "ops.not_accepted": "Refusé : {problems}",
    "ops.key_refused": "L'API partenaire a refusé la clé du bot ({code}) : vérifiez-la.",
    "ops.api_failed": "L'API partenaire a échoué ({code}) ; réessayez bientôt.",
    "ops.api_refused": "L'API partenaire a refusé : {message}",
    "ops.assign_usage": (
        "Usage : /assign <réf. de livraison> <id de livreur>  (/riders <réf. de livraison> liste "
        "les livreurs)"
    ),
    "ops.unassign_usage": "Usage : /unassign <réf. de livraison>",
    "ops.assigned": "{rider} est attribué à la livraison {ref} ; elle est maintenant : {status}.",
    "ops.unassigned": (
        "Le livreur a été retiré de la livraison {ref} ; elle est de nouveau : {status}."
    ),
    "ops.riders_usage": "Usage : /riders <réf. de livraison> [idle] [radius <km>]",
    "ops.no_pickup_coords": (
        "Cette livraison n'a pas de coordonnées d'enlèvement : pas de rayon possible."
    ),
    "ops.riders_title": "Livreurs pour la livraison {ref}",
    "ops.riders_title_pickup": "Livreurs pour la livraison {ref} (enlèvement : {pickup})",
    "ops.idle_only": "libres seulement",
    "ops.within": "à moins de {km} km",
    "ops.none_match": "{title} : aucun.",
    "ops.listed": "{title} :",
    "ops.unnamed_rider": "Livreur sans nom",
    "ops.assign_with": "Attribuez avec /assign {ref} <id de livreur>",
    "ops.km_away": "à {km} km",
    "ops.distance_unknown": "distance inconnue",
    "ops.no_location": "pas de position",
    "ops.fresh_location": "position récente",
    "ops.stale_location": "position ancienne",
    "ops.active_delivery": "1 livraison en cours",
    "ops.active_deliveries": "{count} livraisons en cours",
    "ops.list_usage": "Usage : /deliveries [statut], parmi : {statuses}",
    "ops.dead_list_button": "Ce bouton ne fonctionne plus. Envoyez à nouveau /deliveries.",
    "ops.all_deliveries": "Toutes les livraisons",
    "ops.deliveries_of": "Livraisons « {status} »",
    "ops.list_none": "{which} : aucune.",
    "ops.list_no_more": "{which} : plus aucune.",
    "ops.list_title": "{which}, les plus récentes d'abord (page {page}) :",
    "ops.first_page": "« Début",
    "ops.more_exist": "D'autres livraisons existent ; filtrez par statut pour les voir.",
    "ops.rider": "livreur {name}",
    "ops.no_rider": "pas de livreur",
    "ops.to": "vers {address}",
    # --- the "Pick on the map" Mini App (bot.webapp) ------------------------------------------
    # Les mots qu'un client tape au lieu d'une commande : le premier est celui qu'on montre ;
    # chaque mot de chaque langue est compris.
    "keyword.back": "retour",
    "keyword.cancel": "annuler",
    "keyword.help": "aide",
    "keyword.done": "fini|terminé",
    "keyword.skip": "passer",
    "keyword.new": "nouveau|nouvelle",
    "keyword.repeat": "répéter|refaire",
    "keyword.status": "statut|état",
    "keyword.deliveries": "livraisons",
    "keyword.cancel_delivery": "annuler_livraison",
    "keyword.human": "humain|conseiller",
    "keyword.edit": "modifier",
    "keyword.location": "position",
    "keyword.where_is_my_parcel": (
        "où est mon colis|où en est mon colis|où est ma commande|où en est ma commande|"
        "où est ma livraison|où en est ma livraison"
    ),
    "keyword.my_data": "mes données|mes_données|mesdonnées",
    "keyword.forget_me": "oubliez-moi|oubliez moi|oublie-moi|oublie moi",
    # --- keeping the bot safe (bot.safety): blocked customers, operators' /block -------------
    "safety.blocked": (
        "Désolé, nous ne pouvons pas prendre de commandes de ce compte. Si c'est une erreur, "
        "contactez-nous directement."
    ),
    "safety.block_usage": (
        "Écrivez /block et le client : une référence de livraison, un identifiant Telegram, un "
        "numéro WhatsApp avec son indicatif (+234...), ou le client d'un canal d'agent sous la "
        "forme canal:client ; un motif peut suivre."
    ),
    "safety.unblock_usage": (
        "Écrivez /unblock et le client : une référence de livraison, un identifiant Telegram, "
        "un numéro WhatsApp avec son indicatif (+234...), ou le client d'un canal d'agent sous "
        "la forme canal:client."
    ),
    "safety.block_done": "{customer} est bloqué : aucune nouvelle commande n'est acceptée.",
    "safety.block_again": "{customer} était déjà bloqué.",
    "safety.drafts_dropped": "Commandes en cours abandonnées : {count}.",
    "safety.unblock_done": "{customer} peut de nouveau commander.",
    "safety.unblock_none": "{customer} n'était pas bloqué.",
    "safety.not_a_customer": (
        "{typed} ne désigne aucun client : donnez une référence de livraison, un identifiant "
        "Telegram, un numéro WhatsApp avec son indicatif (+234...), ou le client d'un canal "
        "d'agent sous la forme canal:client."
    ),
    "safety.not_a_whatsapp_number": (
        "{typed} n'est pas un numéro WhatsApp : écrivez-le avec son indicatif, comme "
        "+234 801 234 5678 ou whatsapp:2348012345678."
    ),
    "safety.no_agent_customer": "Aucun client de canal d'agent n'est connu sous {typed}.",
    "staff.role.viewer": "lecteur",
    "staff.role.dispatcher": "répartiteur",
    "staff.role.admin": "administrateur",
    "staff.invited": (
        "Lien de connexion pour {name} ({role}) ; il ne sert qu'une fois, dans les {minutes} "
        "minutes :\n{link}"
    ),
    "staff.none": (
        "Aucun membre de l'équipe pour l'instant : deliverybot staff invite NOM --role RÔLE "
        "en ajoute un."
    ),
    "staff.seen": "vu pour la dernière fois le {when}",
    "staff.never_seen": "jamais connecté",
    "staff.signed_out": (
        "{name} est déconnecté partout ; ses liens de connexion pas encore utilisés ne servent "
        "plus."
    ),
    "staff.no_member": (
        "Aucun membre de l'équipe ne s'appelle {name} : deliverybot staff list les montre."
    ),
    "staff.several_named": (
        "{count} membres de l'équipe s'appellent {name} : désignez-en un par son numéro dans "
        "deliverybot staff list ({numbers})."
    ),
    "staff.bad_name": (
        "Le nom d'un membre de l'équipe fait de 1 à 64 caractères, sur une seule ligne."
    ),
    "staff.console_off": (
        "La console web est désactivée : mettez d'abord [console] enabled = true dans la "
        "configuration."
    ),
    "safety.no_such_delivery": "Aucune livraison commandée via le bot n'a la référence {ref}.",
    "safety.agent_customer_known_as": (
        "Les clients d'un canal d'agent s'écrivent canal:client : vouliez-vous dire {names} ?"
    ),
    "safety.agent_customer_form": (
        "Les clients d'un canal d'agent s'écrivent canal:client, par exemple {example}."
    ),
    "safety.digits_ambiguous": (
        "{typed} est à la fois un identifiant Telegram et le début d'une référence de "
        "livraison : écrivez telegram:{typed} pour l'utilisateur, ou l'identifiant complet."
    ),
    "safety.limit.open_deliveries": (
        "Vous avez déjà {limit} livraisons en cours, le maximum que nous prenons à la fois. Vous "
        "pourrez commander dès que l'une d'elles sera livrée ou annulée."
    ),
    "safety.limit.unpaid_deliveries": (
        "Vous avez {limit} livraisons dont les frais ne sont pas encore payés, le maximum que "
        "nous prenons. Vous pourrez commander de nouveau dès que l'une d'elles sera payée."
    ),
    "safety.limit.creates_per_hour": (
        "Vous avez passé {limit} commandes dans la dernière heure, le maximum que nous prenons "
        "en une heure. Vous pourrez commander de nouveau dans {wait}."
    ),
    "safety.limit.creates_per_day": (
        "Vous avez passé {limit} commandes ces dernières 24 heures, le maximum que nous prenons "
        "en un jour. Vous pourrez commander de nouveau dans {wait}."
    ),
    "safety.limit.drafts_per_hour": (
        "Vous avez commencé {limit} commandes dans la dernière heure, le maximum que nous "
        "prenons en une heure. Vous pourrez en commencer une autre dans {wait}."
    ),
    "safety.wait.minutes": "environ {count} minutes",
    "safety.wait.hours": "environ {count} heures",
    "safety.limit_alert": (
        "Le client {customer} a atteint une limite ({kind} : {limit}) ; ses commandes sont "
        "refusées jusqu'à ce qu'elle se libère. Pour l'arrêter : /block {customer}"
    ),
    # --- parler à une personne : le relais d'un client vers l'équipe (bot.handoff) -----------
    "human.button": "Parler à une personne",
    "human.offer": "Bloqué ? Vous pouvez parler à une personne : /humain",
    "human.help_line": "/humain : parler à une personne de notre équipe",
    "human.opened": (
        "Une personne de notre équipe vous répondra ici, en général sous {minutes} minutes "
        "({hours}). Votre commande est gardée telle quelle. Écrivez votre message ci-dessous."
    ),
    "human.opened_no_hours": (
        "Une personne de notre équipe vous répondra ici, en général sous {minutes} minutes. "
        "Votre commande est gardée telle quelle. Écrivez votre message ci-dessous."
    ),
    "human.waiting": "Vous attendez déjà une personne de notre équipe : elle vous répondra ici.",
    "human.closed": "Notre équipe a terminé cette conversation. Reprenons votre commande.",
    "human.closed_no_order": "Notre équipe a terminé cette conversation. Merci !",
    "human.idle_closed": (
        "Cette conversation avec notre équipe a été close après un long silence. Envoyez "
        "/humain pour nous joindre à nouveau."
    ),
    "human.filled": "Notre équipe a rempli « {question} » pour vous.",
    "human.slow_down": (
        "Merci de patienter un instant avant d'envoyer d'autres messages ; notre équipe va "
        "répondre."
    ),
    "human.unavailable": "Désolé, personne de notre équipe n'est joignable ici pour le moment.",
    "human.order_waits": (
        "Une personne de notre équipe échange avec vous ici : votre commande attend telle "
        "quelle ; {command} lui a été transmis. Quand elle aura terminé cette conversation, "
        "vous pourrez de nouveau utiliser {command}."
    ),
    "staff.card_title": "#{ref} Un client demande une personne",
    "staff.card_who": "Qui : {name} (langue : {language})",
    "staff.card_where": "Commande : {flow}, à : {question}",
    "staff.card_no_order": "Aucune commande ouverte.",
    "staff.card_answers": "Réponses jusqu'ici :",
    "staff.card_recent": "Derniers messages :",
    "staff.card_deliveries": "Livraisons :",
    "staff.card_delivery": "{ref} : {status}",
    "staff.card_open": "En attente d'une réponse.",
    "staff.card_taken": "{owner} répond.",
    "staff.card_closed": "Terminé.",
    "staff.card_blocked": "Terminé : le client a été bloqué.",
    "staff.card_how": "Répondez à ce message pour écrire au client ; Terminé le clôt.",
    "staff.card_how_topic": "Écrivez dans ce sujet pour répondre au client ; Terminé le clôt.",
    "staff.from_customer": "#{ref} client : {text}",
    "staff.from_customer_media": "#{ref} le client a envoyé ceci :",
    "staff.said_customer": "client",
    "staff.said_staff": "équipe",
    "staff.take": "Je réponds",
    "staff.done": "Terminé",
    "staff.taken_by": "{owner} a pris #{ref}.",
    "staff.already_taken": "{owner} répond déjà à #{ref}.",
    "staff.closed": "#{ref} est terminé ; le client est prévenu.",
    "staff.already_closed": "#{ref} est déjà terminé.",
    "staff.idle_closed": "#{ref} a été clos après {hours} heures sans message.",
    "staff.blocked_ended": (
        "#{ref} est terminé : le client a été bloqué. Il en a été informé, et plus rien ne "
        "passe entre lui et l'équipe."
    ),
    "staff.no_such": "Il n'y a pas de relais ouvert #{ref}.",
    "staff.done_usage": "Usage : /done <référence>, ou répondez Terminé au relais.",
    "staff.filled": "#{ref} : « {question} » rempli ; le client est prévenu.",
    "staff.fill_refused": "#{ref} : refusé pour « {question} » : {reason}",
    "staff.not_delivered": "#{ref} : le client n'a pas pu être joint.",
    "staff.code_refused": (
        "#{ref} : non envoyé. Le message contient le code de remise d'une livraison de ce "
        "client ; un code ne va qu'au destinataire de la livraison, par le bot."
    ),
    "staff.reply_blocked": (
        "#{ref} : non envoyé. Ce client est bloqué, sa conversation avec l'équipe a donc "
        "été terminée."
    ),
    "steps.sender.share_phone_question": (
        "Quel est votre numéro de téléphone ? Partagez votre propre contact avec le bouton "
        "ci-dessous : cette entreprise prend votre numéro depuis Telegram."
    ),
    "steps.sender.phone_not_typed": (
        "Un numéro tapé ne peut pas être accepté ici : cette entreprise prend votre numéro "
        "depuis Telegram. Touchez le bouton ci-dessous pour partager votre propre contact."
    ),
    "steps.sender.contact_not_own": (
        "Ce contact est celui de quelqu'un d'autre. Partagez votre propre contact avec le "
        "bouton ci-dessous."
    ),
    # --- the quote: a fee set after the order, put to the customer (quote_texts) ----------
    "quote.question": "Frais de livraison : {amount}. Garder la commande, ou l'annuler ?",
    "quote.keep": "Garder la commande",
    "quote.cancel": "L'annuler",
    "quote.typed": "Tapez « {keep} » pour garder la commande, ou « {cancel} » pour l'annuler.",
    "quote.kept": "Merci : la livraison {ref} suit son cours.",
    "quote.cancelled": "La livraison {ref} est annulée, comme vous l'avez demandé.",
    "quote.already_answered": "Vous avez déjà répondu au sujet des frais de la livraison {ref}.",
    "quote.not_asked": "La livraison {ref} n'a pas de question sur ses frais à laquelle répondre.",
    "quote.moved_on": (
        "La livraison {ref} est déjà {status} : la question sur ses frais est close. "
        "Rien n'a été changé."
    ),
    "quote.try_again": "{trouble} Votre réponse pour la livraison {ref} n'est pas encore prise.",
    "quote.cancel_reason": "Le client a refusé les frais de livraison.",
    "quote.ops_kept": "Livraison {ref} : le client accepte les frais et garde la commande.",
    "quote.ops_cancelled": (
        "Livraison {ref} : le client refuse les frais ; la commande est annulée."
    ),
    "quote.ops_not_cancelled": (
        "Livraison {ref} : le client refuse les frais, mais la commande ne pouvait plus être "
        "annulée (elle est {status})."
    ),
}
