"""Cypher lives in cypher/, one file per operation, Neo4j dialect first. A FalkorDB variant
`NAME.falkordb.cypher` sits beside a file only where the dialects really differ.

Each file opens with comment lines: a one-line description, `// params: a, b`, and
`// mode: read` or `// mode: write` (a read runs on a read replica or as GRAPH.RO_QUERY), and
`// retry: no` on a write that a second run would apply twice (it is then not repeated after a
lost connection; every other statement is).

Readable and fast forms, one source. A statement a person runs in Neo4j Browser returns
readable columns (names, dimension, count, dates); where the library needs another result
(cofaces.cypher: one packed string per simplex, because the client parses big results slowly),
the file ends in two tails after the part they share:

    MATCH ... (shared)
    // browser: why this form
    RETURN names, ... (what a person reads; the file pastes into Browser as it is)
    // library: why this form
    //| RETURN collect(s.packed) AS rows

`Query.text` (what graphmem runs) is the shared part and the `//|` lines; `Query.browser` (what
`graphmem cypher`, `--cypher` and `Store.cypher` print) is the shared part and the browser tail.
A file without the markers has one form, both."""

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
    browser: str = ""  # the readable form a person runs (comments stripped); `text` when the file has one form

    @property
    def two_forms(self) -> bool:
        return bool(self.browser) and self.browser != self.text

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
    browser, library = forms(raw, path.name)
    once = re.search(r"^//\s*retry:\s*no\b", raw, re.MULTILINE) is not None
    return Query(name, library, params, path, mode[1] == "read", mode[1] == "read" or not once, browser)


BROWSER_MARK = re.compile(r"^//\s*browser:")
LIBRARY_MARK = re.compile(r"^//\s*library:")


def forms(raw: str, where: str = "a Cypher file") -> tuple[str, str]:
    """(browser form, library form) of a file's text, comments stripped: the same text twice for
    a file with one form. The browser tail runs from `// browser:` to `// library:`; the
    library's are the `//| ` lines after `// library:`."""
    lines = raw.splitlines()
    browser_at = [i for i, line in enumerate(lines) if BROWSER_MARK.match(line.lstrip())]
    library_at = [i for i, line in enumerate(lines) if LIBRARY_MARK.match(line.lstrip())]
    plain = "\n".join(line for line in lines if not line.lstrip().startswith("//")).strip()
    if not browser_at and not library_at:
        if any(line.lstrip().startswith("//|") for line in lines):
            raise ValueError(f"{where}: `//|` lines without a `// browser:` and a `// library:` line")
        return plain, plain
    if len(browser_at) != 1 or len(library_at) != 1 or browser_at[0] > library_at[0]:
        raise ValueError(f"{where}: one `// browser:` line, then one `// library:` line, or neither")
    shared = [line for line in lines[:browser_at[0]] if not line.lstrip().startswith("//")]
    readable = [line for line in lines[browser_at[0]:library_at[0]] if not line.lstrip().startswith("//")]
    tail = lines[library_at[0] + 1:]
    fast = [re.sub(r"^//\| ?", "", line.lstrip()) for line in tail if line.lstrip().startswith("//|")]
    stray = [line for line in tail if line.strip() and not line.lstrip().startswith("//")]
    if stray or not fast or not any(line.strip() for line in readable):
        raise ValueError(f"{where}: after `// library:` only `//| ` lines and comments, and both tails non-empty")
    return "\n".join(shared + readable).strip(), "\n".join(shared + fast).strip()


def names() -> list[str]:
    """Every operation that has a Neo4j-dialect file."""
    return sorted(p.name[: -len(".cypher")] for p in cypher_dir().glob("*.cypher") if p.name.count(".") == 1)
