"""Cypher lives in cypher/, one file per operation, Neo4j dialect first. A FalkorDB variant
`NAME.falkordb.cypher` sits beside a file only where the dialects really differ.

Each file opens with comment lines: a one-line description, `// params: a, b`, and
`// mode: read` or `// mode: write` (a read runs on a read replica or as GRAPH.RO_QUERY), and
`// retry: no` on a write that a second run would apply twice (it is then not repeated after a
lost connection; every other statement is)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent


def cypher_dir() -> Path:
    """Installed wheels carry graphmem/cypher; a source checkout has cypher/ at the root."""
    for candidate in (PACKAGE_DIR / "cypher", PACKAGE_DIR.parent / "cypher"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError("graphmem's cypher/ directory is missing from this installation")


@dataclass(frozen=True)
class Query:
    name: str
    text: str  # comments stripped
    params: tuple[str, ...]
    path: Path
    read_only: bool  # declared by the file's `// mode:` line
    retry: bool = True  # safe to run again after a lost connection (`// retry: no` says not)

    def statements(self) -> list[str]:
        """Schema files hold several statements separated by ';'."""
        return [part.strip() for part in self.text.split(";") if part.strip()]


@cache
def load(name: str, dialect: str = "neo4j") -> Query:
    base = cypher_dir()
    variant = base / f"{name}.{dialect}.cypher"
    path = variant if variant.exists() else base / f"{name}.cypher"
    if not path.exists():
        raise FileNotFoundError(f"no Cypher file for operation {name!r} in {base}")
    raw = path.read_text()
    match = re.search(r"^//\s*params:(.*)$", raw, re.MULTILINE)
    params = tuple(p.strip() for p in match[1].split(",") if p.strip()) if match else ()
    mode = re.search(r"^//\s*mode:\s*(\w+)\s*$", raw, re.MULTILINE)
    if mode is None or mode[1] not in ("read", "write"):
        raise ValueError(f"{path.name}: its header needs a `// mode: read` or `// mode: write` line")
    text = "\n".join(line for line in raw.splitlines() if not line.lstrip().startswith("//")).strip()
    once = re.search(r"^//\s*retry:\s*no\b", raw, re.MULTILINE) is not None
    return Query(name, text, params, path, mode[1] == "read", mode[1] == "read" or not once)


def names() -> list[str]:
    """Every operation that has a Neo4j-dialect file."""
    return sorted(p.name[: -len(".cypher")] for p in cypher_dir().glob("*.cypher") if p.name.count(".") == 1)
