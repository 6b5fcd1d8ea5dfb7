"""The emulator's Telegram HTML parser: what Telegram accepts, what it rejects and how it counts
(entity offsets in UTF-16, text length after parsing)."""

from __future__ import annotations

import pytest

from tests.emulator.html import (
    EntityParseError,
    command_entities,
    parse_html,
    strip_text,
    utf16_len,
)


def test_plain_text_and_entities():
    text, entities = parse_html("<b>Ход</b> игрока <i>Маши</i>: <code>6-6</code>")
    assert text == "Ход игрока Маши: 6-6"
    assert entities == [
        {"type": "bold", "offset": 0, "length": 3},
        {"type": "italic", "offset": 11, "length": 4},
        {"type": "code", "offset": 17, "length": 3},
    ]


def test_offsets_are_utf16_code_units():
    text, entities = parse_html("🁣 <b>x</b>")
    assert text == "🁣 x"
    assert entities == [{"type": "bold", "offset": 3, "length": 1}]
    assert utf16_len("🁣") == 2


def test_html_entities_decode_and_unknown_ones_stay():
    text, _ = parse_html("a &lt; b &amp;&amp; c &gt; d &quot;e&quot; &#1050;&#x43E; &nbsp; & x")
    assert text == 'a < b && c > d "e" Ко &nbsp; & x'


def test_nested_tags_links_spoilers_and_blockquotes():
    text, entities = parse_html(
        '<b>bold <i>both</i></b> <a href="https://t.me/kozel_test_bot?start=j1">join</a> '
        '<span class="tg-spoiler">s</span> <tg-spoiler>t</tg-spoiler> '
        "<blockquote expandable>q</blockquote> <pre><code class=\"language-py\">x</code></pre>")
    assert text == "bold both join s t q x"
    types = [e["type"] for e in entities]
    assert types == ["bold", "italic", "text_link", "spoiler", "spoiler",
                     "expandable_blockquote", "pre"]
    assert entities[2]["url"] == "https://t.me/kozel_test_bot?start=j1"
    assert entities[6]["language"] == "py"


def test_tag_names_are_case_insensitive_and_end_tag_may_be_empty():
    assert parse_html("<B>x</>")[0] == "x"


@pytest.mark.parametrize("html, reason", [
    ("<b>open", 'Can\'t find end tag corresponding to start tag "b"'),
    ("<b><i>x</b></i>", 'Unmatched end tag at byte offset 7, expected "</i>", found "</b>"'),
    ("x</b>", "Unexpected end tag at byte offset 1"),
    ("<blink>x</blink>", 'Unsupported start tag "blink" at byte offset 0'),
    ("a < b", 'Unsupported start tag "" at byte offset 2'),
    ("<b", "Unclosed start tag at byte offset 0"),
    ("<b>x</b", "Unclosed end tag at byte offset 4"),
    ('<a href="x>y</a>', "Unclosed start tag at byte offset 0"),
    ("<b class>x</b>", 'Expected equal sign in declaration of an attribute of the tag "b" at '
                       "byte offset 0"),
    ('<span class="x">y</span>', 'Tag "span" must have class "tg-spoiler" at byte offset 0'),
    ("Ход <x>", 'Unsupported start tag "x" at byte offset 7'),  # offsets count UTF-8 bytes
])
def test_rejects_what_telegram_rejects(html, reason):
    with pytest.raises(EntityParseError) as err:
        parse_html(html)
    assert str(err.value) == reason


def test_strip_shifts_entities():
    text, entities = strip_text("\n  <x>  ", [{"type": "bold", "offset": 3, "length": 5}])
    assert text == "<x>"
    assert entities == [{"type": "bold", "offset": 0, "length": 3}]


def test_command_entities():
    assert command_entities("/newgame") == [{"type": "bot_command", "offset": 0, "length": 8}]
    assert command_entities("/start@kozel_test_bot j12") == [
        {"type": "bot_command", "offset": 0, "length": 21}]
    assert command_entities("ход /hand и a/b") == [
        {"type": "bot_command", "offset": 4, "length": 5}]
    assert command_entities("no commands") == []
