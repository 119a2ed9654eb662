"""Prometheus metrics: what the bot records (``recording``, one call per site in the code
that does the work), the families and their labels (``families``), and ``/metrics``
(``endpoint``), with the gauges read from the database at each scrape.

Recording is off until ``recording.enable`` (``deliverybot run`` with ``[metrics] enabled``):
until then every call returns at once.
"""
