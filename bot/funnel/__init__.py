"""The funnel: where customers give up, per flow and step, across instances.

``steps`` turns one turn (the session before and after it) into step events: reached,
answered, re-asked (with a reason code), went back, abandoned (cancelled there, or idle past
``[privacy] drafts_days``), created, and hand-offs to a person opened there
(``bot.handoff``). ``recorder`` keeps them in the store
(``store.funnel``, a few rows a turn, written in groups off the turn's path) and counts them in
``deliverybot_funnel_events_total``. ``report`` reads them back per flow and step for
``deliverybot report`` and the operators' ``/report``. Events are kept ``[storage]
funnel_days`` (housekeeping drops older days).
"""
