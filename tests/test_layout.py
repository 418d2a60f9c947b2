"""The package's shape stays the pipeline: stages import only stages below them, no import
circles, no private name taken from another module, no module over 800 lines.

The stages, lowest first, are listed in STAGES; each subpackage's `__init__` docstring says the
same in words. Imports inside functions count like any other.
"""
from __future__ import annotations

import ast
import pathlib

import pytest

PKG = pathlib.Path(__file__).resolve().parent.parent / "rulekit"
STAGES = ["core", "lang", "engine", "people", "analysis", "api", "cli", "website"]
MAX_LINES = 800


def _modname(path: pathlib.Path) -> str:
    parts = list(path.relative_to(PKG.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_modname(p): p for p in sorted(PKG.rglob("*.py"))}


def _imports(mod: str) -> list[tuple[str, str, int]]:
    """(imported module, imported name or '', line) for every rulekit import in `mod`."""
    path = MODULES[mod]
    pkg = mod if path.name == "__init__.py" else mod.rsplit(".", 1)[0]
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = pkg.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1] + ([base] if base else []))
            if not base.startswith("rulekit"):
                continue
            for alias in node.names:
                full = f"{base}.{alias.name}"
                out.append((full, "", node.lineno) if full in MODULES else (base, alias.name, node.lineno))
        elif isinstance(node, ast.Import):
            out += [(a.name, "", node.lineno) for a in node.names if a.name.startswith("rulekit")]
    return out


def _stage(mod: str) -> int | None:
    parts = mod.split(".")
    return STAGES.index(parts[1]) if len(parts) > 1 and parts[1] in STAGES else None


def test_top_level_is_the_stages():
    entries = sorted(p.name for p in PKG.iterdir() if p.name != "__pycache__")
    assert entries == sorted(STAGES + ["__init__.py", "__main__.py", "py.typed"])


def test_every_stage_says_what_it_owns_and_may_import():
    for stage in STAGES:
        doc = ast.get_docstring(ast.parse((PKG / stage / "__init__.py").read_text(encoding="utf-8")))
        assert doc and "Owns:" in doc and "May import:" in doc, stage


def test_no_upward_import():
    bad = []
    for mod in MODULES:
        here = _stage(mod)
        if here is None:
            continue  # rulekit/__init__.py (the public API) and __main__ sit above every stage
        for target, _name, line in _imports(mod):
            there = _stage(target)
            if there is None or there > here:
                bad.append(f"{MODULES[mod].relative_to(PKG.parent)}:{line}: {mod} ({STAGES[here]}) imports {target}")
    assert not bad, "\n".join(bad)


def test_no_private_name_across_modules():
    bad = []
    for mod, path in MODULES.items():
        for target, name, line in _imports(mod):
            if name.startswith("_") and target != mod:
                bad.append(f"{path.relative_to(PKG.parent)}:{line}: imports {name} from {target}")
    assert not bad, "\n".join(bad)


def test_no_import_circle():
    graph = {mod: sorted({t for t, _n, _l in _imports(mod) if t in MODULES and t != mod}) for mod in MODULES}
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(mod: str) -> list[str] | None:
        state[mod] = 1
        stack.append(mod)
        for nxt in graph[mod]:
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        stack.pop()
        state[mod] = 2
        return None

    for mod in graph:
        if mod not in state and (cycle := visit(mod)):
            pytest.fail("import circle: " + " -> ".join(cycle))


def test_modules_stay_small():
    big = {str(p.relative_to(PKG.parent)): n for p in MODULES.values()
           if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert not big, big


def test_the_checks_see_a_bad_import(tmp_path):
    # the walker itself: a lazy upward import and a private name are found
    assert ("rulekit.cli.main", "", 1) not in _imports("rulekit.core.errors")
    found = [t for t, _n, _l in _imports("rulekit.cli.commands")]  # its commands import the engine lazily
    assert "rulekit.engine.build" in found or any(t.startswith("rulekit.engine") for t in found)
