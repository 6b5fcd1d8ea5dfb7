"""ui.i18n: loading, fallback, escaping and the language choice."""

from __future__ import annotations

import pytest

from ui.i18n import (
    DEFAULT_LOCALE,
    Markup,
    MissingTranslation,
    Translator,
    choose_locale,
    get_translator,
    normalize_locale,
    t,
)


def _write(tmp_path, files: dict[str, str]):
    for rel, text in files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp_path


def test_missing_key_falls_back_to_default_locale(tmp_path):
    d = _write(tmp_path, {
        "ru/a.ftl": "hello = Привет, { $name }!\nonly-ru = только тут\n",
        "en/a.ftl": "hello = Hello, { $name }!\n",
    })
    tr = Translator(d, default="ru", locales=("ru", "en"), strict=True)
    assert tr.t("en", "hello", name="Bob") == "Hello, Bob!"
    assert tr.t("en", "only-ru") == "только тут"
    assert tr.has("ru", "only-ru") and not tr.has("en", "only-ru")


def test_unknown_locale_uses_default(tmp_path):
    d = _write(tmp_path, {"ru/a.ftl": "k = ру\n", "en/a.ftl": "k = en\n"})
    tr = Translator(d, default="en", locales=("ru", "en"))
    assert tr.t("de", "k") == "en"
    assert tr.t(None, "k") == "en"
    assert tr.resolve("ru") == "ru" and tr.resolve("fr") == "en"


def test_unknown_key_strict_raises_lenient_returns_key(tmp_path):
    d = _write(tmp_path, {"ru/a.ftl": "k = v\n"})
    with pytest.raises(MissingTranslation):
        Translator(d, default="ru", locales=("ru",), strict=True).t("ru", "nope")
    assert Translator(d, default="ru", locales=("ru",)).t("ru", "nope") == "nope"


def test_missing_argument_strict_raises(tmp_path):
    d = _write(tmp_path, {"ru/a.ftl": "k = { $name }\n"})
    tr = Translator(d, default="ru", locales=("ru",), strict=True)
    with pytest.raises(MissingTranslation, match="name"):
        tr.t("ru", "k")


def test_syntax_error_and_duplicate_key_fail_at_load(tmp_path):
    bad = _write(tmp_path / "bad", {"ru/a.ftl": "k = { $x\n"})
    with pytest.raises(ValueError, match="syntax"):
        Translator(bad, default="ru", locales=("ru",))
    dup = _write(tmp_path / "dup", {"ru/a.ftl": "k = 1\n", "ru/b.ftl": "k = 2\n"})
    with pytest.raises(ValueError, match="twice"):
        Translator(dup, default="ru", locales=("ru",))
    with pytest.raises(FileNotFoundError):
        Translator(tmp_path / "empty", default="ru", locales=("ru",))


def test_default_must_be_a_loaded_locale(tmp_path):
    d = _write(tmp_path, {"ru/a.ftl": "k = v\n"})
    with pytest.raises(ValueError):
        Translator(d, default="en", locales=("ru",))


def test_t_escapes_str_arguments_but_not_markup_or_plain(tmp_path):
    d = _write(tmp_path, {"ru/a.ftl": "k = <b>{ $name }</b>\n"})
    tr = Translator(d, default="ru", locales=("ru",), strict=True)
    assert tr.t("ru", "k", name="<i>Bob</i> & Co") == "<b>&lt;i&gt;Bob&lt;/i&gt; &amp; Co</b>"
    assert tr.t("ru", "k", name=Markup("<i>Bob</i>")) == "<b><i>Bob</i></b>"
    assert tr.plain("ru", "k", name="<Bob>") == "<b><Bob></b>"


def test_no_bidi_isolation_marks_around_arguments():
    tr = Translator(strict=True)
    text = tr.t("ru", "lobby-seat", seat=1, name="Оля")
    assert text == "1. Оля"


def test_real_locales_load_and_module_shortcut():
    assert t("uk", "points", count=2) == "2 очки"
    assert get_translator() is get_translator()
    assert get_translator().default == DEFAULT_LOCALE


