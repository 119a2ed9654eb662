"""Every error the simulated WhatsApp Cloud API raises on purpose, as one tree.

::

    WhatsAppFakeError             anything the fake raises on purpose
    ├── GraphError                a call refused as Meta refuses it, answered as the Graph
    │                             API's error envelope (graph_errors)
    └── UndeliveredPush           the bot's webhook never took a persona's message; also an
                                  ``AssertionError``, as it fails the test that drove it
                                  (persona)
"""

from __future__ import annotations


class WhatsAppFakeError(Exception):
    """Base of every error the simulated Cloud API raises on purpose."""
