"""Telegram's text rules: the HTML parse mode, entity offsets in UTF-16 and bot commands.

The parser follows the Bot API's HTML rules closely enough to reject what Telegram rejects:
only the supported tags (``b strong i em u ins s strike del a code pre tg-spoiler span
tg-emoji blockquote``), only the entities ``&lt; &gt; &amp; &quot;`` and numeric ones (any other
``&`` stays literal), every ``<`` must start a tag, tags must nest and close in order.  The
error texts are those of the Bot API (after "Bad Request: can't parse entities: ").
"""

from __future__ import annotations

import re

__all__ = [
    "EntityParseError",
    "command_entities",
    "parse_html",
    "strip_text",
    "utf16_len",
]

_TAGS = {
    "b": "bold", "strong": "bold",
    "i": "italic", "em": "italic",
    "u": "underline", "ins": "underline",
    "s": "strikethrough", "strike": "strikethrough", "del": "strikethrough",
    "a": "text_link",
    "code": "code",
    "pre": "pre",
    "tg-spoiler": "spoiler", "span": "spoiler",
    "tg-emoji": "custom_emoji",
    "blockquote": "blockquote",
}
_NAMED = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}
_SPACE = " \t\r\n\f\v"
_COMMAND = re.compile(r"(?<![\w/@])/[A-Za-z0-9_]{1,64}(?:@[A-Za-z0-9_]{3,32})?(?![\w@/])")


class EntityParseError(ValueError):
    """The text is not valid in the requested parse mode; ``str()`` is Telegram's reason."""


def utf16_len(text: str) -> int:
    """Length of ``text`` in UTF-16 code units, the unit of Telegram's entity offsets."""
    return len(text.encode("utf-16-le")) // 2


def _decode_entity(text: str, i: int) -> tuple[str, int] | None:
    """Decode an HTML entity starting at ``text[i] == '&'``: (character, index after it)."""
    end = text.find(";", i + 1, i + 12)
    if end < 0:
        return None
    name = text[i + 1:end]
    if name in _NAMED:
        return _NAMED[name], end + 1
    if name.startswith("#"):
        digits = name[1:]
        try:
            code = int(digits[1:], 16) if digits[:1] in ("x", "X") else int(digits, 10)
        except ValueError:
            return None
        if 0 < code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF:
            return chr(code), end + 1
    return None


def _byte_offset(text: str, i: int) -> int:
    return len(text[:i].encode("utf-8"))


def parse_html(text: str) -> tuple[str, list[dict]]:
    """Parse Telegram HTML into plain text and a list of entity dicts (offsets in UTF-16).

    Raises :class:`EntityParseError` with the Bot API's message for unsupported or unbalanced
    tags, a bare ``<``, or a malformed attribute.
    """
    return _Parser(text).run()


