"""Keeping a public bot safe from the customers who misuse it.

``customer_blocking``: operators stop a customer (``/block``, ``deliverybot customers block``)
and restore them; a blocked customer's turns are refused with one polite sentence.
``customer_names``: the customer an operator names, by a delivery reference, a Telegram user id,
a WhatsApp number or an agent channel's customer reference.
"""
