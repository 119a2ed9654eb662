"""Formatted text the way Telegram reads it: ``parse_mode`` markup into plain text + entities.

The fake parses what the bot sends so that markup Telegram would reject (an unescaped ``.`` in
MarkdownV2, an unknown HTML tag, an unclosed ``<b>``) is rejected here too, with Telegram's
``can't parse entities`` error, and so that the echoed Message carries plain ``text`` and
``entities`` like the real one. Entity offsets and lengths count UTF-16 code units; error
offsets count UTF-8 bytes, as Telegram's do.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .telegram_wire import BotApiError, bad_request

MAX_MESSAGE_LENGTH = 4096
MAX_CAPTION_LENGTH = 1024

_HTML_TAGS = {
    "b": "bold",
    "strong": "bold",
    "i": "italic",
    "em": "italic",
    "u": "underline",
    "ins": "underline",
    "s": "strikethrough",
    "strike": "strikethrough",
    "del": "strikethrough",
    "tg-spoiler": "spoiler",
    "span": "spoiler",
    "a": "text_link",
    "code": "code",
    "pre": "pre",
    "blockquote": "blockquote",
}
_HTML_NAMED = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}
_HTML_REFERENCE = re.compile(r"&(?:#(\d+)|#x([0-9a-fA-F]+)|([a-zA-Z]+));")
_HTML_TAG = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^>]*)?)>")
_HTML_ATTRIBUTE = re.compile(r'([a-zA-Z-]+)\s*=\s*(?:"([^"]*)"|\'([^\']*)\'|([^\s>]+))')
_MARKDOWN_V2_RESERVED = set("_*[]()~`>#+-=|{}.!")
_MARKDOWN_V2_NAMES = {
    "bold": "Bold",
    "italic": "Italic",
    "underline": "Underline",
    "strikethrough": "Strikethrough",
    "spoiler": "Spoiler",
    "text_link": "TextUrl",
}


def utf16_length(text: str) -> int:
    """Length in UTF-16 code units, the unit of entity offsets."""
    return len(text.encode("utf-16-le")) // 2


@dataclass
class _Builder:
    source: str
    parts: list[str] = field(default_factory=list)
    entities: list[dict[str, Any]] = field(default_factory=list)
    _length: int = 0

    def append(self, text: str) -> None:
        self.parts.append(text)
        self._length += utf16_length(text)

    @property
    def offset(self) -> int:
        return self._length

    def entity(self, kind: str, start: int, **extra: Any) -> None:
        if self._length > start:
            self.entities.append(
                {"type": kind, "offset": start, "length": self._length - start, **extra}
            )

    def byte_offset(self, index: int) -> int:
        return len(self.source[:index].encode("utf-8"))

    def result(self) -> tuple[str, list[dict[str, Any]]]:
        self.entities.sort(key=lambda item: (item["offset"], -item["length"]))
        return "".join(self.parts), self.entities


def parse_formatted(text: str, parse_mode: str | None) -> tuple[str, list[dict[str, Any]]]:
    """Return ``(plain_text, entities)`` or raise Telegram's ``can't parse entities`` error."""
    mode = (parse_mode or "").lower()
    if mode == "":
        return text, []
    if mode == "html":
        return _parse_html(text)
    if mode == "markdownv2":
        return _parse_markdown_v2(text)
    if mode == "markdown":
        return _parse_markdown_legacy(text)
    raise bad_request(f"unsupported parse_mode {parse_mode}")


def _cant_parse(detail: str) -> BotApiError:
    return bad_request(f"can't parse entities: {detail}")


def _parse_html(text: str) -> tuple[str, list[dict[str, Any]]]:
    out = _Builder(text)
    open_tags: list[tuple[str, int, dict[str, str]]] = []
    index = 0
    while index < len(text):
        char = text[index]
        if char == "&":
            match = _HTML_REFERENCE.match(text, index)
            decoded = _html_reference(match) if match else None
            out.append(decoded if decoded is not None else "&")
            index = match.end() if match and decoded is not None else index + 1
        elif char == "<":
            match = _HTML_TAG.match(text, index)
            if match is None:
                raise _cant_parse(
                    f"Unexpected end of name token at byte offset {out.byte_offset(index)}"
                )
            closing, name = match.group(1) == "/", match.group(2).lower()
            if closing:
                if not open_tags or open_tags[-1][0] != name:
                    raise _cant_parse(f"Unexpected end tag at byte offset {out.byte_offset(index)}")
                _close_html_tag(out, *open_tags.pop(), open_tags)
            else:
                attributes = {
                    key.lower(): next(v for v in values if v is not None)
                    for key, *values in _HTML_ATTRIBUTE.findall(match.group(3))
                }
                if name not in _HTML_TAGS or (
                    name == "span" and attributes.get("class") != "tg-spoiler"
                ):
                    raise _cant_parse(
                        f'Unsupported start tag "{name}" at byte offset {out.byte_offset(index)}'
                    )
                open_tags.append((name, out.offset, attributes))
            index = match.end()
        else:
            out.append(char)
            index += 1
    if open_tags:
        raise _cant_parse(f'Can\'t find end tag corresponding to start tag "{open_tags[-1][0]}"')
    return out.result()


def _html_reference(match: re.Match[str]) -> str | None:
    decimal, hexadecimal, name = match.groups()
    if decimal is not None:
        return chr(int(decimal))
    if hexadecimal is not None:
        return chr(int(hexadecimal, 16))
    return _HTML_NAMED.get(name)


def _close_html_tag(
    out: _Builder,
    name: str,
    start: int,
    attributes: dict[str, str],
    outer: list[tuple[str, int, dict[str, str]]],
) -> None:
    kind = _HTML_TAGS[name]
    if kind == "text_link":
        out.entity("text_link", start, url=attributes.get("href", ""))
    elif kind == "code" and outer and outer[-1][0] == "pre":
        # <pre><code class="language-x"> is one pre entity carrying the language.
        language = attributes.get("class", "").removeprefix("language-")
        outer[-1][2]["language"] = language
    elif kind == "pre" and attributes.get("language"):
        out.entity("pre", start, language=attributes["language"])
    else:
        out.entity(kind, start)


def _parse_markdown_v2(text: str) -> tuple[str, list[dict[str, Any]]]:
    out = _Builder(text)
    open_marks: list[tuple[str, int, int]] = []  # (kind, text offset, source index)
    index = 0
    while index < len(text):
        char = text[index]
        if char == "\\" and index + 1 < len(text) and 0 < ord(text[index + 1]) < 127:
            out.append(text[index + 1])
            index += 2
        elif char == "`":
            index = _markdown_v2_code(text, index, out)
        elif text.startswith(("__", "||"), index) or char in "*_~":
            mark = text[index : index + 2] if text.startswith(("__", "||"), index) else char
            kind = {"*": "bold", "_": "italic", "__": "underline", "~": "strikethrough"}.get(
                mark, "spoiler"
            )
            if open_marks and open_marks[-1][0] == kind:
                out.entity(kind, open_marks.pop()[1])
            else:
                open_marks.append((kind, out.offset, index))
            index += len(mark)
        elif char == "[":
            open_marks.append(("text_link", out.offset, index))
            index += 1
        elif char == "]" and open_marks and open_marks[-1][0] == "text_link":
            _, start, _ = open_marks.pop()
            url, index = _markdown_v2_url(text, index + 1, out)
            out.entity("text_link", start, url=url)
        elif char == ">" and (index == 0 or text[index - 1] == "\n"):
            line_end = text.find("\n", index)
            line_end = len(text) if line_end == -1 else line_end
            start = out.offset
            nested = _parse_markdown_v2(text[index + 1 : line_end])
            base = out.offset
            out.append(nested[0])
            for entity in nested[1]:
                out.entities.append({**entity, "offset": entity["offset"] + base})
            out.entity("blockquote", start)
            index = line_end
        elif char in _MARKDOWN_V2_RESERVED:
            raise _cant_parse(
                f"Character '{char}' is reserved and must be escaped with the preceding '\\'"
            )
        else:
            out.append(char)
            index += 1
    if open_marks:
        kind, _, source_index = open_marks[-1]
        raise _cant_parse(
            f"Can't find end of {_MARKDOWN_V2_NAMES[kind]} entity at byte offset "
            f"{out.byte_offset(source_index)}"
        )
    return out.result()


def _markdown_v2_code(text: str, index: int, out: _Builder) -> int:
    fence = "```" if text.startswith("```", index) else "`"
    body_start = index + len(fence)
    language = ""
    if fence == "```":
        newline = text.find("\n", body_start)
        first_line = text[body_start:newline] if newline != -1 else ""
        if newline != -1 and re.fullmatch(r"[\w+-]*", first_line):
            language, body_start = first_line, newline + 1
    cursor, start = body_start, out.offset
    while cursor < len(text) and not text.startswith(fence, cursor):
        if text[cursor] == "\\" and cursor + 1 < len(text):
            cursor += 1
        out.append(text[cursor])
        cursor += 1
    if cursor >= len(text):
        name = "Pre" if fence == "```" else "Code"
        raise _cant_parse(
            f"Can't find end of {name} entity at byte offset {out.byte_offset(index)}"
        )
    if fence == "```":
        out.entity("pre", start, **({"language": language} if language else {}))
    else:
        out.entity("code", start)
    return cursor + len(fence)


def _markdown_v2_url(text: str, index: int, out: _Builder) -> tuple[str, int]:
    if not text.startswith("(", index):
        raise _cant_parse(f"Can't find end of a URL at byte offset {out.byte_offset(index)}")
    cursor, url = index + 1, []
    while cursor < len(text) and text[cursor] != ")":
        if text[cursor] == "\\" and cursor + 1 < len(text):
            cursor += 1
        url.append(text[cursor])
        cursor += 1
    if cursor >= len(text):
        raise _cant_parse(f"Can't find end of a URL at byte offset {out.byte_offset(index)}")
    return "".join(url), cursor + 1


def _parse_markdown_legacy(text: str) -> tuple[str, list[dict[str, Any]]]:
    out = _Builder(text)
    index = 0
    closers = {"*": "bold", "_": "italic", "`": "code"}
    while index < len(text):
        char = text[index]
        if char == "\\" and index + 1 < len(text) and text[index + 1] in "*_`[":
            out.append(text[index + 1])
            index += 2
        elif char in closers or char == "[":
            closer = "]" if char == "[" else ("```" if text.startswith("```", index) else char)
            body_start = index + len(closer)
            end = text.find(closer, body_start)
            if end == -1:
                raise _cant_parse(
                    f"Can't find end of the entity starting at byte offset {out.byte_offset(index)}"
                )
            start = out.offset
            out.append(text[body_start:end])
            index = end + len(closer)
            if char == "[":
                url, index = _markdown_v2_url(text, index, out)
                out.entity("text_link", start, url=url)
            else:
                out.entity("pre" if closer == "```" else closers[char], start)
        else:
            out.append(char)
            index += 1
    return out.result()
