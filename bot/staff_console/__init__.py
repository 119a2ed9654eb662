"""The operators' web console's read models: what its pages show, as plain Python over the
store (``store.delivery_list``), in the staff member's words.

* ``delivery_filters``: the deliveries list's filters and page cursor, read from a query
  string, refused in one sentence when malformed;
* ``deliveries_page``: one page of that list, each delivery in words and local times;
* ``console_web_texts``: the console's own words, in every shipped language;
* ``console_app``: its pages and forms under ``/console`` on the core's web app, through
  ``console_guard`` (the session cookie, roles, CSRF), ``console_headers`` (CSP and the
  rest on every answer), ``sign_in_flood`` (sign-ins per client address) and
  ``console_pages`` (the Jinja2 templates in ``templates/``, the stylesheet in ``static/``).

Nothing is imported here: ``console_web_texts`` is loaded with every shipped channel's words
when ``check-config`` checks ``[texts]`` overrides, which must not load the store.
"""
