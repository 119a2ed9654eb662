"""The operators' web console's words, in every shipped language.

What the console says (``console_web.*``): its pages' layout, sign-in and refusals
(``console_app``; ``console_web.business_name`` is the title a business overrides with its own
name), the deliveries list's filters, columns and refusals, the channels' names, the kinds of
attention, the empty cells; and what a delivery's page says of its history
(``console_web.timeline.*``). They are registered on the business's
catalogue beside the channels' words (``bot.channel_texts``), so a business's ``[texts]``
overrides reach them like any other message.
"""

from __future__ import annotations

from typing import Final

from bot.staff_console import (
    audit_texts,
    customer_data_texts,
    customers_texts,
    delivery_actions_texts,
    funnel_texts,
    handoffs_texts,
    health_texts,
    language_texts,
    live_texts,
    riders_texts,
)
from conversations.texts.catalogue import ChannelTexts

EN: Final[dict[str, str]] = {
    # --- the deliveries list's filters, refused -----------------------------------------------
    "console_web.refused_status": (
        "“{status}” is not a delivery status. Choose among: {statuses}."
    ),
    "console_web.refused_channel": (
        "“{channel}” is not a channel of this bot. Choose among: {channels}."
    ),
    "console_web.refused_day": "“{day}” is not a day: write it as {example}.",
    "console_web.refused_attention": (
        "“{attention}” is not something a delivery can need. Choose among: {kinds}."
    ),
    "console_web.refused_search_long": (
        "The search is too long: a reference or a phone number has at most {limit} characters."
    ),
    "console_web.refused_search": (
        "“{search}” is neither a delivery reference nor a phone number."
    ),
    "console_web.refused_page": (
        "This page link is broken or out of date: start again from the first page."
    ),
    # --- a delivery's page: its header and its history (``delivery_timeline``) ---------------
    "console_web.timeline.no_address": "no address given",
    "console_web.timeline.at": "{day}, {time}",
    "console_web.timeline.event": "Event “{type}”: {status}",
    "console_web.timeline.event_moved": "Event “{type}”: {previous} → {status}",
    "console_web.timeline.to_customer": "the customer ({chat})",
    "console_web.timeline.to_operators": "the operators ({chat})",
    "console_web.timeline.sent": "Message to {to}",
    "console_web.timeline.quote_asked": "Fee question to {to}",
    "console_web.timeline.code_withheld": "Drop-off code sent to {to} (never shown here)",
    "console_web.timeline.not_sent": "Message to {to} not sent: {failure}",
    "console_web.timeline.handoff_in": "Customer to staff (hand-off {ref})",
    "console_web.timeline.handoff_out": "Staff to customer (hand-off {ref})",
    "console_web.timeline.handoff_pin": "a map pin ({lat}, {lng})",
    "console_web.timeline.handoff_other": "a photo or a file",
    "console_web.timeline.audit": "{actor}: {action}, {outcome}",
    # --- the console's pages: layout, sign-in, refusals, the list (bot.staff_console) ---------
    "console_web.business_name": "Delivery console",
    "console_web.page.deliveries": "Deliveries",
    "console_web.page.signin": "Sign in",
    "console_web.page.signed_out": "Signed out",
    "console_web.page.refused": "Not allowed",
    "console_web.page.delivery": "Delivery {ref}",
    "console_web.delivery.back": "All deliveries",
    "console_web.delivery.pickup": "Pickup",
    "console_web.delivery.dropoff": "Drop-off",
    "console_web.delivery.history": "History",
    "console_web.delivery.no_history": "Nothing has happened to this delivery yet.",
    "console_web.delivery.summary": "The service's summary",
    "console_web.delivery.hint": "Hint for the customer",
    "console_web.delivery.notes": "Notes for agents",
    "console_web.delivery.not_found": "No delivery of this bot has the reference {ref}.",
    "console_web.nav": "Console pages",
    "console_web.signed_in_as": "Signed in as {name} ({role})",
    "console_web.role.viewer": "viewer",
    "console_web.role.dispatcher": "dispatcher",
    "console_web.role.admin": "admin",
    "console_web.sign_out": "Sign out",
    "console_web.sign_out_everywhere": "Sign out everywhere",
    "console_web.signin_intro": (
        "This link signs you in to the console once. Press the button to open your session."
    ),
    "console_web.signin_button": "Sign in",
    "console_web.link_used": (
        "This sign-in link has been used already: a link works once. Send /console in your "
        "operators' chat for a new one, or ask an admin for an invitation."
    ),
    "console_web.link_expired": (
        "This sign-in link has expired. Send /console in your operators' chat for a new one, "
        "or ask an admin for an invitation."
    ),
    "console_web.link_unknown": (
        "This sign-in link is not known. Check that you copied all of it, or send /console in "
        "your operators' chat for a new one."
    ),
    "console_web.signed_out": (
        "You are signed out. To sign in again, send /console in your operators' chat, or ask "
        "an admin for an invitation."
    ),
    "console_web.refused_role": (
        "Your role ({role}) does not allow this: it needs a {needed}. Ask an admin if you "
        "should have it."
    ),
    "console_web.refused_csrf": (
        "This form is out of date or did not come from the console, so nothing was done. Go "
        "back, reload the page and try again."
    ),
    "console_web.refused_too_large": "This form is too large, so nothing was done.",
    "console_web.refused_flood": (
        "Too many sign-in attempts from your address. Wait a minute, then try again."
    ),
    "console_web.not_found": "There is no such page in the console.",
    "console_web.back_to_list": "Back to the deliveries",
    "console_web.filters": "Filters",
    "console_web.filter.status": "Status",
    "console_web.filter.any": "any",
    "console_web.filter.day": "Day",
    "console_web.filter.channel": "Channel",
    "console_web.filter.attention": "Needs attention",
    "console_web.filter.search": "Reference or phone",
    "console_web.filter.apply": "Show",
    "console_web.filter.clear": "Clear the filters",
    "console_web.column.reference": "Reference",
    "console_web.column.customer": "Customer",
    "console_web.column.status": "Status",
    "console_web.column.fee": "Fee",
    "console_web.column.rider": "Rider",
    "console_web.column.times": "Created / changed",
    "console_web.column.attention": "Attention",
    "console_web.no_deliveries": "No delivery matches these filters.",
    "console_web.next_page": "Next page",
    "console_web.first_page": "First page",
    "console_web.times_in": "Times are in {zone}.",
    # --- the deliveries list's cells ----------------------------------------------------------
    "console_web.channel.telegram": "Telegram",
    "console_web.channel.agents": "Agent apps",
    "console_web.channel.console": "Console",
    "console_web.channel.log": "Log",
    "console_web.attention.unpriced": "no fee yet",
    "console_web.attention.unassigned": "no rider yet",
    "console_web.attention.failed_news": "news not delivered",
    "console_web.attention.waiting_handoff": "waiting for staff",
    "console_web.no_fee": "no fee yet",
    "console_web.no_rider": "no rider",
    "console_web.at": "{day}, {time}",
}
"""The English source of these words; ``FR`` translates it id for id."""

