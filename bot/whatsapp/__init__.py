"""The WhatsApp channel: the same flows, news and hand-offs on the WhatsApp Cloud API.

::

    POST /whatsapp ─> signature checked ─> each message stored (``store.whatsapp_inbox``) ─> 200
    inbox handling: holding the chat's lock, the chat's stored messages oldest first
        ─> ``InboundHandler`` (the conversation: answers, commands, photos, /human)
        ─> replies as ``Outgoing`` messages ─> ``WhatsAppSend`` (paced, inside the window)
    relay news ─> the channel's ``send`` ─> a normal message inside the customer-service window,
        the business's approved template outside it
    statuses (sent, delivered, read, failed) ─> ``StatusHandler``

A chat is ``ChatRef("whatsapp", wa_id)`` and its customer ``UserRef("whatsapp", wa_id)``: the
customer's WhatsApp number, digits only, which WhatsApp itself vouches for. The parts meet
through the values and protocols of ``inbound``, ``outgoing`` and ``contracts``.
"""
