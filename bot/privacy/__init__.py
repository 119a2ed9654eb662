"""The customer's data rights: personal data kept only as long as ``[privacy]`` says.

* ``retention``: ``Retention``, the leader-only job that prunes each kind of personal data
  past its time, hourly, and counts the rows in ``deliverybot_retention_removed_total``.
"""
