"""The operators' web console: its read models (what its pages show, as plain Python over the
store: ``store.delivery_list``, ``store.history``, in the staff member's words) and its pages.

* ``delivery_filters``: the deliveries list's filters and page cursor, read from a query
  string, refused in one sentence when malformed;
* ``deliveries_page``: one page of that list, each delivery in words and local times;
* ``delivery_timeline``: one delivery's page: its header and its history (events, messages
  sent, audit entries, its customer's hand-offs), oldest first, without the drop-off code;
* ``console_web_texts``: the console's own words, in every shipped language (each section's
  beside it, ``language_texts``...);
* ``language_section``: each member's choice of the language they read the console in
  (``console_languages``: the shipped ones, in their own names);
* ``console_app``: its pages and forms under ``/console`` on the core's web app, through
  ``console_guard`` (the session cookie, roles, CSRF), ``console_headers`` (CSP and the
  rest on every answer), ``sign_in_flood`` (sign-ins per client address) and
  ``console_pages`` (the Jinja2 templates in ``templates/``, the stylesheet in ``static/``).

Nothing is imported here: ``console_web_texts`` is loaded with every shipped channel's words
when ``check-config`` checks ``[texts]`` overrides, which must not load the store.
"""
