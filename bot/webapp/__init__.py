"""The "Pick on the map" Telegram Mini App: a map page for the place questions.

At every pickup, drop-off and shop question the Telegram adapter adds a reply-keyboard button
that opens ``/webapp/place?chat=<id>`` on the bot's own https host (``[webapp]``). The page shows
the question's saved places (with their unit pickers), an address search through the bot's
geocoder, a draggable pin and the coverage area, and sends the pick back with
``Telegram.WebApp.sendData``; the bot reads it as the same answers the chat takes.

* ``init_data``: Telegram's ``initData``, verified (HMAC-SHA256 under the bot token);
* ``place_question``: the chat's open place question, as the page draws it;
* ``routes``: the page, its files and its API on the bot's web app;
* ``page_policy``: the page's Content-Security-Policy and other headers;
* ``protective_headers``: those headers on every answer under ``/webapp``, errors included;
* ``search_budget``: each customer's searches per minute;
* ``picks``: the way back, a ``web_app_data`` message as the chat's answers, and the line
  that names the place taken (``bot.telegram.map_picks`` draws the pick as one reply);
* ``static/``: the page (no inline script), its Telegram bridge, and Leaflet 1.9.4, pinned and
  served from the bot's host (``static/leaflet/VERSION`` and ``LICENSE``).
"""
