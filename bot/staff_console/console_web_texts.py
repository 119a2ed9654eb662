"""The operators' web console's words, in every shipped language.

What the deliveries list says (``console_web.*``): its refusals of a filter, the channels'
names, the kinds of attention, the empty cells; and what a delivery's page says of its
history (``console_web.timeline.*``). They are registered on the business's
catalogue beside the channels' words (``bot.channel_texts``), so a business's ``[texts]``
overrides reach them like any other message.
"""

from __future__ import annotations

from typing import Final

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

CONSOLE_WEB_TEXTS: Final = ChannelTexts("console_web", {"en": EN, "fr": FR})
