"""The names of the shared steps a flow points to (``next=SENDER_NAME``, ``start=...``).

The pieces declare their steps under these names, the same in every flow (so "edit
receiver_name" and a repeated order mean the same step everywhere); a flow imports the names
it leads to from here. A place group's names come from its piece (``place_steps(...).first``).
"""

from __future__ import annotations

from typing import Final

# Who orders (``sender``), who receives (``receiver``), who hands the package over
# (``pickup_contact``).
SENDER_NAME: Final = "sender_name"
SENDER_PHONE: Final = "sender_phone"
SENDER_EMAIL: Final = "sender_email"
RECEIVER_NAME: Final = "receiver_name"
RECEIVER_PHONE: Final = "receiver_phone"
PICKUP_CONTACT: Final = "pickup_contact"
PICKUP_CONTACT_NAME: Final = "pickup_contact_name"
PICKUP_CONTACT_PHONE: Final = "pickup_contact_phone"
# The package (``package_size``, ``package_photos``).
PACKAGE_SIZE: Final = "package_size"
PACKAGE_PHOTOS: Final = "photos"
# How it is paid (``payment``), and the summary that confirms and creates (``summary``).
PAYMENT: Final = "payment"
POD_AMOUNT: Final = "pod_amount"
SUMMARY: Final = "summary"
