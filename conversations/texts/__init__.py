"""Every sentence a customer or an operator reads, in one place.

One module per audience and topic: ``dialogue`` is what the engine says around any flow's
questions (navigation, re-asks, service trouble). Flows keep their own questions beside their
steps, since a question is part of what a step declares; everything said *about* an order or a
delivery lives here, so the channels (Telegram, the console, the JSON API) and the relay all
say the same thing the same way.
"""
