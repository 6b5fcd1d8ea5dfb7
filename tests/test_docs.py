"""The documentation stays true and complete in a clone (issue 20, item 16): the README is a
five-minute read for a group's admin, every relative link of the README and of ``docs/``
leads to a file of the repository (a clone has no ``../shared``), the README's command table
is the bot's menus, its two set-up commands do what it says, no text the bot sends names a
file outside the repository, and with ``RULES_URL`` set /rules links to the rule book
(``docs/RULES.md``) at the game's section."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

from tests.botkit import Harness, Person
from ui.commands import GROUP_COMMANDS, PRIVATE_COMMANDS

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = (README, *sorted((ROOT / "docs").glob("*.md")))
#: ``[text](target)`` and ``![alt](target)``, with an optional title.
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)

#: A five-minute read: 1,250 words of prose at 250 words a minute. Tables (the games, the
#: commands) are looked up rather than read and are not counted; the byte limit keeps them,
#: and transcripts, from growing the page instead (Cyrillic takes two bytes a letter).
README_PROSE_WORDS = 1250
README_BYTES = 15_000
#: A group's admin reads the README (issue 30 item 17): at most 1,200 words in all, tables
#: and commands included (as ``wc -w`` counts them); what operators and contributors need
#: lives in ``docs/``.
README_WORDS = 1200


def _prose(text: str) -> str:
    """``text`` without its fenced code blocks."""
    return FENCE.sub("", text)


def _slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as ``-``."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    return {_slug(m) for m in re.findall(r"^#+ (.+)$", _prose(path.read_text("utf-8")), re.M)}


def _section(text: str, title: str) -> str:
    """The body of the ``## title`` section, up to the next heading of that level."""
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start:end if end >= 0 else len(text)]


def test_every_relative_link_leads_to_a_file_of_the_repository():
    links = set()
    for doc in DOCS:
        text = doc.read_text("utf-8")
        assert "../shared" not in text and "/shared/" not in text, doc.name
        for target in LINK.findall(_prose(text)):
            if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto:
                continue
            path, _, anchor = target.partition("#")
            dest = (doc.parent / path).resolve() if path else doc
            where = f"{doc.relative_to(ROOT)}: {target}"
            assert dest.is_relative_to(ROOT) and dest.is_file(), where
            if anchor:
                assert dest.suffix == ".md" and anchor in _anchors(dest), where
            links.add((doc.name, dest.relative_to(ROOT).as_posix()))
    # the README leads to the rule book and to every document of docs/
    assert {("README.md", d.relative_to(ROOT).as_posix()) for d in DOCS[1:]} <= links
    assert ("README.md", "docs/pictures/classic-round.png") in links


def test_a_link_to_a_missing_file_or_anchor_is_caught():
    """The link check itself: a target outside the repository, a missing file and a missing
    anchor all fail it."""
    rules = ROOT / "docs" / "RULES.md"
    assert "options-at-a-glance" in _anchors(rules)
    assert "§112-recording-remembered-points-and-the-open-score" not in _anchors(rules)
    assert "112-recording-remembered-points-and-the-open-score" in _anchors(rules)
    assert not (ROOT / "docs" / "../../shared/RULES.md").resolve().is_relative_to(ROOT)
    assert LINK.findall("[a](../shared/RULES.md) ![b](pictures/x.png \"t\")") == [
        "../shared/RULES.md", "pictures/x.png"]


def test_the_readme_reads_in_five_minutes_and_keeps_its_sections():
    text = README.read_text("utf-8")
    assert len(text.encode("utf-8")) <= README_BYTES
    prose = "\n".join(line for line in _prose(text).splitlines() if not line.startswith("|"))
    assert len(re.findall(r"[^\W_]+", prose)) <= README_PROSE_WORDS
    headings = re.findall(r"^## (.+)$", _prose(text), re.M)
    for section in ("Add the bot to a group", "Play", "The games", "Commands", "Settings",
                    "Computer players", "Running it"):
        assert section in headings


def test_the_readme_is_a_group_admins_and_the_rest_is_in_docs():
    """Issue 30 item 17: the README was 1,960 words, half of them for operators (the
    strength table with p99 and "gap closed", workers, Docker). It keeps to 1,200 words;
    that material moved to docs/ and is still there."""
    text = README.read_text("utf-8")
    assert len(text.split()) <= README_WORDS
    assert "Several workers" not in re.findall(r"^## (.+)$", _prose(text), re.M)
    for operators in ("p99", "gap closed", "--scale", "make cluster", "docker run"):
        assert operators not in text, operators
    docs = {d.name: d.read_text("utf-8") for d in DOCS[1:]}
    assert "| classic | 0.16 (0.12–0.21) | 0.44 (0.28–0.66) | 0.04 (0.01–0.14) | 0.58 | 650 ms |" \
        in docs["BENCHMARKS.md"]
    assert "docker compose up -d --scale worker=3" in docs["OPERATIONS.md"]
    assert "docker run -e BOT_TOKEN=... -v kozel-data:/data kozel" in docs["OPERATIONS.md"]
    assert "make cluster" in docs["SCALE_OUT.md"] and "make cluster" in docs["OPERATIONS.md"]


def test_the_readmes_command_table_is_the_bots_menus():
    table = _section(README.read_text("utf-8"), "Commands")
    assert set(re.findall(r"^\| \w+ \| `/([a-z]+)", table, re.M)) == \
        set(GROUP_COMMANDS) | set(PRIVATE_COMMANDS)


def test_the_readmes_games_are_the_bots_games():
    from service.live.rulebook import variant_infos

    table = _section(README.read_text("utf-8"), "The games")
    assert re.findall(r"^\| `(\w+)` \|", table, re.M) == list(variant_infos())


