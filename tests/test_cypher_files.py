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


NEO4J_FILES = [p for p in FILES if p.name.count(".") == 1]


@pytest.mark.parametrize("path", NEO4J_FILES, ids=lambda p: p.name)
def test_neo4j_cosines_are_mapped_back_to_cos(path):
    """Neo4j's vector.similarity.cosine and cosine vector index scores are (1 + cos) / 2, FalkorDB's
    1 - distance is cos: every Neo4j file maps them back, so both backends rank, threshold and
    feed the ranker alike (this cannot be seen without a Neo4j server)."""
    body = "\n".join(line for line in path.read_text().splitlines() if not line.lstrip().startswith("//"))
    for call in re.finditer(r"vector\.similarity\.cosine\(", body):
        assert body[:call.start()].endswith("2 * "), f"{path.name}: {body[call.start():call.start() + 60]}"
    if "db.index.vector.queryNodes" in body:
        assert re.search(r"2 \* score - 1", body), f"{path.name}: the index's score is not mapped back"


def test_loader_strips_comments_and_picks_the_dialect():
    query = queries.load("schema", "falkordb")
    assert query.path.name == "schema.falkordb.cypher"
    assert "//" not in query.text and query.params == ("dimensions",)
    assert queries.load("find", "falkordb").path.name == "find.cypher"
