"""The relay's news on WhatsApp (``WhatsAppNews``) through the fake Cloud API: a plain message
inside the customer-service window, the approved template outside it in the customer's
language, questions as reply buttons, a person's answer as the reply template."""

from __future__ import annotations

from bot.relay.asking import Asking, Choice
from bot.whatsapp.news import (
    news_template,
    one_line,
    reply_template,
    template_language,
    text_pieces,
)
from bot.whatsapp.outgoing import MAX_TEMPLATE_PARAMETER, TemplateMessage
from bot.whatsapp.windows import WINDOW_SECONDS
from conversations.texts.deliveries_texts import short_ref
from tests.whatsapp_fake.cloud_fixtures import CUSTOMER

from .conftest import CHAT, DELIVERY, TEMPLATES, Sending

REF = short_ref(DELIVERY)
NEWS = f"Delivery {REF}\nYour rider Musa is on the way.\n\tThe fee is NGN 2,600."


def test_the_news_in_one_line_leaves_out_its_heading_and_fits_a_template_parameter() -> None:
    message = news_template(TEMPLATES.news, "fr", DELIVERY, NEWS)
    assert message == TemplateMessage(
        "delivery_update",
        "fr",
        (REF, "Your rider Musa is on the way. The fee is NGN 2,600."),
    )
    long = one_line("word    " * 400)
    assert len(long) == MAX_TEMPLATE_PARAMETER and long.endswith("…")
    assert reply_template(TEMPLATES.reply, None, "Hi\n\nthere").parameters == ("Hi there",)


def test_a_template_goes_in_the_customers_language_when_approved_in_it_else_its_first() -> None:
    assert template_language(TEMPLATES.news, "fr") == "fr"
    assert template_language(TEMPLATES.news, "de") == "en"
    assert template_language(TEMPLATES.news, None) == "en"
    assert template_language(TEMPLATES.reply, "en") == "en_GB"  # the same language elsewhere


def test_a_long_text_goes_in_pieces_cut_between_lines() -> None:
    text = "\n".join(["x" * 3000, "y" * 3000])
    assert text_pieces(text) == ["x" * 3000, "y" * 3000]
    assert text_pieces("z" * 5000) == ["z" * 4096, "z" * 904]


async def test_inside_the_window_the_news_is_a_plain_message_recorded_by_its_id(
    sending: Sending,
) -> None:
    await sending.ordered()
    await sending.customer_wrote()

    assert await sending.news.send(CHAT, NEWS) is None

    [seen] = sending.fake.sent_to(CUSTOMER)
    assert (seen.kind, seen.text) == ("text", NEWS)
    record = await sending.store.whatsapp_sent.get(seen.message_id)
    assert record is not None
    assert (record.kind, record.reference, record.body) == ("news", DELIVERY, NEWS)


async def test_outside_the_window_the_news_is_the_template_in_the_customers_language(
    sending: Sending,
) -> None:
    await sending.ordered(language="fr")
    await sending.customer_wrote()
    sending.clock.advance(WINDOW_SECONDS + 60)

    await sending.news.send(CHAT, NEWS)

    [seen] = sending.fake.sent_to(CUSTOMER)
    assert (seen.kind, seen.template, seen.language) == ("template", "delivery_update", "fr")
    assert seen.parameters == (REF, "Your rider Musa is on the way. The fee is NGN 2,600.")
    assert sending.fake.refusals == {}


async def test_a_question_is_asked_with_reply_buttons_or_with_the_words_to_type(
    sending: Sending,
) -> None:
    await sending.ordered()
    await sending.customer_wrote()
    two = Asking(
        (Choice("Keep the order", f"quote keep {REF}"), Choice("Cancel it", f"quote no {REF}")),
        "Or type: keep, or cancel.",
    )
    four = Asking(tuple(Choice(f"Choice {n}", f"c{n}") for n in range(4)), "Type 1 to 4.")

    await sending.news.ask(CHAT, f"Delivery {REF}: the price is NGN 3,000.", two)
    await sending.news.ask(CHAT, f"Delivery {REF}: pick one.", four)

    buttons, typed = sending.fake.sent_to(CUSTOMER)
    assert buttons.kind == "buttons" and buttons.titles() == ["Keep the order", "Cancel it"]
    assert buttons.offered_titled("Cancel it").reply_id == f"quote no {REF}"
    assert typed.kind == "text" and typed.text.endswith("Type 1 to 4.")


async def test_a_persons_answer_outside_the_window_goes_as_the_reply_template(
    sending: Sending,
) -> None:
    await sending.news.reply(CHAT, "We found your parcel.\nIt leaves today.", language="en")

    [seen] = sending.fake.sent_to(CUSTOMER)
    assert (seen.template, seen.language) == ("support_reply", "en_GB")
    assert seen.parameters == ("We found your parcel. It leaves today.",)


async def test_the_drop_off_codes_link_is_the_business_numbers_wa_me_chat(
    sending: Sending,
) -> None:
    link = sending.news.otp_link("T" * 24)
    assert link == (
        "https://wa.me/23417000000?text=Please%20send%20me%20my%20drop-off%20code%20otp_" + "T" * 24
    )
