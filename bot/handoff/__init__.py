"""Talking to a person: a customer's hand-off to the business's staff, on every channel.

``desk.HandoffDesk`` is the service every channel calls (ask, take, reply, fill, close);
``staff_acts`` is what staff do through it, the same at every door (the Telegram card, the
web console); ``sides`` is what a channel implements to reach customers and staff; ``card``
is what staff see; ``bodies`` what passes through; ``handoff_settings`` the ``[operators]``
keys. The hand-offs and their messages live in the store (``store.handoffs``), so any
instance carries them on.
"""
