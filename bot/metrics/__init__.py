"""Prometheus metrics, a business's own: what the bot records (``business_metrics.Metrics``,
passed to each site in the code that does the work; it records nothing with ``[metrics]`` off,
and ``prometheus_metrics.PrometheusMetrics`` into the business's registry with it on), the
families and their labels (``families``), and ``/metrics`` (``endpoint``), with the gauges read
from the database at each scrape.
"""
