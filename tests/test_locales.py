"""The locale files: same keys and placeholders everywhere, valid HTML, plurals, game words.

Parsed with fluent.syntax, independently of ui.i18n, so a broken loader cannot hide a broken
file (issue 4, "Settings, languages").
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from fluent.syntax import FluentParser, ast
from fluent.syntax.visitor import Visitor

from ui.i18n import LOCALES_DIR, SUPPORTED_LOCALES, Translator

# Tags Telegram accepts in HTML parse mode.
TELEGRAM_TAGS = {
    "b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "a", "code", "pre",
    "tg-spoiler", "blockquote", "span", "tg-emoji",
}
# Keys shown as plain text (alerts, buttons, the command menu, the picture): no markup.
PLAIN_PREFIXES = ("err-", "btn-", "cmd-", "opt-", "settings-", "lang-name", "pic-")
PLAIN_EXCEPTIONS = {"settings-title", "settings-choose"}


def _entries(locale: str) -> dict[str, ast.Message | ast.Term]:
    parser = FluentParser(with_spans=False)
    out: dict[str, ast.Message | ast.Term] = {}
    files = sorted((LOCALES_DIR / locale).glob("*.ftl"))
    assert files, f"locale {locale} has no .ftl files"
    for path in files:
        resource = parser.parse(path.read_text(encoding="utf-8"))
        for entry in resource.body:
            assert not isinstance(entry, ast.Junk), f"{path}: junk {entry.content[:80]!r}"
            if isinstance(entry, ast.Message | ast.Term):
                key = ("-" if isinstance(entry, ast.Term) else "") + entry.id.name
                assert key not in out, f"{path}: {key} defined twice"
                out[key] = entry
    return out


class _Refs(Visitor):
    def __init__(self) -> None:
        super().__init__()
        self.variables: set[str] = set()
        self.messages: set[str] = set()
        self.terms: set[str] = set()

    def visit_VariableReference(self, node: ast.VariableReference) -> None:
        self.variables.add(node.id.name)

    def visit_MessageReference(self, node: ast.MessageReference) -> None:
        self.messages.add(node.id.name)

    def visit_TermReference(self, node: ast.TermReference) -> None:
        self.terms.add(node.id.name)


def _placeholders(entries: dict, key: str, seen: frozenset = frozenset()) -> set[str]:
    """Variables a message needs, following message references (which share arguments)."""
    refs = _Refs()
    refs.visit(entries[key])
    out = set(refs.variables)
    for ref in refs.messages:
        assert ref in entries, f"{key} references unknown message {ref}"
        if ref not in seen:
            out |= _placeholders(entries, ref, seen | {key})
    for term in refs.terms:
        assert "-" + term in entries, f"{key} references unknown term -{term}"
    return out


ENTRIES = {loc: _entries(loc) for loc in SUPPORTED_LOCALES}


def test_locale_directories_are_the_supported_ones():
    dirs = {p.name for p in Path(LOCALES_DIR).iterdir() if p.is_dir()}
    assert dirs == set(SUPPORTED_LOCALES)


@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_every_locale_has_every_key(locale):
    reference = set(ENTRIES["ru"])
    keys = set(ENTRIES[locale])
    assert keys - reference == set(), f"{locale} has extra keys"
    assert reference - keys == set(), f"{locale} misses keys"


@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_every_key_has_the_same_placeholders(locale):
    ru = ENTRIES["ru"]
    other = ENTRIES[locale]
    diffs = {
        key: (sorted(_placeholders(ru, key)), sorted(_placeholders(other, key)))
        for key in ru
        if key in other and _placeholders(ru, key) != _placeholders(other, key)
    }
    assert diffs == {}


@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_every_message_has_a_value(locale):
    assert [k for k, e in ENTRIES[locale].items() if e.value is None] == []


class _TagChecker(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.problems: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag not in TELEGRAM_TAGS:
            self.problems.append(f"tag <{tag}> is not supported by Telegram")
        self.stack.append(tag)

    def handle_endtag(self, tag):
        if not self.stack or self.stack.pop() != tag:
            self.problems.append(f"unbalanced </{tag}>")


def _sample_args(entries, key) -> dict:
    args = {}
    for name in _placeholders(entries, key):
        if name in {"name", "names", "chat", "tile", "tiles", "chain", "option", "label",
                    "score", "total", "url", "value", "code", "mode", "variant", "enabled",
                    "end", "reason", "fast", "sure", "persona"}:
            args[name] = "x"
        else:
            args[name] = 3
    return args


@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_html_is_balanced_and_plain_keys_have_no_markup(locale):
    tr = Translator(strict=True)
    problems = []
    for key in ENTRIES[locale]:
        if key.startswith("-"):
            continue
        text = tr.t(locale, key, **_sample_args(ENTRIES[locale], key))
        checker = _TagChecker()
        checker.feed(text)
        checker.close()
        if checker.stack:
            checker.problems.append(f"unclosed {checker.stack}")
        if key.startswith(PLAIN_PREFIXES) and key not in PLAIN_EXCEPTIONS:
            if re.search(r"<[a-z/]", text) or "&" in text:
                checker.problems.append("markup in a plain-text key")
        problems += [f"{key}: {p}" for p in checker.problems]
    assert problems == []


@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_telegram_length_limits_of_plain_texts(locale):
    """Alerts ≤ 200 chars, command descriptions 1..256, button labels short."""
    tr = Translator(strict=True)
    for key in ENTRIES[locale]:
        if key.startswith("-"):
            continue
        text = tr.plain(locale, key, **_sample_args(ENTRIES[locale], key))
        if key.startswith("err-"):
            assert 0 < len(text) <= 200, key
        if key.startswith("cmd-"):
            assert 1 <= len(text) <= 256 and "\n" not in text, key
        if key.startswith("btn-"):
            assert 0 < len(text) <= 40, key


@pytest.mark.parametrize(
    ("locale", "expected"),
    [
        ("ru", {0: "0 очков", 1: "1 очко", 2: "2 очка", 4: "4 очка", 5: "5 очков",
                11: "11 очков", 12: "12 очков", 21: "21 очко", 22: "22 очка", 101: "101 очко",
                111: "111 очков"}),
        ("uk", {0: "0 очок", 1: "1 очко", 2: "2 очки", 4: "4 очки", 5: "5 очок",
                11: "11 очок", 21: "21 очко", 22: "22 очки", 25: "25 очок"}),
        ("en", {0: "0 points", 1: "1 point", 2: "2 points", 5: "5 points", 21: "21 points"}),
    ],
)
def test_points_plural_forms(locale, expected):
    tr = Translator(strict=True)
    assert {n: tr.plain(locale, "points", count=n) for n in expected} == expected


@pytest.mark.parametrize(
    ("locale", "key", "forms"),
    [
        ("ru", "tiles", ("1 кость", "2 кости", "5 костей")),
        ("uk", "tiles", ("1 кістка", "2 кістки", "5 кісток")),
        ("en", "tiles", ("1 tile", "2 tiles", "5 tiles")),
        ("ru", "times", ("1 раз", "3 раза", "7 раз")),
        ("uk", "times", ("1 раз", "3 рази", "7 разів")),
        ("ru", "matches", ("1 партия", "2 партии", "5 партий")),
        ("uk", "players", ("1 гравець", "2 гравці", "5 гравців")),
    ],
)
def test_other_plurals(locale, key, forms):
    tr = Translator(strict=True)
    got = tuple(tr.plain(locale, key, count=int(f.split()[0])) for f in forms)
    assert got == forms


def test_match_limit_uses_the_genitive_after_do():
    tr = Translator(strict=True)
    def limit(locale, n, race="no", variant="classic"):
        return tr.plain(locale, "rules-limit", limit=n, race=race, variant=variant)

    assert "до 101 очка;" in limit("ru", 101)
    assert "до 125 очков;" in limit("ru", 125, variant="sea_goat")
    assert "до 101 очка;" in limit("uk", 101)
    assert "до 125 очок;" in limit("uk", 125)
    assert "Игра до 225 очков; кто первым наберёт — победил" == limit("ru", 225, "yes")
    assert limit("ru", 125, variant="sea_goat").endswith("морской козёл")
    assert limit("uk", 101, variant="donkey").endswith("осел")


@pytest.mark.parametrize(
    ("locale", "words"),
    [
        ("ru", ["Рыба", "базар", "козёл", "Яйца", "заход", "стучит", "Козлы"]),
        ("uk", ["Риба", "базар", "козел", "Яйця", "перший хід", "стукає", "Козли"]),
        ("en", ["Fish", "boneyard", "goat", "Pot", "leads", "knocked", "goats"]),
    ],
)
def test_game_words_of_rules_vocabulary(locale, words):
    """RULES.md §0: the locales use the game's own words."""
    tr = Translator(strict=True)
    texts = " ".join(
        tr.plain(locale, key, **_sample_args(ENTRIES[locale], key))
        for key in ENTRIES[locale]
        if not key.startswith("-")
    )
    texts += tr.plain(locale, "match-goat", count=2, names="x", variant="classic",
                      title="none", mark="🐐")
    missing = [w for w in words if w not in texts]
    assert missing == []
