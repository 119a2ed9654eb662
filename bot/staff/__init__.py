"""The staff's way into the web console: members, their one-time sign-in links and sessions.

``StaffDoor`` issues a link to an operator (``link_for``, the Telegram ``/console`` command) or
to someone invited from the shell (``invite``, ``deliverybot staff invite``), redeems a link
into a session (``sign_in``), finds a live session (``session``) and signs members out; every
issue, redeem and sign-out is written to the audit trail, never a token. The store keeps only
the tokens' hashes (``bot.store.staff``); ``staff_commands`` is ``deliverybot staff``.

Nothing is imported here: ``bot.cli`` imports ``staff_commands`` at start-up, which must not
load the store or the configuration's models (``tests/test_startup_imports.py``).
"""