def test_the_two_set_up_commands_do_what_the_readme_says(tmp_path):
    """``make run`` runs ``bot.py`` (which opens the local table without a token, issue 34);
    ``python bot.py`` without a token says what is missing and where the README explains it;
    ``make test`` runs pytest over every test (in two processes, each test file in one)."""
    running = _section(README.read_text("utf-8"), "Running it")
    assert "make run" in running and "make test" in running
    make = (ROOT / "Makefile").read_text("utf-8")
    assert re.search(r"^run: .*\n\t\$\(VENV\)/bin/python bot\.py --local-table-without-token$",
                     make, re.M)
    assert re.search(r"^test: .*\n\t\$\(VENV\)/bin/python -m pytest -n 2 --dist loadfile$",
                     make, re.M)
    assert 'testpaths = ["tests"]' in (ROOT / "pyproject.toml").read_text("utf-8")
    env = {k: v for k, v in os.environ.items() if k != "BOT_TOKEN"}
    run = subprocess.run([sys.executable, str(ROOT / "bot.py")], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2
    assert "BOT_TOKEN is not set" in run.stderr and "@BotFather" in run.stderr
    section = re.search(r'See README\.md, section "([^"]+)"', run.stderr).group(1)
    assert section == "Running it"


def test_no_bot_text_names_a_file_outside_the_repository():
    """Players have no ``RULES.md`` and no ``../shared``: a text the bot sends names the rules
    in words (``rule-name``) or links to ``RULES_URL``; comments may cite sections."""
    checked = 0
    for path in sorted((ROOT / "locales").glob("*/*.ftl")):
        for n, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            if line.lstrip().startswith("#"):
                continue
            checked += 1
            assert not re.search(r"RULES\.md|README|\.\./|shared/|/work/", line), \
                f"{path.relative_to(ROOT)}:{n}"
    assert checked > 500


def test_the_rules_url_setting_is_an_address_or_nothing():
    import delivery.settings as bot_module

    def settings(**kw):
        return bot_module.Settings(bot_token="42:TEST", _env_file=None, **kw)

    assert settings().rules_url is None and settings(rules_url="").rules_url is None
    url = "https://example.org/kozel/blob/main/docs/RULES.md"
    assert settings(rules_url=url).rules_url == url
    for bad in ("javascript:alert(1)", "example.org/RULES.md", 'https://x.org/"><b>'):
        with pytest.raises(ValidationError):
            settings(rules_url=bad)


GROUP = -100555
OLYA = Person(501, "Оля")


@pytest.mark.parametrize("locale", ["ru", "uk", "en"])
async def test_rules_link_the_rule_book_at_the_games_section_when_rules_url_is_set(
        tmp_path, monkeypatch, locale):
    url = "https://example.org/kozel/blob/main/docs/RULES.md?plain=1&x=2"
    monkeypatch.setenv("RULES_URL", url)
    async with Harness(tmp_path, default_locale=locale) as h:
        tr = h.app.tr
        await h.app.service.people.update_chat(GROUP, language=locale)
        await h.say(OLYA, GROUP, "/rules")
        text = h.tg.last(GROUP).text
        link = tr.t(locale, "rules-book", url=url, section="§1")
        assert text.endswith("\n" + link) and 'href="' + url.replace("&", "&amp;") in link
        await h.say(OLYA, GROUP, "/rules морской")
        assert h.tg.last(GROUP).text.endswith(tr.t(locale, "rules-book", url=url,
                                                   section="§2.1"))
    monkeypatch.delenv("RULES_URL")
    async with Harness(tmp_path / "again", default_locale=locale) as h:
        await h.say(OLYA, GROUP, "/rules")
        text = h.tg.last(GROUP).text
        assert "📖" not in text and "<a href" not in text and "RULES.md" not in text


def test_the_readmes_first_screen_says_make_run_without_a_token_opens_the_local_table():
    """Issue 34: who opens the repository learns on its first screen (before any scrolling)
    that ``make run`` without a token opens a local table, and sees it."""
    first = "\n".join(README.read_text("utf-8").splitlines()[:24])
    assert "`make run`" in first and "without" in first and "`BOT_TOKEN`" in first
    assert "local table" in first and "http://127.0.0.1:8765/" in first
    assert "(docs/pictures/local-round.png)" in first and "(docs/LOCAL_TABLE.md)" in first
    assert (ROOT / "docs/pictures/local-round.png").is_file()


def test_the_image_carries_every_package_the_project_installs():
    """``pip install .`` in the Dockerfile installs what pyproject's package list finds in
    the copied folders: a room missing from its COPY lines is missing from the image."""
    rooms = re.findall(r'"(\w+)\*"', (ROOT / "pyproject.toml").read_text("utf-8"))
    copied = set(re.findall(r"^COPY (\w+) ", (ROOT / "Dockerfile").read_text("utf-8"), re.M))
    assert len(rooms) >= 6
    assert set(rooms) <= copied, set(rooms) - copied
    assert {"locales"} <= copied


def test_every_setting_is_in_env_example_and_the_operations_table():
    """Each setting the bot reads is listed in ``.env.example`` and named in the settings
    table of docs/OPERATIONS.md."""
    from delivery.settings import Settings

    names = {name.upper() for name in Settings.model_fields}
    example = set(re.findall(r"^([A-Z_]+)=", (ROOT / ".env.example").read_text("utf-8"), re.M))
    table = _section((ROOT / "docs" / "OPERATIONS.md").read_text("utf-8"), "Settings")
    named = set(re.findall(r"`([A-Z_]+)`", table))
    assert names - example == set(), names - example
    assert names - named == set(), names - named
