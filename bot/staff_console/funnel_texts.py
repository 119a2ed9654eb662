"""The console's funnel page's words (``funnel_section``), in every shipped language."""

from __future__ import annotations

from typing import Final

EN: Final[dict[str, str]] = {
    "console_web.funnel.title": "Funnel",
    "console_web.funnel.choose": "Period and flow",
    "console_web.funnel.period": "Period",
    "console_web.funnel.last": "last {period}",
    "console_web.funnel.flow": "Flow",
    "console_web.funnel.every_flow": "every flow",
    "console_web.funnel.none": "No funnel events in the last {period}.",
    "console_web.funnel.refused_period": (
        "“{period}” is not a period: write it as a number of hours or days, such as {periods}."
    ),
    "console_web.funnel.refused_flow": (
        "“{flow}” is not a flow of this bot. Choose among: {flows}."
    ),
    "console_web.funnel.flow_heading": "{flow}, last {period}",
    "console_web.funnel.reached_chart": "{flow}: conversations that reached each step",
    "console_web.funnel.reached_bar": (
        "{step}: {reached} reached, {answered} answered, {drop_off} gave up here"
    ),
    "console_web.funnel.handoff_chart": "{flow}: hand-offs to a person opened at each step",
    "console_web.funnel.handoff_bar": "{step}: {count} hand-offs",
    "console_web.funnel.no_handoffs": "No customer asked for a person in this flow.",
    "console_web.funnel.table": "{flow}: each step's figures",
    "console_web.funnel.column.step": "Step",
    "console_web.funnel.column.reached": "Reached",
    "console_web.funnel.column.answered": "Answered",
    "console_web.funnel.column.drop_off": "Gave up",
    "console_web.funnel.column.median": "Median time",
    "console_web.funnel.column.reasked": "Asked again",
    "console_web.funnel.column.went_back": "Went back",
    "console_web.funnel.column.created": "Created",
    "console_web.funnel.column.handoffs": "Hand-offs",
    "console_web.funnel.column.reasons": "Why asked again",
    "console_web.funnel.days_note": (
        "Counted by whole days (UTC), from the start of the day the period began: the same "
        "figures as deliverybot report and /report in the operators' chat."
    ),
}

FR: Final[dict[str, str]] = {
    "console_web.funnel.title": "Entonnoir",
    "console_web.funnel.choose": "Période et parcours",
    "console_web.funnel.period": "Période",
    "console_web.funnel.last": "dernières {period}",
    "console_web.funnel.flow": "Parcours",
    "console_web.funnel.every_flow": "tous les parcours",
    "console_web.funnel.none": "Aucun événement d'entonnoir ces dernières {period}.",
    "console_web.funnel.refused_period": (
        "« {period} » n'est pas une période : écrivez un nombre d'heures ou de jours, comme "
        "{periods}."
    ),
    "console_web.funnel.refused_flow": (
        "« {flow} » n'est pas un parcours de ce bot. Choisissez parmi : {flows}."
    ),
    "console_web.funnel.flow_heading": "{flow}, dernières {period}",
    "console_web.funnel.reached_chart": "{flow} : conversations arrivées à chaque étape",
    "console_web.funnel.reached_bar": (
        "{step} : {reached} arrivées, {answered} répondues, {drop_off} abandons ici"
    ),
    "console_web.funnel.handoff_chart": ("{flow} : demandes de parler à une personne, par étape"),
    "console_web.funnel.handoff_bar": "{step} : {count} demandes d'une personne",
    "console_web.funnel.no_handoffs": "Aucun client n'a demandé une personne dans ce parcours.",
    "console_web.funnel.table": "{flow} : les chiffres de chaque étape",
    "console_web.funnel.column.step": "Étape",
    "console_web.funnel.column.reached": "Arrivées",
    "console_web.funnel.column.answered": "Répondues",
    "console_web.funnel.column.drop_off": "Abandons",
    "console_web.funnel.column.median": "Temps médian",
    "console_web.funnel.column.reasked": "Redemandées",
    "console_web.funnel.column.went_back": "Retours",
    "console_web.funnel.column.created": "Créées",
    "console_web.funnel.column.handoffs": "Demandes d'une personne",
    "console_web.funnel.column.reasons": "Pourquoi redemandée",
    "console_web.funnel.days_note": (
        "Compté par jours entiers (UTC), depuis le début du jour où la période commence : les "
        "mêmes chiffres que deliverybot report et /report dans le groupe des opérateurs."
    ),
}
