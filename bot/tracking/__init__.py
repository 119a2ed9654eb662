"""The rider on the map: a tracked delivery's rider shown to its customer while it moves.

``[tracking]`` (``bot.config.tracking_section``) turns it on. The pieces, one concept each:

* ``rider_view``: ``RiderView``, what one customer may see of their rider this moment;
* ``rider_map``: ``RiderMap``, how a channel shows it, and ``RiderMaps``, whose channel;
* ``fixes``: which GPS fix is fit to show (fresh, not a jump across the city);
* ``arrival``: the estimate of arrival, distance over a speed by vehicle;
* ``tracker``: ``RiderTracker``, the leader-only job: one ``GET /riders`` per interval for every
  tracked delivery, each view to its customer's channel, the last fix kept and dropped at the end.
"""
