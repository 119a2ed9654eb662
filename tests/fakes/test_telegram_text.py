"""parse_mode handling of the fake: plain text, entities in UTF-16 units, Telegram's errors."""

from __future__ import annotations

import pytest

from .telegram_text import parse_formatted
from .telegram_wire import BotApiError


def test_plain_text_has_no_entities() -> None:
    assert parse_formatted("5.00 * 2", None) == ("5.00 * 2", [])


def test_markdown_v2_entities_escapes_and_links() -> None:
    text, entities = parse_formatted(
        r"*Total:* 5\.00 € _for_ [track](https://t.example/a\)b) `x\`y`", "MarkdownV2"
    )

    assert text == "Total: 5.00 € for track x`y"
    assert entities == [
        {"type": "bold", "offset": 0, "length": 6},
        {"type": "italic", "offset": 14, "length": 3},
        {"type": "text_link", "offset": 18, "length": 5, "url": "https://t.example/a)b"},
        {"type": "code", "offset": 24, "length": 3},
    ]


def test_entity_offsets_count_utf16_units() -> None:
    text, entities = parse_formatted("📦 *box*", "MarkdownV2")

    assert text == "📦 box"
    assert entities == [{"type": "bold", "offset": 3, "length": 3}]  # the emoji is 2 units


def test_html_tags_entities_and_pre_language() -> None:
    text, entities = parse_formatted(
        '<b>Hi</b> &lt;you&gt; <a href="https://x.example">link</a>'
        '<pre><code class="language-python">1</code></pre>',
        "HTML",
    )

    assert text == "Hi <you> link1"
    assert entities == [
        {"type": "bold", "offset": 0, "length": 2},
        {"type": "text_link", "offset": 9, "length": 4, "url": "https://x.example"},
        {"type": "pre", "offset": 13, "length": 1, "language": "python"},
    ]


@pytest.mark.parametrize(
    ("text", "mode", "description"),
    [
        ("Price 5.00", "MarkdownV2", "Character '.' is reserved"),
        ("*bold", "MarkdownV2", "Can't find end of Bold entity at byte offset 0"),
        ("`code", "MarkdownV2", "Can't find end of Code entity"),
        ("<b>bold", "HTML", 'Can\'t find end tag corresponding to start tag "b"'),
        ("<b>x</i>", "HTML", "Unexpected end tag at byte offset 4"),
        ("<br>", "HTML", 'Unsupported start tag "br" at byte offset 0'),
        ("*bold", "Markdown", "Can't find end of the entity starting at byte offset 0"),
    ],
)
def test_bad_markup_is_refused_like_telegram(text: str, mode: str, description: str) -> None:
    with pytest.raises(BotApiError) as caught:
        parse_formatted(text, mode)

    assert caught.value.error_code == 400
    assert caught.value.description.startswith("Bad Request: can't parse entities: ")
    assert description in caught.value.description
