"""``python -m bot``: the same as the ``deliverybot`` command."""

import sys

from bot.cli import main

sys.exit(main())
