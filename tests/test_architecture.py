"""The layering the architecture promises (docs/ARCHITECTURE.md), checked in the source:
only the service's window on the engine reads it, the UI and the handlers see views, the
delivery room sits between the handlers and the UI, no package imports itself back, the UI
keeps no state between calls, and no class or function grows past a page or two."""

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
        # pure: no clock of its own (a time budget is read on the clock its caller gives)
        assert not _imports(path) & {"time", "datetime", "asyncio"}, path


def test_the_delivery_room_sits_between_the_handlers_and_the_ui():
    """``delivery/`` keeps the chats in step: the handlers call it, it renders through ``ui/``
    and asks the service; the UI never reaches up into it, and it never reaches the handlers,
    the engine or the database (docs/ARCHITECTURE.md)."""
    delivery = list((ROOT / "delivery").rglob("*.py"))
    assert len(delivery) > 10
    for path in delivery:
        assert not _imports(path) & {"handlers", "engine", "storage", "tools"}, path
    assert any("ui" in _imports(p) for p in delivery)
    assert any("delivery" in _imports(p) for p in (ROOT / "handlers").rglob("*.py"))
    for folder in ("ui", "service", "storage", "engine"):
        for path in (ROOT / folder).rglob("*.py"):
            assert "delivery" not in _imports(path), path


#: The product's rooms, bottom to top, and ``bot.py``.
PRODUCT = ("engine", "storage", "service", "ui", "delivery", "handlers", "localtable")


def test_the_local_table_sits_above_the_handlers_and_nothing_reaches_it():
    """Issue 34: ``localtable/`` (the local Telegram and the local table's page) is a room of
    its own above the handlers: it runs the bot, the bot never runs it.  No room below imports
    it; ``bot.py`` only where no token is set (inside a function), and the local Telegram the
    tests use is this room's, never the other way round."""
    for folder in PRODUCT[:-1]:
        for path in (ROOT / folder).rglob("*.py"):
            assert "localtable" not in _imports(path), path
    tree = ast.parse((ROOT / "bot.py").read_text("utf-8"))
    top = {alias.name.split(".")[0] for node in tree.body
           if isinstance(node, ast.Import | ast.ImportFrom)
           for alias in (node.names if isinstance(node, ast.Import) else
                         [ast.alias(node.module or "")])}
    assert "localtable" not in top and "localtable" in _imports(ROOT / "bot.py")
    readers = [p for p in (ROOT / "localtable").rglob("*.py")]
    assert len(readers) > 10 and any("handlers" in _imports(p) for p in readers)
    for path in readers:
        assert not _imports(path) & {"engine", "storage", "tools", "bench"}, path


def test_product_code_never_imports_the_tests():
    """What ships (the rooms and ``bot.py``) imports nothing of ``tests/``: the local Telegram
    the end-to-end tests use is product code the tests import (issue 34)."""
    product = [ROOT / "bot.py", *(p for folder in PRODUCT for p in (ROOT / folder).rglob("*.py"))]
    assert len(product) > 80
    assert [p for p in product if "tests" in _imports(p)] == []


def test_no_handler_names_the_outbox():
    """Handlers call the app's verbs (``app.publish``, ``app.reply``, ``app.say``,
    ``app.edit``), never the outbox or the publisher's books and sets (issue 31)."""
    found = []
    for path in (ROOT / "handlers").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            named = (node.attr if isinstance(node, ast.Attribute) else
                     node.id if isinstance(node, ast.Name) else
                     node.module if isinstance(node, ast.ImportFrom) else None)
            if named and (named in ("outbox", "forbidden", "_books") or
                          named.endswith(".outbox")):
                found.append(f"{path.name}:{node.lineno}")
    assert found == []


def test_the_ui_and_the_handlers_never_reach_the_storage():
    """Handlers and the UI see the service's views and its rooms' methods, never the database
    (docs/ARCHITECTURE.md: update → handler → service → storage)."""
    for folder in ("ui", "handlers"):
        for path in (ROOT / folder).rglob("*.py"):
            assert "storage" not in _imports(path), path
    # the entry point reaches it for the operator's backup and restore commands only, which
    # work on the database itself, not on the game (docs/OPERATIONS.md, "Backups")
    reached = set()
    for node in ast.walk(ast.parse((ROOT / "bot.py").read_text("utf-8"))):
        if isinstance(node, ast.Import):
            reached.update(a.name for a in node.names if a.name.split(".")[0] == "storage")
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("storage"):
            reached.add(node.module)
    assert reached == {"storage.backup"}


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