FR: Final[dict[str, str]] = {
    "console_web.refused_status": (
        "« {status} » n'est pas un statut de livraison. Choisissez parmi : {statuses}."
    ),
    "console_web.refused_channel": (
        "« {channel} » n'est pas un canal de ce bot. Choisissez parmi : {channels}."
    ),
    "console_web.refused_day": "« {day} » n'est pas un jour : écrivez-le ainsi : {example}.",
    "console_web.refused_attention": (
        "« {attention} » n'est pas un besoin d'une livraison. Choisissez parmi : {kinds}."
    ),
    "console_web.refused_search_long": (
        "La recherche est trop longue : une référence ou un numéro de téléphone a au plus "
        "{limit} caractères."
    ),
    "console_web.refused_search": (
        "« {search} » n'est ni une référence de livraison ni un numéro de téléphone."
    ),
    "console_web.refused_page": (
        "Ce lien de page est cassé ou périmé : recommencez depuis la première page."
    ),
    "console_web.timeline.no_address": "aucune adresse donnée",
    "console_web.timeline.at": "{day} à {time}",
    "console_web.timeline.event": "Événement « {type} » : {status}",
    "console_web.timeline.event_moved": "Événement « {type} » : {previous} → {status}",
    "console_web.timeline.to_customer": "au client ({chat})",
    "console_web.timeline.to_operators": "aux opérateurs ({chat})",
    "console_web.timeline.sent": "Message {to}",
    "console_web.timeline.quote_asked": "Question du prix {to}",
    "console_web.timeline.code_withheld": "Code de remise envoyé {to} (jamais montré ici)",
    "console_web.timeline.not_sent": "Message {to} non envoyé : {failure}",
    "console_web.timeline.handoff_in": "Client vers l'équipe (prise en charge {ref})",
    "console_web.timeline.handoff_out": "Équipe vers le client (prise en charge {ref})",
    "console_web.timeline.handoff_pin": "un repère sur la carte ({lat}, {lng})",
    "console_web.timeline.handoff_other": "une photo ou un fichier",
    "console_web.timeline.audit": "{actor} : {action}, {outcome}",
    # --- the console's pages: layout, sign-in, refusals, the list (bot.staff_console) ---------
    "console_web.business_name": "Console des livraisons",
    "console_web.page.deliveries": "Livraisons",
    "console_web.page.signin": "Connexion",
    "console_web.page.signed_out": "Déconnecté",
    "console_web.page.refused": "Non autorisé",
    "console_web.page.delivery": "Livraison {ref}",
    "console_web.delivery.back": "Toutes les livraisons",
    "console_web.delivery.pickup": "Enlèvement",
    "console_web.delivery.dropoff": "Livraison",
    "console_web.delivery.history": "Historique",
    "console_web.delivery.no_history": "Il ne s'est encore rien passé pour cette livraison.",
    "console_web.delivery.summary": "Le résumé du service",
    "console_web.delivery.hint": "Suggestion pour le client",
    "console_web.delivery.notes": "Notes pour les agents",
    "console_web.delivery.not_found": "Aucune livraison de ce bot n'a la référence {ref}.",
    "console_web.nav": "Pages de la console",
    "console_web.signed_in_as": "Connecté en tant que {name} ({role})",
    "console_web.role.viewer": "lecteur",
    "console_web.role.dispatcher": "répartiteur",
    "console_web.role.admin": "administrateur",
    "console_web.sign_out": "Se déconnecter",
    "console_web.sign_out_everywhere": "Se déconnecter partout",
    "console_web.signin_intro": (
        "Ce lien vous connecte une fois à la console. Appuyez sur le bouton pour ouvrir votre "
        "session."
    ),
    "console_web.signin_button": "Se connecter",
    "console_web.link_used": (
        "Ce lien de connexion a déjà servi : un lien ne sert qu'une fois. Envoyez /console dans "
        "le chat des opérateurs pour en recevoir un autre, ou demandez une invitation à un "
        "administrateur."
    ),
    "console_web.link_expired": (
        "Ce lien de connexion a expiré. Envoyez /console dans le chat des opérateurs pour en "
        "recevoir un autre, ou demandez une invitation à un administrateur."
    ),
    "console_web.link_unknown": (
        "Ce lien de connexion est inconnu. Vérifiez que vous l'avez copié en entier, ou "
        "envoyez /console dans le chat des opérateurs pour en recevoir un autre."
    ),
    "console_web.signed_out": (
        "Vous êtes déconnecté. Pour vous reconnecter, envoyez /console dans le chat des "
        "opérateurs, ou demandez une invitation à un administrateur."
    ),
    "console_web.refused_role": (
        "Votre rôle ({role}) ne permet pas cela : il faut être {needed}. Demandez à un "
        "administrateur si vous devriez l'être."
    ),
    "console_web.refused_csrf": (
        "Ce formulaire est périmé ou ne vient pas de la console : rien n'a été fait. Revenez en "
        "arrière, rechargez la page et réessayez."
    ),
    "console_web.refused_too_large": "Ce formulaire est trop grand : rien n'a été fait.",
    "console_web.refused_flood": (
        "Trop de tentatives de connexion depuis votre adresse. Attendez une minute, puis réessayez."
    ),
    "console_web.not_found": "Cette page n'existe pas dans la console.",
    "console_web.back_to_list": "Retour aux livraisons",
    "console_web.filters": "Filtres",
    "console_web.filter.status": "Statut",
    "console_web.filter.any": "tous",
    "console_web.filter.day": "Jour",
    "console_web.filter.channel": "Canal",
    "console_web.filter.attention": "À traiter",
    "console_web.filter.search": "Référence ou téléphone",
    "console_web.filter.apply": "Afficher",
    "console_web.filter.clear": "Effacer les filtres",
    "console_web.column.reference": "Référence",
    "console_web.column.customer": "Client",
    "console_web.column.status": "Statut",
    "console_web.column.fee": "Prix",
    "console_web.column.rider": "Livreur",
    "console_web.column.times": "Créée / modifiée",
    "console_web.column.attention": "À traiter",
    "console_web.no_deliveries": "Aucune livraison ne correspond à ces filtres.",
    "console_web.next_page": "Page suivante",
    "console_web.first_page": "Première page",
    "console_web.times_in": "Les heures sont en {zone}.",
    "console_web.channel.telegram": "Telegram",
    "console_web.channel.agents": "Applications d'agents",
    "console_web.channel.console": "Console",
    "console_web.channel.log": "Journal",
    "console_web.attention.unpriced": "pas encore de prix",
    "console_web.attention.unassigned": "pas encore de livreur",
    "console_web.attention.failed_news": "nouvelles non remises",
    "console_web.attention.waiting_handoff": "attend l'équipe",
    "console_web.no_fee": "pas encore de prix",
    "console_web.no_rider": "aucun livreur",
    "console_web.at": "{day} à {time}",
}

SECTION_TEXTS: Final[tuple[tuple[dict[str, str], dict[str, str]], ...]] = (
    (customers_texts.EN, customers_texts.FR),
    (customer_data_texts.EN, customer_data_texts.FR),
    (handoffs_texts.EN, handoffs_texts.FR),
    (delivery_actions_texts.EN, delivery_actions_texts.FR),
    (funnel_texts.EN, funnel_texts.FR),
    (audit_texts.EN, audit_texts.FR),
    (health_texts.EN, health_texts.FR),
    (live_texts.EN, live_texts.FR),
    (language_texts.EN, language_texts.FR),
    (riders_texts.EN, riders_texts.FR),
)
"""Each console section's own words, (English, French), kept beside the section."""

CONSOLE_WEB_TEXTS: Final = ChannelTexts(
    "console_web",
    {
        "en": {**EN, **{k: v for en, _ in SECTION_TEXTS for k, v in en.items()}},
        "fr": {**FR, **{k: v for _, fr in SECTION_TEXTS for k, v in fr.items()}},
    },
)
