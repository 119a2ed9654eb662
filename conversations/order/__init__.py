"""The order's vocabulary: what a delivery is made of, as the flows collect it and texts show it.

Service kinds and modes (``kinds``), the fixed limits of an order (``order_limits``), the photo
links a request may carry (``photos``), places and units (``locations``), the business's
capabilities as the flows read them (``business_capabilities``), the request the flows build
(``request``, its field groups in ``fields``) and the delivery as the flows and texts show it
(``delivery``).

The core owns these values and imports nothing of ``bot``; ``bot.partner.models`` builds the
Partner API's wire bodies from them (field names are the wire names, so the core's values are read
from and written to the wire without a second mapping) and adds what only the adapter needs:
envelopes, riders, webhooks, error bodies.
"""
