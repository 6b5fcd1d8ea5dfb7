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
