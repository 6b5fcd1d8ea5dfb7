"""The layering the architecture promises (docs/ARCHITECTURE.md), checked in the source:
only the service's view builder reads the engine, and the UI and the handlers see views."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _imports(path: Path) -> set[str]:
    """The top-level package of every module ``path`` imports, at any depth of the file."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            out.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out.add(node.module.split(".")[0])
    return out


def test_only_the_view_builder_reads_the_engine():
    readers = {p.relative_to(ROOT).as_posix()
               for folder in ("service", "ui", "handlers") for p in (ROOT / folder).rglob("*.py")
               if "engine" in _imports(p)}
    assert readers == {"service/live.py"}
    assert "engine" not in _imports(ROOT / "bot.py")


def test_the_service_knows_no_aiogram_and_the_engine_knows_nothing_else():
    for path in (ROOT / "service").rglob("*.py"):
        assert "aiogram" not in _imports(path), path
    for path in (ROOT / "engine").rglob("*.py"):
        assert not _imports(path) & {"service", "ui", "handlers", "storage", "aiogram"}, path


#: The words of one game's own counters and events (Семёрка's sticks and draw-two, RULES.md
#: §2.8; Генерал's lost rounds, §2.9): they live in that game's module and its texts only.
VARIANT_WORDS = ("sticks", "losses", "departed", "draw_two")


def test_a_games_own_words_stay_in_its_module_and_its_texts():
    """Issue 19: a variant's counters and events are declared by its engine module; no other
    product file names them (``engine/variants/`` and ``locales/`` aside)."""
    import re

    words = re.compile(r"\b(" + "|".join(VARIANT_WORDS) + r")\b")
    product = [ROOT / "bot.py", *(p for folder in ("engine", "service", "ui", "handlers",
                                                   "storage")
                                  for p in (ROOT / folder).rglob("*") if p.is_file())]
    found = []
    for path in product:
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith("engine/variants/") or "__pycache__" in rel or \
                path.suffix not in (".py", ".md", ".txt", ".ini", ".mako", ".toml"):
            continue
        for no, line in enumerate(path.read_text("utf-8").splitlines(), start=1):
            if words.search(line):
                found.append(f"{rel}:{no}: {line.strip()}")
    assert found == []
    assert len(product) > 40  # the folders were read
