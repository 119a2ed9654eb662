"""The operators' web console's read models: what its pages show, as plain Python over the
store (``store.delivery_list``, ``store.history``), in the staff member's words.

* ``delivery_filters``: the deliveries list's filters and page cursor, read from a query
  string, refused in one sentence when malformed;
* ``deliveries_page``: one page of that list, each delivery in words and local times;
* ``delivery_timeline``: one delivery's page: its header and its history (events, messages
  sent, audit entries, its customer's hand-offs), oldest first, without the drop-off code;
* ``console_web_texts``: the console's own words, in every shipped language.

Nothing is imported here: ``console_web_texts`` is loaded with every shipped channel's words
when ``check-config`` checks ``[texts]`` overrides, which must not load the store.
"""
