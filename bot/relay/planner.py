"""From one Partner event to the messages it owes each chat, and the bookkeeping after them.

Nothing is written to the chat's view here: the view moves (``Plan.view``) only after every
message went out, so a retry after a crash or a failed send composes the same messages again,
and the sent markers let only the missing ones through.

* The customer (the chat that ordered the delivery) gets one message per event that is not
  older than what the chat was last shown (``bot.store.status_progress``: by second, then by
  the status progression and ``previous_status``), telling each fact once, in the bot's own
  words (``customer_news``: the service's hint only for a customer reading its language), and
  the tracking link until they have had it. The facts told are kept with the chat's view.
* A fee set after the order (``quote_question``) ends the customer's message with the question
  "keep the order, or cancel it?", once per delivery, its choices carried with the message
  (``Outgoing.asking``: Telegram's buttons, the console's typed words); an agent conversation's
  event carries it as ``question``.
* Operators get the event's ``summary`` and ``agent_notes`` for the event types configured
  (which a digest may count instead of quoting when the operator chat is behind); a note
  asking for what the bot has done (share the tracking link the customer has had, send the
  drop-off code the bot hands to the receiver) is said in the bot's words (``operator_notes``).
* ``data.otp`` (``delivery.otp_issued``): the code goes only to the receiver. When the customer's
  own verified phone is the receiver phone the code goes to the customer's chat; otherwise it is
  held in ``store.otp`` and the customer gets a link to forward to the receiver, and operators
  are told the code is waiting (never the code itself). A code that comes while ``[relay]
  otp_via_webhook`` is off also tells operators to switch it on (the summaries promised the
  customer a text message from the service).

What goes to the customer's chat is said in the language they ordered in (``link.language``,
kept when the delivery was created; the business default for links without one); what goes to
operators is said in the business's default language, whoever's delivery it is about.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.channel_kind import CapabilitiesOf, no_capabilities
from bot.chat_ref import ChatRef
from bot.config import RelayConfig
from bot.partner.listed import listed_details
from bot.partner.models import Delivery, WebhookEvent
from bot.relay import quote_question
from bot.relay.agent_updates import AGENT_UPDATE, agent_event_body, agent_question
from bot.relay.channel_protocol import Channel, ChatOtpLinks
from bot.relay.customer_news import News, customer_news, news_sentences
from bot.relay.operator_notes import operator_notes
from bot.relay.outbox import Outgoing, Told
from bot.store import FINAL_STATUSES, DeliveryLink, ListedDetails, SendKey, Store
from bot.store.delivery_history import CUSTOMER, OPERATORS, HistoryEvent, Place
from bot.store.status_progress import StatusEvent, moves_forward
from conversations import delivery_facts
from conversations.phones import normalise_phone
from conversations.texts import agent_texts
from conversations.texts import deliveries_texts as wording
from conversations.texts.business_texts import BusinessTexts
from conversations.texts.catalogue import Catalogue

# Kinds of message, the last part of a SendKey.
CUSTOMER_UPDATE = "update"
OPERATOR_UPDATE = "operator"
OTP_CODE = "otp"
OTP_LINK = "otp_link"
OTP_WAITING = "otp_waiting"
OTP_UNRELAYED = "otp_unrelayed"
OTP_SETTING = "otp_setting"
REFERENCE_ONLY_KINDS = frozenset({OTP_WAITING, OTP_UNRELAYED, OTP_SETTING})
QUOTE_QUESTION = "quote_question"  # how the console's history names a message that asks
# Messages that carry the drop-off code, or a link that opens it: kept without their text.
CODE_KINDS = frozenset({OTP_CODE, OTP_LINK, AGENT_UPDATE})
CODE_MASK = "••••"
"""Operators' notices whose text names a delivery by its reference and nothing else of it (no
code, no person, no place): a log may carry them whole (``bot.agents.chatless_channel``)."""


# phonenumbers' "unknown region": only numbers with a country code parse.
_NO_REGION = "ZZ"


@dataclass(frozen=True)
class ViewUpdate:
    """The chat's new view of the delivery, applied once the event's messages are out."""

    status: str
    created: int
    tracking_url: str | None
    previous_status: str | None = None
    told: frozenset[str] = frozenset()  # the facts its messages tell the customer
    details: ListedDetails | None = None  # what the console lists, as the event shows it


@dataclass(frozen=True)
class Plan:
    """What one event owes the chats, and what to record once it is delivered."""

    messages: list[Outgoing] = field(default_factory=list)
    view: ViewUpdate | None = None
    tracking_sent: bool = False
    finished: bool = False  # the delivery reached a final status: drop its OTP hand-off
    # The event shows the fee paid: recorded whatever the event's order (``note_paid``).
    paid: bool = False
    # What the console's delivery page keeps of the event (``history_of``, set by the relay,
    # which knows when the event arrived).
    history: HistoryEvent | None = None


class Planner:
    """Composes each event's ``Plan`` from the event, the delivery's link and the settings."""

    def __init__(
        self,
        store: Store,
        channel: Channel,
        *,
        operators: Sequence[ChatRef],
        settings: RelayConfig,
        texts: BusinessTexts,
        phone_region: str | None = None,
        capabilities: CapabilitiesOf = no_capabilities,
    ) -> None:
        self._store = store
        self._capabilities = capabilities
        self._texts = texts
        self._channel = channel
        self._operators = list(dict.fromkeys(operators))
        self._settings = settings
        self._region = phone_region or _NO_REGION

    async def plan(self, event: WebhookEvent, link: DeliveryLink | None) -> Plan:
        """The plan for ``event``; ``link`` is None for a delivery no chat of this bot ordered."""
        if link is not None and self._capabilities(link.chat.channel).news_as_data:
            return await self._agent_plan(event, link)
        messages: list[Outgoing] = []
        view: ViewUpdate | None = None
        tracking_sent = False
        told: frozenset[str] = frozenset()
        if link is not None and _not_older(event, link):
            customer = self._customers_catalogue(link)
            question = _quote_question(customer, event, link)
            news = self._customer_update(customer, event, _asked(link, question))
            tracking_sent = news.tracking_sent
            told = news.told
            key = SendKey(event.id, link.chat, CUSTOMER_UPDATE)
            if question is not None:
                # The question ends the event's news, its choices under it (one message).
                text = _with_question(customer, event, news.text, question.text)
                messages.append(Outgoing(key, text, asking=question.asking))
                told |= question.told
            elif news.text is not None:
                messages.append(Outgoing(key, news.text))
        otp = await self._otp_messages(event, link)
        code_taken = any(message.key.kind in (OTP_CODE, OTP_LINK) for message in otp)
        has_tracking = link is not None and (link.tracking_sent or tracking_sent)
        messages += self._operator_updates(event, tracking=has_tracking, code=code_taken)
        messages += self._otp_setting_notice(event)
        if link is not None and any(message.key.chat == link.chat for message in otp):
            told |= {delivery_facts.CODE}
        messages += otp
        if link is not None and _not_older(event, link):
            view = _view(event, told)
        finished = view is not None and view.status in FINAL_STATUSES
        paid = link is not None and delivery_facts.is_paid(event.data.object)
        return Plan(self._kept(event, messages), view, tracking_sent, finished, paid)

    async def _agent_plan(self, event: WebhookEvent, link: DeliveryLink) -> Plan:
        """An agent conversation's delivery (``agent_updates``): every event as data, once;
        the operators as for any delivery; the drop-off code held for the receiver."""
        delivery = event.data.object
        view = None
        message: str | None = None
        question = None
        if _not_older(event, link):
            # The news in the bot's words too, each fact once, as a chat would be told it.
            customer = self._customers_catalogue(link)
            question = _quote_question(customer, event, link)
            sentences, told = news_sentences(customer, event, _asked(link, question))
            message = " ".join(sentences) or None
            view = _view(event, told | (question.told if question else frozenset()))
        notice = None
        waiting: list[Outgoing] = []
        handed = False  # the code went into a hand-off the receiver can claim
        otp = event.data.otp
        if otp is not None and otp.code.strip() and not _finished(delivery, link):
            receiver = normalise_phone(otp.receiver_phone, self._region)
            handoff = await self._store.otp.put(
                delivery.id, otp.code.strip(), receiver or otp.receiver_phone.strip(), event.created
            )
            opener = self._channel.otp_link(handoff.token)
            handed = bool(opener)
            # The notice is written for the agent program (``agent_texts``), not its customer.
            if opener:
                notice = agent_texts.otp_sent_to_receiver(delivery.id, opener)
                held = wording.otp_waiting_for_operators(self._business_catalogue(), delivery.id)
            else:  # a bot without a messenger has no hand-off: nobody can claim the code
                notice = agent_texts.otp_not_handed_off(delivery.id)
                held = agent_texts.otp_not_handed_off_for_operators(delivery.id)
            waiting = self._to_operators(event, OTP_WAITING, held)
        # The event's body gives the agent's app the tracking link.
        tracking = delivery.tracking_url is not None
        messages = self._operator_updates(event, tracking=tracking, code=handed)
        messages += self._otp_setting_notice(event) + waiting
        asked = agent_question(event, question.text) if question is not None else None
        body = agent_event_body(
            self._customers_catalogue(link),
            event,
            drop_off_code=notice,
            message=message,
            question=asked,
        )
        messages.insert(0, Outgoing(SendKey(event.id, link.chat, AGENT_UPDATE), body))
        finished = view is not None and view.status in FINAL_STATUSES
        paid = delivery_facts.is_paid(delivery)
        return Plan(self._kept(event, messages), view, False, finished, paid)

    def _kept(self, event: WebhookEvent, messages: list[Outgoing]) -> list[Outgoing]:
        """``messages``, each with what the console's delivery page keeps of it
        (``Outgoing.about``): the drop-off code never (``kept_text``)."""
        operators = set(self._operators)
        return [
            dataclasses.replace(
                message,
                about=Told(
                    event.data.object.id,
                    OPERATORS if message.key.chat in operators else CUSTOMER,
                    QUOTE_QUESTION if message.asking is not None else message.key.kind,
                    kept_text(event, message),
                ),
            )
            for message in messages
        ]

    # --- the customer --------------------------------------------------------------------

    def _customer_update(
        self, catalogue: Catalogue, event: WebhookEvent, link: DeliveryLink
    ) -> News:
        return customer_news(
            catalogue,
            event,
            link,
            self._settings.customer,
            service_language=self._texts.texts.service_language,
        )

    def _customers_catalogue(self, link: DeliveryLink) -> Catalogue:
        """What goes to the delivery's chat is said in the language its customer ordered in."""
        return self._texts.catalogue_for(link.language)

    def _business_catalogue(self) -> Catalogue:
        """What goes to operators is said in the business's default language (a relay pass
        run inside some customer's turn must not lend them that customer's)."""
        return self._texts.business_catalogue()

    # --- operators -----------------------------------------------------------------------

    def _operator_updates(
        self, event: WebhookEvent, *, tracking: bool, code: bool
    ) -> list[Outgoing]:
        """The event's summary and notes for operators; a note asking for what the bot did
        (``tracking``: the customer has the tracking link; ``code``: the bot took the drop-off
        code for the receiver) is said in the bot's words (``operator_notes``)."""
        settings = self._settings.operators
        if event.type not in settings.events:
            return []
        business = self._business_catalogue()
        notes = event.agent_notes if settings.agent_notes else ()
        text = wording.operator_update(
            business,
            event.summary if settings.summary else None,
            operator_notes(business, notes, tracking=tracking, code=code),
        )
        if text is None:
            return []
        # Operators follow every delivery: when their chat falls behind, these are the news a
        # digest may count instead of quoting (``outbox``); notices about codes never are.
        ref = wording.short_ref(event.data.object.id)
        return self._to_operators(event, OPERATOR_UPDATE, text, abridged_as=ref)

    def _to_operators(
        self, event: WebhookEvent, kind: str, text: str, *, abridged_as: str | None = None
    ) -> list[Outgoing]:
        return [
            Outgoing(SendKey(event.id, chat, kind), text, abridged_as) for chat in self._operators
        ]

    # --- drop-off codes ------------------------------------------------------------------

    def _otp_setting_notice(self, event: WebhookEvent) -> list[Outgoing]:
        """Operators told, with each code the service sends by webhook, that ``[relay]
        otp_via_webhook`` is off: the dashboard's switch is on, and the bot's summaries tell
        customers the service texts the code to the receiver, which it then does not."""
        otp = event.data.otp
        if self._settings.otp_via_webhook or otp is None or not otp.code.strip():
            return []
        text = wording.otp_setting_off_for_operators(
            self._business_catalogue(), event.data.object.id
        )
        return self._to_operators(event, OTP_SETTING, text)

    async def _otp_messages(self, event: WebhookEvent, link: DeliveryLink | None) -> list[Outgoing]:
        otp, delivery = event.data.otp, event.data.object
        if otp is None:
            return []
        code = otp.code.strip()
        if not code or _finished(delivery, link):
            return []
        if link is None:
            unrelayed = wording.otp_unrelayed_for_operators(self._business_catalogue(), delivery.id)
            return self._to_operators(event, OTP_UNRELAYED, unrelayed)
        receiver = normalise_phone(otp.receiver_phone, self._region)
        if receiver is not None and receiver == await self._customer_phone(link):
            text = wording.otp_for_receiver(self._customers_catalogue(link), delivery.id, code)
            return [Outgoing(SendKey(event.id, link.chat, OTP_CODE), text)]
        handoff = await self._store.otp.put(
            delivery.id, code, receiver or otp.receiver_phone.strip(), event.created
        )
        opener = self._otp_link(link.chat, handoff.token)
        sender = (delivery.customer.sender_phone if delivery.customer else None) or ""
        customer = self._customers_catalogue(link)
        if receiver is not None and normalise_phone(sender, self._region) == receiver:
            link_text = wording.otp_link_for_self(customer, delivery.id, opener)  # an errand
        else:
            link_text = wording.otp_link_for_customer(customer, delivery.id, opener)
        waiting = wording.otp_waiting_for_operators(self._business_catalogue(), delivery.id)
        return [
            Outgoing(SendKey(event.id, link.chat, OTP_LINK), link_text),
            *self._to_operators(event, OTP_WAITING, waiting),
        ]

    def _otp_link(self, chat: ChatRef, token: str) -> str:
        """The claim's link for ``chat``'s customer: in the chat's own channel where it can."""
        if isinstance(self._channel, ChatOtpLinks):
            return self._channel.otp_link_for(chat, token)
        return self._channel.otp_link(token)

    async def _customer_phone(self, link: DeliveryLink) -> str | None:
        phone = await self._store.contacts.phone_for(link.user)
        return None if phone is None else normalise_phone(phone, self._region)


