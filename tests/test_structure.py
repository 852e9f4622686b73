"""The package's shape: layers look only down. No module of graphmem/ imports one that imports
it back (directly or through others), counting imports inside functions too: a cycle hidden in
a function is still a cycle of ideas."""

from __future__ import annotations

import ast
from pathlib import Path

import graphmem

PACKAGE = Path(graphmem.__file__).resolve().parent


def modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The graphmem modules `name` imports: `from X import y` is an import of X.y when that is a
    module, else of X."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                out.add(f"{target}.{alias.name}" if f"{target}.{alias.name}" in known else target)
    return {m for m in out if m in known and m != name}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_module_imports_one_that_imports_it_back():
    known = modules()
    graph = {name: imports(name, path, known) for name, path in known.items()}
    assert cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_lower_layers_never_reach_for_the_facade():
    known = modules()
    below = [name for name in known if name.startswith(("graphmem.complex", "graphmem.ingest", "graphmem.recall",
                                                         "graphmem.store", "graphmem.drivers"))]
    for name in below:
        assert "graphmem.memory" not in imports(name, known[name], known), name
        assert "graphmem" not in imports(name, known[name], known), name


def test_every_statement_declares_whether_it_reads_or_writes_and_says_true():
    import re

    from graphmem import queries

    clause = re.compile(r"\b(CREATE|MERGE|SET|DELETE|REMOVE|DETACH)\b|createNodeIndex", re.IGNORECASE)
    for path in sorted(queries.cypher_dir().glob("*.cypher")):
        name, _, dialect = path.name[: -len(".cypher")].partition(".")
        query = queries.load(name, dialect or "neo4j")
        assert query.read_only != bool(clause.search(query.text)), f"{path.name}: its `// mode:` line is wrong"
