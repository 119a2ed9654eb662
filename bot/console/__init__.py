"""The terminal adapter: the same flows as in Telegram, typed at a keyboard.

``ConsoleChat`` turns typed lines into answers (``parse_line``: numbers pick options, commands,
``contact ...``, ``location ...``, photo file paths; ``new`` and ``repeat`` start an order) and
draws each turn (``render_turn``); ``status``, ``deliveries``, ``cancel_delivery`` and a typed
drop-off code link go to the ``CustomerDesk`` (``CONSOLE_WORDS`` name them in its texts).
``ConsoleChannel`` shows the relay's messages on the same ``Screen``. ``deliverybot demo``
runs them against the in-process sandbox (``bot.demo``). The console's own words are
``console_texts``'s (``CONSOLE_TEXTS``, registered with the channel).

Import from the modules themselves (``bot.console.console_chat``): the package exports nothing,
so the console's words load without its services (``deliverybot check-config`` checks
``[texts]`` overrides against them and stays quick).
"""