def history_of(event: WebhookEvent, received_at: float) -> HistoryEvent:
    """What the console's delivery page keeps of ``event`` (arrived at ``received_at``): never
    its drop-off code (left out of the event's data, masked wherever the service's texts
    would quote it)."""
    delivery = event.data.object
    pickup, dropoff = delivery.pickup, delivery.dropoff
    return HistoryEvent(
        event_id=event.id,
        delivery_id=delivery.id,
        event_type=event.type,
        created=event.created,
        received_at=received_at,
        status=delivery.status,
        previous_status=event.data.previous_status,
        summary=_masked(event, event.summary),
        customer_message_hint=None
        if event.customer_message_hint is None
        else _masked(event, event.customer_message_hint),
        agent_notes=tuple(_masked(event, note) for note in event.agent_notes),
        pickup=Place(
            pickup.address if pickup else None,
            pickup.latitude if pickup else None,
            pickup.longitude if pickup else None,
        ),
        dropoff=Place(
            dropoff.address if dropoff else None,
            dropoff.latitude if dropoff else None,
            dropoff.longitude if dropoff else None,
        ),
    )


def kept_text(event: WebhookEvent, message: Outgoing) -> str:
    """``message``'s text as the console keeps it: nothing for a message that carries the
    drop-off code or its link when the event issued one, else the text with the code
    masked."""
    if event.data.otp is not None and message.key.kind in CODE_KINDS:
        return ""
    return _masked(event, message.text)


