"""The console's audit page's words (``audit_section``, ``audit_filters``), in every shipped
language."""

from __future__ import annotations

from typing import Final

EN: Final[dict[str, str]] = {
    "console_web.audit.title": "Audit",
    "console_web.audit.when": "When",
    "console_web.audit.actor": "Who",
    "console_web.audit.actor_example": "staff:1, telegram:1900, shell",
    "console_web.audit.action": "Action",
    "console_web.audit.subject": "About",
    "console_web.audit.outcome": "Outcome begins with",
    "console_web.audit.detail": "Detail",
    "console_web.audit.period": "Period",
    "console_web.audit.last": "last {period}",
    "console_web.audit.none": "Nothing in the audit trail matches these filters.",
    "console_web.audit.refused_actor": (
        "“{actor}” is not who acts in the audit trail: write it as staff:1, telegram:1900, "
        "shell or bot."
    ),
    "console_web.audit.refused_action": (
        "“{action}” is not an action: actions are lower-case words joined by _, such as assign."
    ),
    "console_web.audit.refused_long": (
        "A subject or an outcome has at most {limit} characters, on one line."
    ),
    "console_web.audit.refused_day_and_period": ("Choose a day or a period, not both."),
    "console_web.audit.refused_period": (
        "“{period}” is not a period: write it as a number of hours or days, such as 24h or 7d."
    ),
}

FR: Final[dict[str, str]] = {
    "console_web.audit.title": "Journal",
    "console_web.audit.when": "Quand",
    "console_web.audit.actor": "Qui",
    "console_web.audit.actor_example": "staff:1, telegram:1900 ou shell",
    "console_web.audit.action": "Action menée",
    "console_web.audit.subject": "À propos de",
    "console_web.audit.outcome": "Résultat commençant par",
    "console_web.audit.detail": "Détail",
    "console_web.audit.period": "Période",
    "console_web.audit.last": "dernières {period}",
    "console_web.audit.none": "Rien dans le journal ne correspond à ces filtres.",
    "console_web.audit.refused_actor": (
        "« {actor} » n'est pas un auteur du journal : écrivez-le ainsi : staff:1, "
        "telegram:1900, shell ou bot."
    ),
    "console_web.audit.refused_action": (
        "« {action} » n'est pas une action : les actions sont des mots en minuscules reliés "
        "par _, comme assign."
    ),
    "console_web.audit.refused_long": (
        "Un sujet ou un résultat a au plus {limit} caractères, sur une ligne."
    ),
    "console_web.audit.refused_day_and_period": (
        "Choisissez un jour ou une période, pas les deux."
    ),
    "console_web.audit.refused_period": (
        "« {period} » n'est pas une période : écrivez un nombre d'heures ou de jours, comme "
        "24h ou 7d."
    ),
}
