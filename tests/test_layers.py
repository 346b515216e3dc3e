"""The layering of opkg/ (docs/ARCHITECTURE.md, "Layers"): every import goes down the layer list
or stays in its own package, and no modules import each other in a circle. Imports inside
functions count: a lazy import is still a dependency. Imports under `if TYPE_CHECKING:` do not
(annotations only; as import-linter's exclude_type_checking_imports)."""

from __future__ import annotations

import ast
from functools import lru_cache
from pathlib import Path

import pytest

OPKG = Path(__file__).resolve().parent.parent / "opkg"

# lowest first; a module may import from its own package and from packages before it
LAYERS = ("util", "core", "sim", "verify", "toolchains", "importers", "remote", "build",
          "registry", "ui", "report", "cli")


def module_name(path: Path) -> str:
    parts = path.relative_to(OPKG.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in OPKG.rglob("*.py")}


def imports(path: Path, name: str, known: set[str]) -> set[str]:
    """The opkg modules `path` imports (a `from package import name` counts as the module
    `package.name` when that is a module)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    tree = ast.parse(path.read_text(), str(path))
    typing_only = {id(n) for guard in ast.walk(tree) if isinstance(guard, ast.If)
                   and "TYPE_CHECKING" in ast.unparse(guard.test)
                   for stmt in guard.body for n in ast.walk(stmt)}
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            targets = [f"{source}.{a.name}" if f"{source}.{a.name}" in known else source
                       for a in node.names]
        else:
            continue
        out.update(t for t in targets if t == "opkg" or t.startswith("opkg."))
    out.discard(name)
    return out


@lru_cache(maxsize=None)
def graph() -> dict[str, set[str]]:
    mods = modules()
    return {name: imports(path, name, set(mods)) for name, path in mods.items()}


def layer(module: str) -> int | None:
    """The layer index of a module; None for the root package and __main__ (above all)."""
    parts = module.split(".")
    if len(parts) < 2 or parts[1] == "__main__":
        return None
    return LAYERS.index(parts[1])


def test_the_top_of_opkg_holds_only_layer_packages():
    loose = sorted(p.name for p in OPKG.glob("*.py") if p.name not in ("__init__.py", "__main__.py"))
    assert loose == [], f"modules directly under opkg/: {loose}; put each in its layer's package"
    packages = sorted(p.name for p in OPKG.iterdir() if (p / "__init__.py").is_file())
    assert sorted(packages) == sorted(LAYERS), "a new package: add it to LAYERS and ARCHITECTURE.md"


def test_every_import_goes_down_or_stays_in_its_package():
    upward = []
    for module, targets in graph().items():
        here = layer(module)
        for target in targets:
            there = layer(target)
            if here is None or there is None or target == "opkg":
                continue
            if there > here:
                upward.append(f"{module} imports {target} ({LAYERS[here]} -> {LAYERS[there]})")
    assert upward == [], "imports up the layers:\n" + "\n".join(sorted(upward))


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in edges:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def test_no_import_circles():
    # a package's __init__ importing its own modules (a registry of commands) is no circle
    edges = {m: {t for t in ts if not m.startswith(t + ".")} for m, ts in graph().items()}
    assert cycles(edges) == []


@pytest.mark.parametrize("edges, expected", [
    ({"a": {"b"}, "b": {"a"}}, [["a", "b"]]),
    ({"a": {"b"}, "b": {"c"}, "c": set()}, []),
    ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}, [["a", "b", "c"]]),
])
def test_the_circle_finder_finds_circles(edges, expected):
    assert cycles(edges) == expected


def test_the_import_reader_sees_lazy_and_relative_imports(tmp_path, monkeypatch):
    src = tmp_path / "opkg" / "core" / "x.py"
    src.parent.mkdir(parents=True)
    src.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import opkg.cli\n"
                   "def f():\n    from opkg.build import engine\n    from . import y\n")
    monkeypatch.setattr(__import__(__name__), "OPKG", tmp_path / "opkg")
    found = imports(src, "opkg.core.x", {"opkg.build.engine", "opkg.core.y"})
    assert found == {"opkg.build.engine", "opkg.core.y"}
