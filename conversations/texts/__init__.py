"""Every sentence a customer or an operator reads, in one place.

The sentences themselves are messages of one catalogue, by stable id: ``messages_en`` (the
English source) and ``messages_fr`` (its translation); ``catalogue`` renders them in the
language of the turn (``say``), formats money, numbers and days with Babel, and holds the
business's ``[texts]`` overrides. The modules below say them, one per audience and topic:

====================  ===========================================================================
``dialogue``          what the engine says around any flow's questions (navigation, re-asks,
                      service trouble)
``deliveries_texts``  a delivery in plain words: short reference, status label and sentence,
                      and the relay's texts (the customer's update, the operators' summary,
                      drop-off code notices)
``desk_texts``        the customer desk's answers: one delivery, the list, cancelling; and
                      ``ChannelWords``, how a channel names its commands in these sentences
``handoff_texts``     the receiver's steps of a drop-off code hand-off
``money_texts``       the delivery fee, who pays it, when and how: the summary's lines and
                      what happens next after a create
``said``              a message named where a flow is declared, said when a turn reads it
``taps``              how a sentence asks to choose an option or a command, said by each
                      channel its way ("tap Done" in Telegram, "type done" in the console)
====================  ===========================================================================

A flow's own questions, titles and option labels are messages of the catalogue too
(``flows.*``, ``steps.*``, ``rules.*``), named where the step is declared with ``said`` and
said per turn; everything said *about* an order or a delivery lives here, so the channels
(Telegram, the console, the JSON API) and the relay all say the same thing the same way.
"""
