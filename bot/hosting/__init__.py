"""Many businesses in one process (or several instances), each isolated and built when used.

===================  =======================================================================
``hosted_business``  ``HostedBusiness``: a business as its file says it (name, config, print)
``host_routes``      ``HostRoutes``: which business a root request is for, by its secret
``host_app``         ``HostApp``: the host's one web app; ``/b/{name}/...`` and the root doors
``business_slot``    ``BusinessSlot``: built on first use, released when idle, closed to drain
``built_runtime``    ``RuntimeBusiness``: a business built as ``deliverybot run``'s ``Runtime``
``announcements``    which businesses' webhooks were set for the file they have now
``host_metrics``     ``HostMetrics``: counters kept across builds; a business label with a cap
``host_runtime``     ``HostRuntime``: the slots, the routes, the watch, releases and wake-ups
``directory_scan``   ``DirectoryScanner``: the businesses as their files say, scan after scan
``host_serving``     ``serve_host``: ``deliverybot run`` on a host file
``hosting_errors``   ``HostingError``: the tree of what the host refuses on purpose
===================  =======================================================================
"""