def test_no_module_of_any_package_imports_itself_back():
    """No import cycle in any package, the engine's included, not even through a lazy import
    inside a function (once ``service.bots`` ↔ ``service.live``, and ``engine.variant`` ↔
    ``engine.variants``): a module's dependencies can be read, and loaded, before it."""
    modules = _modules(("engine", "service", "storage", "delivery", "ui", "handlers", "tools",
                        "localtable"))
    graph = {name: _module_imports(name, path, modules) for name, path in modules.items()}
    assert graph["service.thinkers"] >= {"service.live.thinking"}  # it sees what it should
    assert graph["engine"] >= {"engine.variants"}
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
    filters); a negative id is Telegram's convention, not the handlers' test."""
    sign = re.compile(r"(chat_id|chat\.id|query_chat\([^)]*\))\s*(<|>|<=|>=)\s*0\b")
    found = {f"{p.name}:{n}" for p in (ROOT / "handlers").glob("*.py")
             for n, line in enumerate(p.read_text("utf-8").splitlines(), 1) if sign.search(line)}
    assert found == set()


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


#: Method names that change a container in place.
_MUTATORS = frozenset({"append", "appendleft", "add", "update", "setdefault", "pop", "popitem",
                       "popleft", "clear", "discard", "remove", "extend", "insert",
                       "move_to_end", "sort"})
#: What the UI may remember between calls: memos of pure functions (the same arguments give
#: the same result, only sooner), by ``module: names`` (a module-level name, or
#: ``Class.attribute``), and objects made and dropped within one call.
_MEMOS = {
    "ui/i18n.py": {"Translator._memo"},  # formatted texts (Fluent formatting is pure)
    "ui/picture.py": {"_glyphs", "_painters", "_Painter._sprites", "_Painter._labels",
                      "_Canvas.labels", "_Canvas.sizes"},  # glyph checks; one picture's texts
    # the laying of one arm of the table, made and dropped within one call
    "ui/picture_layout.py": {f"_ArmLayer.{a}" for a in (
        "x", "y", "direction", "mode", "row_dir", "prev", "count", "out", "taken")},
}


def _ui_state(path: Path) -> set[str]:
    """What a module keeps between calls: module-level names rebound (``global``) or changed
    in place, and instance attributes of its classes set or changed outside ``__init__``."""
    tree = ast.parse(path.read_text("utf-8"))
    module_names = {t.id for node in tree.body if isinstance(node, ast.Assign | ast.AnnAssign)
                    for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
                    if isinstance(t, ast.Name)}
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Global):
            out.update(node.names)
        target = None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in _MUTATORS:
            target = node.func.value
        elif isinstance(node, ast.Assign | ast.AugAssign):
            for t in (node.targets if isinstance(node, ast.Assign) else [node.target]):
                if isinstance(t, ast.Subscript):
                    target = t.value
        if isinstance(target, ast.Name) and target.id in module_names:
            out.add(target.id)
    for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
        for fn in cls.body:
            if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef) or \
                    fn.name in ("__init__", "__post_init__", "__new__"):
                continue
            for node in ast.walk(fn):
                changed = []
                if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
                    for t in (node.targets if isinstance(node, ast.Assign) else [node.target]):
                        changed.append(t.value if isinstance(t, ast.Subscript) else t)
                elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                        and node.func.attr in _MUTATORS:
                    changed.append(node.func.value)
                for t in changed:
                    if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) \
                            and t.value.id == "self":
                        out.add(f"{cls.name}.{t.attr}")
    return out


def test_no_module_of_the_ui_keeps_state_between_calls():
    """``ui/`` turns views into texts, pictures, keyboards and pages and keeps nothing between
    two calls (issue 31): what remembers — books, queues, pools, pages, caches of states — is
    the delivery room's.  Only memos of pure functions are allowed, each named above with
    why."""
    found = {}
    for path in sorted((ROOT / "ui").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        kept = _ui_state(path) - _MEMOS.get(rel, set())
        if kept:
            found[rel] = sorted(kept)
    assert found == {}
    # the check sees state where there is some: the delivery room's books and outbox
    assert "Books._books" in _ui_state(ROOT / "delivery" / "books.py")
    assert "Outbox.migrated" in _ui_state(ROOT / "delivery" / "outbox.py")


#: Classes over 400 lines and functions over 80 left as they are, with why.
_LONG = {
    # the round core's hot loop and the layout's geometry: split, they cost the engine's
    # speed (bench/engine_bench.py), and each reads as one rule of RULES.md §2.0
    "engine/layout.py:Layout", "engine/table.py:Table", "engine/table.py:play",
    # what a seat may see and believe: one pass over the round's public history each
    "engine/ai.py:observe", "engine/ai.py:beliefs",
    # the replay of a record: one loop over its rounds and decisions, reporting each
    "engine/records.py:replay",
}


def test_no_class_over_400_lines_and_no_function_over_80():
    """A class reads in a sitting, a function in a screen or two (issue 31); the few left
    longer are named in ``_LONG`` with why."""
    found = set()
    for folder in ("engine", "service", "storage", "delivery", "ui", "handlers", "localtable"):
        for path in (ROOT / folder).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            rel = path.relative_to(ROOT).as_posix()
            for node in ast.walk(ast.parse(path.read_text("utf-8"))):
                limit = (400 if isinstance(node, ast.ClassDef) else
                         80 if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
                         else None)
                if limit and node.end_lineno - node.lineno + 1 > limit:
                    found.add(f"{rel}:{node.name}")
    assert found <= _LONG, sorted(found - _LONG)