@pytest.mark.parametrize(
    ("code", "expected"),
    [("ru", "ru"), ("ru-RU", "ru"), ("uk", "uk"), ("uk-UA", "uk"), ("UA", "uk"),
     ("en", "en"), ("en_GB", "en"), ("be", "ru"), ("de", None), ("", None), (None, None)],
)
def test_normalize_locale(code, expected):
    assert normalize_locale(code) == expected


def test_choose_locale_group_uses_chat_setting_only():
    assert choose_locale(is_group=True, chat_locale="uk", user_locale="en",
                         telegram_code="en") == "uk"
    assert choose_locale(is_group=True, user_locale="en", telegram_code="en",
                         default="ru") == "ru"


def test_choose_locale_private_prefers_user_choice_then_telegram_then_default():
    assert choose_locale(is_group=False, user_locale="en", telegram_code="uk") == "en"
    assert choose_locale(is_group=False, user_locale=None, telegram_code="uk-UA") == "uk"
    assert choose_locale(is_group=False, telegram_code="de", default="en") == "en"
    assert choose_locale(is_group=False, chat_locale="uk") == DEFAULT_LOCALE
    assert choose_locale(is_group=False, default="xx") == DEFAULT_LOCALE


def test_formatted_texts_are_remembered_but_not_fallbacks(tmp_path, monkeypatch):
    """The table repeats most of its lines after every move: a text formatted once is not
    formatted again; one that fell back to another locale is (and warns each time)."""
    d = _write(tmp_path, {
        "ru/a.ftl": "hello = Привет, { $name }!\n",
        "en/a.ftl": "hello = Hello, { $name }!\nbye = Bye\n",
    })
    tr = Translator(d, default="en", locales=("ru", "en"))
    calls = []
    for bundle in tr._bundles.values():
        real = bundle.format_pattern
        monkeypatch.setattr(bundle, "format_pattern",
                            lambda p, a, real=real: calls.append(a) or real(p, a))
    assert tr.t("ru", "hello", name="<Оля>") == "Привет, &lt;Оля&gt;!"
    assert tr.t("ru", "hello", name="<Оля>") == "Привет, &lt;Оля&gt;!"
    assert tr.plain("ru", "hello", name="<Оля>") == "Привет, <Оля>!"
    assert tr.t("ru", "hello", name="Петя") == "Привет, Петя!"
    assert len(calls) == 3
    assert tr.t("ru", "bye") == tr.t("ru", "bye") == "Bye"  # from en: not remembered
    assert len(calls) == 5


def test_a_games_own_key_comes_before_the_generic_one_and_tests_may_add_texts(tmp_path):
    """A game's texts are keys named after it (``<key>-<variant>``) with the generic key as
    the fallback (docs/ENGINE_API.md, "Adding a variant"); a Fluent text given to a
    translator (``extra``) joins its locale, and may not redefine a key."""
    d = _write(tmp_path, {"ru/a.ftl": "mark-table = { $count }\nmark-table-seven = палки\n",
                          "en/a.ftl": "mark-table = { $count }\n"})
    tr = Translator(d, locales=("ru", "en"), strict=True)
    assert tr.pick("ru", "mark-table-seven", "mark-table") == "mark-table-seven"
    assert tr.pick("en", "mark-table-seven", "mark-table") == "mark-table-seven"  # ru's
    assert tr.pick("ru", "mark-table-toy", "mark-table") == "mark-table"
    assert tr.t("ru", "mark-table", count=2) == "2"
    tr = Translator(d, locales=("ru", "en"), strict=True,
                    extra={"ru": "mark-table-toy = шишки: { $count }\n"})
    assert tr.pick("ru", "mark-table-toy", "mark-table") == "mark-table-toy"
    assert tr.t("ru", "mark-table-toy", count=1) == "шишки: 1"
    with pytest.raises(ValueError, match="defined twice"):
        Translator(d, locales=("ru", "en"), extra={"ru": "mark-table = again\n"})
    with pytest.raises(ValueError, match="syntax error"):
        Translator(d, locales=("ru", "en"), extra={"en": "mark-oops = { $\n"})
