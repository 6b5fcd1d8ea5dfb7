"""The layering the architecture promises (docs/ARCHITECTURE.md), checked in the source:
only the service's view builder reads the engine, and the UI and the handlers see views."""

from __future__ import annotations

import ast
import re
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


def test_only_the_services_window_on_the_engine_reads_it():
    """``service/live/`` is the service's one window on the engine (docs/ARCHITECTURE.md):
    no other module of the service, the UI or the handlers imports ``engine``."""
    readers = {p.relative_to(ROOT).as_posix()
               for folder in ("service", "ui", "handlers") for p in (ROOT / folder).rglob("*.py")
               if "engine" in _imports(p)}
    assert readers and all(r.startswith("service/live/") for r in readers), readers
    assert "service/live/match.py" in readers  # the check sees what it should
    assert "engine" not in _imports(ROOT / "bot.py")


def test_the_service_knows_no_aiogram_and_the_engine_knows_nothing_else():
    for path in (ROOT / "service").rglob("*.py"):
        assert "aiogram" not in _imports(path), path
    for path in (ROOT / "engine").rglob("*.py"):
        assert not _imports(path) & {"service", "ui", "handlers", "storage", "aiogram"}, path


def test_the_ui_and_the_handlers_never_reach_the_storage():
    """Handlers and the UI see the service's views and its rooms' methods, never the database
    (docs/ARCHITECTURE.md: update → handler → service → storage)."""
    for folder in ("ui", "handlers"):
        for path in (ROOT / folder).rglob("*.py"):
            assert "storage" not in _imports(path), path
    assert "storage" not in _imports(ROOT / "bot.py")


def test_the_service_and_the_storage_never_reach_the_ui_or_the_handlers():
    """Data flows one way: the service and the storage know nothing of how a result is shown
    or which update asked for it."""
    for folder in ("service", "storage"):
        for path in (ROOT / folder).rglob("*.py"):
            assert not _imports(path) & {"ui", "handlers", "tools", "aiogram"}, path


def _modules(packages: tuple[str, ...]) -> dict[str, Path]:
    """Dotted module name → file, for every module of ``packages``."""
    out = {}
    for package in packages:
        for path in (ROOT / package).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


def _module_imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The modules of ``modules`` that module ``name`` imports, at any depth of the file
    (lazy imports inside functions too): ``from a import b`` names ``a.b`` when that is a
    module, else ``a``."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                target = alias.name
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target:
                    out.add(target)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            for alias in node.names:
                full = f"{base}.{alias.name}"
                if full in modules:
                    out.add(full)
                elif base in modules:
                    out.add(base)
    out.discard(name)
    return out


def test_no_module_of_the_service_storage_ui_or_handlers_imports_itself_back():
    """No import cycle, not even through a lazy import inside a function (once
    ``service.bots`` ↔ ``service.live``): a module's dependencies can be read, and loaded,
    before it."""
    modules = _modules(("service", "storage", "ui", "handlers", "tools"))
    graph = {name: _module_imports(name, path, modules) for name, path in modules.items()}
    assert graph["service.thinkers"] >= {"service.live.thinking"}  # it sees what it should
    cycles = []
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> None:
        if name in path:
            cycles.append(path[path.index(name):] + [name])
            return
        if name in done:
            return
        for target in sorted(graph[name]):
            visit(target, [*path, name])
        done.add(name)

    for name in sorted(graph):
        visit(name, [])
    assert cycles == []


def test_handlers_tell_a_group_by_its_chat_type_not_by_the_sign_of_its_id():
    """``chat.type`` says what a chat is (handlers.common.in_group, the routers' chat-type
    filters); a negative id is Telegram's convention, not the handlers' test.  Only the
    outbox's refusal callback in handlers/app.py, which gets a bare chat id, reads its
    sign."""
    sign = re.compile(r"(chat_id|chat\.id|query_chat\([^)]*\))\s*(<|>|<=|>=)\s*0\b")
    found = {f"{p.name}:{n}" for p in (ROOT / "handlers").glob("*.py")
             for n, line in enumerate(p.read_text("utf-8").splitlines(), 1) if sign.search(line)}
    assert {f.split(":")[0] for f in found} <= {"app.py"}, found


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
