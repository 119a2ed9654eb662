"""The Telegram adapter's building blocks (python-telegram-bot 22).

==================  ===========================================================================
``turn_messages``   a ``Turn`` as HTML messages with inline / reply keyboards, paged options
``callbacks``       the 64-byte callback data of prompt buttons, and what a tap means now
``answers``         an ``Update`` as the ``Answer`` it gives (or a picture to fetch)
``photo_receiver``  pictures fetched through PTB, checked, and re-hosted under ``/media/``
``limits``          Telegram's sending limits as sliding windows, with per-chat holds
``message_sender``  sends and edits within the limits; 429 / 403 as results; the relay Channel
==================  ===========================================================================
"""
