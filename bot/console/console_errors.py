"""Every error the terminal adapter raises on purpose, as one tree.

::

    ConsoleError                  anything the terminal adapter refuses
    ├── PhotoProblem              files that cannot be sent as photos (photo_files)
    ├── TranscriptError           a transcript that cannot be read; also a ValueError (transcript)
    └── TranscriptMismatch        the bot did not do what the transcript says; also an
                                  AssertionError, so a test replaying it fails as an assertion

The console and ``deliverybot demo --script`` print these; each message names what to fix.
"""

from __future__ import annotations


class ConsoleError(Exception):
    """Base of every error the terminal adapter raises on purpose."""