def _masked(event: WebhookEvent, text: str) -> str:
    otp = event.data.otp
    code = otp.code.strip() if otp is not None else ""
    return text.replace(code, CODE_MASK) if code else text


def _quote_question(
    catalogue: Catalogue, event: WebhookEvent, link: DeliveryLink
) -> quote_question.Question | None:
    """The quote question ``event`` owes the chat (``quote_question``), else None."""
    if not quote_question.is_due(event, link):
        return None
    return quote_question.question(catalogue, event)


def _with_question(
    catalogue: Catalogue, event: WebhookEvent, news: str | None, question: str
) -> str:
    """The customer's message for ``event``: its news (if any), then the quote question."""
    if news is None:
        return wording.customer_update(catalogue, event.data.object.id, [question])
    return f"{news}\n{question}"


def _asked(link: DeliveryLink, question: quote_question.Question | None) -> DeliveryLink:
    """``link`` as the news sees it: the question tells the fee, so the news does not."""
    if question is None:
        return link
    return dataclasses.replace(link, told=link.told | question.told)


def _view(event: WebhookEvent, told: frozenset[str]) -> ViewUpdate:
    """The chat's view after ``event``, with the facts its messages told."""
    delivery = event.data.object
    status, previous = delivery.status, event.data.previous_status
    # A partial body (``{ id, status }``) shows no fee nor rider: it moves the status only.
    details = None if delivery.is_partial else listed_details(delivery)
    return ViewUpdate(status, event.created, delivery.tracking_url, previous, told, details)


def _not_older(event: WebhookEvent, link: DeliveryLink) -> bool:
    """Whether ``store.deliveries.update_view`` will apply the event (same rule, read first)."""
    status = StatusEvent(event.data.object.status, event.created, event.data.previous_status)
    return moves_forward(link.shown, status)


def _finished(delivery: Delivery, link: DeliveryLink | None) -> bool:
    """A code for a delivery already delivered or cancelled has no one left to use it."""
    return delivery.status in FINAL_STATUSES or (link is not None and not link.is_open)