class _Parser:
    """One pass over a text in Telegram HTML (:func:`parse_html`)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.n = len(text)
        self.out: list[str] = []
        self.out_len = 0  # UTF-16 length of what is in ``out``
        self.stack: list[tuple[str, dict, int]] = []  # (tag, entity, start offset)
        self.entities: list[dict] = []

    def _at(self, i: int) -> int:
        return _byte_offset(self.text, i)

    def run(self) -> tuple[str, list[dict]]:
        text, i = self.text, 0
        while i < self.n:
            c = text[i]
            if c == "&":
                decoded = _decode_entity(text, i)
                if decoded is not None:
                    ch, i = decoded
                    self.out.append(ch)
                    self.out_len += utf16_len(ch)
                    continue
            if c != "<":
                self.out.append(c)
                self.out_len += 2 if ord(c) > 0xFFFF else 1
                i += 1
                continue
            if i + 1 < self.n and text[i + 1] == "/":
                i = self._end_tag(i)
            else:
                i = self._start_tag(i)
        if self.stack:
            raise EntityParseError(
                f'Can\'t find end tag corresponding to start tag "{self.stack[-1][0]}"')
        plain = "".join(self.out)
        entities = [e for e in self.entities
                    if not e.pop("merged", False)
                    and not (e["type"] == "text_link" and not e["url"])]
        entities.sort(key=lambda e: (e["offset"], -e["length"]))
        return plain, entities

    def _end_tag(self, begin: int) -> int:
        """An end tag at ``begin``: close the innermost entity; the index after the tag."""
        text, n = self.text, self.n
        if not self.stack:
            raise EntityParseError(f"Unexpected end tag at byte offset {self._at(begin)}")
        i = begin + 1
        j = i + 1
        while j < n and text[j] not in _SPACE and text[j] != ">":
            j += 1
        name = text[i + 1:j].lower()
        while j < n and text[j] in _SPACE:
            j += 1
        if j >= n or text[j] != ">":
            raise EntityParseError(f"Unclosed end tag at byte offset {self._at(begin)}")
        tag, entity, start = self.stack.pop()
        if name and name != tag:
            raise EntityParseError(
                f"Unmatched end tag at byte offset {self._at(begin)}, "
                f'expected "</{tag}>", found "</{name}>"')
        if self.out_len > start:
            entity["offset"] = start
            entity["length"] = self.out_len - start
            self.entities.append(entity)
        return j + 1

    def _start_tag(self, begin: int) -> int:
        """A start tag at ``begin``: open its entity; the index after the tag."""
        text, n = self.text, self.n
        i = j = begin + 1
        while j < n and text[j] not in _SPACE and text[j] != ">":
            j += 1
        if j >= n:
            raise EntityParseError(f"Unclosed start tag at byte offset {self._at(begin)}")
        tag = text[i:j].lower()
        if tag not in _TAGS:
            raise EntityParseError(
                f'Unsupported start tag "{tag}" at byte offset {self._at(begin)}')
        attrs, flags, j = self._attributes(tag, begin, j)
        self.stack.append((tag, self._entity(tag, begin, attrs, flags), self.out_len))
        return j + 1

    def _attributes(self, tag: str, begin: int, j: int) -> tuple[dict[str, str], set[str], int]:
        """The attributes of a start tag from ``j``: (values, bare flags, index of ``>``)."""
        text, n = self.text, self.n
        attrs: dict[str, str] = {}
        flags: set[str] = set()
        while True:
            while j < n and text[j] in _SPACE:
                j += 1
            if j >= n:
                raise EntityParseError(f"Unclosed start tag at byte offset {self._at(begin)}")
            if text[j] == ">":
                return attrs, flags, j
            a0 = j
            while j < n and text[j] not in _SPACE and text[j] not in "=>":
                j += 1
            attr = text[a0:j].lower()
            if not attr:
                raise EntityParseError(f'Empty attribute name in the tag "{tag}" at byte offset '
                                       f"{self._at(begin)}")
            while j < n and text[j] in _SPACE:
                j += 1
            if j >= n or text[j] != "=":
                if tag == "blockquote" and attr == "expandable":
                    flags.add(attr)
                    continue
                raise EntityParseError(
                    f'Expected equal sign in declaration of an attribute of the tag "{tag}" '
                    f"at byte offset {self._at(begin)}")
            j += 1
            while j < n and text[j] in _SPACE:
                j += 1
            if j >= n:
                raise EntityParseError(f"Unclosed start tag at byte offset {self._at(begin)}")
            attrs[attr], j = self._value(begin, j)

    def _value(self, begin: int, j: int) -> tuple[str, int]:
        """An attribute's value from ``j``, quoted or bare: (value, index after it)."""
        text, n = self.text, self.n
        if text[j] in "'\"":
            quote = text[j]
            j += 1
            value: list[str] = []
            while j < n and text[j] != quote:
                if text[j] == "&":
                    decoded = _decode_entity(text, j)
                    if decoded is not None:
                        value.append(decoded[0])
                        j = decoded[1]
                        continue
                value.append(text[j])
                j += 1
            if j >= n:
                raise EntityParseError(f"Unclosed start tag at byte offset {self._at(begin)}")
            return "".join(value), j + 1
        v0 = j
        while j < n and (text[j].isalnum() or text[j] in ".-"):
            j += 1
        if j >= n or (text[j] not in _SPACE and text[j] != ">"):
            raise EntityParseError(
                f"Unexpected end of name token at byte offset {self._at(v0)}")
        return text[v0:j].lower(), j

    def _entity(self, tag: str, begin: int, attrs: dict[str, str], flags: set[str]) -> dict:
        """The entity a start tag opens."""
        entity: dict = {"type": _TAGS[tag]}
        if tag == "a":
            entity["url"] = attrs.get("href", "")
        elif tag == "span" and attrs.get("class") != "tg-spoiler":
            raise EntityParseError(f'Tag "span" must have class "tg-spoiler" at byte offset '
                                   f"{self._at(begin)}")
        elif tag == "tg-emoji":
            entity["custom_emoji_id"] = attrs.get("emoji-id", "")
        elif tag == "blockquote" and "expandable" in flags:
            entity["type"] = "expandable_blockquote"
        elif tag == "code" and self.stack and self.stack[-1][0] == "pre":
            # <pre><code class="language-x"> is one pre entity with a language
            cls = attrs.get("class", "")
            if cls.startswith("language-"):
                self.stack[-1][1]["language"] = cls[len("language-"):]
            entity["merged"] = True
        return entity


def strip_text(text: str, entities: list[dict]) -> tuple[str, list[dict]]:
    """Trim surrounding whitespace as Telegram does, shifting and clipping the entities."""
    stripped = text.strip()
    if stripped == text:
        return text, entities
    lead = utf16_len(text[:len(text) - len(text.lstrip())])
    total = utf16_len(stripped)
    kept = []
    for e in entities:
        start = max(e["offset"] - lead, 0)
        end = min(e["offset"] + e["length"] - lead, total)
        if end > start:
            kept.append({**e, "offset": start, "length": end - start})
    return stripped, kept


def command_entities(text: str) -> list[dict]:
    """``bot_command`` entities for every ``/command`` or ``/command@bot`` in ``text``."""
    return [
        {"type": "bot_command", "offset": utf16_len(text[:m.start()]),
         "length": utf16_len(m.group(0))}
        for m in _COMMAND.finditer(text)
    ]
