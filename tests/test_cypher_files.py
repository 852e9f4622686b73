"""One home for query text: every cypher/ file is well-formed, declared and used."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from graphmem import queries

ROOT = Path(__file__).resolve().parent.parent
SOURCES = "\n".join(p.read_text() for p in (ROOT / "graphmem").rglob("*.py"))
FILES = sorted((ROOT / "cypher").glob("*.cypher"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_header_declares_exactly_the_parameters_used(path):
    raw = path.read_text()
    assert raw.startswith("//"), "a file opens with a comment saying what it does"
    declared = re.search(r"^//\s*params:(.*)$", raw, re.MULTILINE)
    assert declared, "a file declares its parameters with // params:"
    names = {p.strip() for p in declared[1].split(",") if p.strip()}
    body = "\n".join(line for line in raw.splitlines() if not line.lstrip().startswith("//"))
    assert set(re.findall(r"\$(\w+)", body)) == names


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_file_is_used_by_the_package(path):
    operation = path.name.split(".")[0]
    assert re.search(rf"[\"']{re.escape(operation)}[\"']", SOURCES), f"orphan Cypher file {path.name}"


def test_variants_have_a_neo4j_original():
    for path in FILES:
        if path.name.count(".") == 2:
            assert (path.parent / (path.name.split(".")[0] + ".cypher")).exists(), path.name


def test_loader_strips_comments_and_picks_the_dialect():
    query = queries.load("schema", "falkordb")
    assert query.path.name == "schema.falkordb.cypher"
    assert "//" not in query.text and query.params == ("dimensions",)
    assert queries.load("find", "falkordb").path.name == "find.cypher"
