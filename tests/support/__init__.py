"""What tests in several folders share: fixtures and helpers with one definition each.

``store_fixture`` is a pytest plugin (``pytest_plugins`` in ``tests/conftest.py``): its
fixtures are there for every test, and a folder's conftest only says how it wants them.
``clock`` holds the one fake clock (``FakeClock``, and ``WaitingClock`` whose sleeps wait for
``advance``); ``partner_json`` the Partner API bodies a test builds itself (webhook events, the
API's answers); ``words`` the shipped words a test expects (``SHIPPED``, ``say``, ``said_in``);
``logging_state`` the ``restore_logging`` fixture (a plugin too); ``sigterm`` how a test stops
the ``serve`` it runs in its own process.
"""
