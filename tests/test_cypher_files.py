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
        assert body[call.end():].split(")", 1)[1].startswith(" - 1"), f"{path.name}: {body[call.start():call.start() + 60]}"
    if re.search(r"db\.index\.vector\.queryNodes\(.*YIELD[^\n]*\bscore\b", body):
        assert re.search(r"2 \* score - 1", body), f"{path.name}: the index's score is not mapped back"


def _body(path: Path) -> str:
    return "\n".join(line for line in path.read_text().splitlines() if not line.lstrip().startswith("//"))


INDEX_CALL = re.compile(r"CALL db\.index\.vector\.queryNodes\('\w+', \$\w+, (\$\w+)\) YIELD ([^\n]*)")


@pytest.mark.parametrize("path", [p for p in NEO4J_FILES if "db.index.vector.queryNodes" in _body(p)],
                         ids=lambda p: p.name)
def test_neo4j_vector_index_gives_candidates_not_scores(path):
    """A Neo4j vector index is quantized by default (5.23+), so the score it yields is approximate
    (0.519 where the cosine is 0.517) and a floor or a ranking applied to it drifts from FalkorDB's.
    A file that queries one yields the node only and computes the cosine exactly, with
    vector.similarity.cosine over the query vector it searched with (no Neo4j server needed)."""
    body = _body(path)
    calls = INDEX_CALL.findall(body)
    assert calls and len(calls) == body.count("db.index.vector.queryNodes"), f"{path.name}: unexpected index call"
    for vector, yielded in calls:
        names = {name.split(" AS ")[-1].strip() for name in yielded.split(",")}
        assert "score" not in yielded, f"{path.name}: yields the index's approximate score ({yielded})"
        assert len(names) == 1, f"{path.name}: yields {yielded}"
        assert re.search(rf"vector\.similarity\.cosine\(\w+\.embedding, {re.escape(vector)}\)", body), (
            f"{path.name}: no exact cosine against {vector}, the vector it searched with")


# ORDER BY keys that are unique where they are used, so no tie can occur.
UNIQUE_ORDER = {
    ("insert_simplices", "v"),  # $vids holds each vertex once
    ("insert_simplices", "i"),  # each trie node's own position in $nodes
    ("stats", "dimension"),  # the grouping key
    ("remove", "a.depth DESC"),  # deepest first for the reduce; nodes of one depth are independent
    ("conversation_overlap", "shared DESC, conversation"),  # the grouping key
    ("list_conversations", "coalesce(started, -1.0), conversation"),  # the grouping key
    ("list_users", "user"),  # a user's id
    ("list_memories", "coalesce(observed_at, -1.0), id"),  # id is the memory's uid
    ("list_memories_mentioning", "coalesce(observed_at, -1.0), id"),  # id is the memory's uid
    ("claim_keys", "subject, slot"),  # the grouping key
    ("claim_slots", "subject, slot"),  # the grouping key
}
STABLE_KEY = re.compile(r"(?:\b\w+\.)?\b(uid|vid|key)(?: ASC)?$")


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_orderings_break_ties_by_a_stable_key(path):
    """Every ORDER BY (a ranking, a LIMIT, a bounded walk) ends in a unique, stable key (uid, vid,
    a simplex's key), so that equal scores are ordered the same way on FalkorDB and Neo4j (whose
    orders for ties differ, and with them the top k)."""
    for match in re.finditer(r"ORDER BY (.+)$", _body(path), re.MULTILINE):
        keys = match[1].strip()
        last = keys.rsplit(",", 1)[-1].strip()
        if (path.name.split(".")[0], keys) in UNIQUE_ORDER:
            continue
        assert STABLE_KEY.search(last), f"{path.name}: ORDER BY {keys} has no stable tie-break"


def test_loader_strips_comments_and_picks_the_dialect():
    query = queries.load("schema", "falkordb")
    assert query.path.name == "schema.falkordb.cypher"
    assert "//" not in query.text and query.params == ("dimensions",)
    assert queries.load("find", "falkordb").path.name == "find.cypher"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_no_statement_removes_two_properties_of_one_entity(path):
    """FalkorDB 4.16 removes the wrong properties when one statement removes several of one
    entity (FalkorDB#1787; `tests/test_living.py` shows what it did to a user's lease), by
    REMOVE or by SET to null: a statement removes at most one property per variable, and
    replaces the whole map (`SET n = {...}`) to drop more. The parts of a statement between
    aggregations (`WITH count(...)`) are written one after the other, and each is checked alone:
    `complete_memories` removes an entity's pending mark in one and its old vector in the next
    (`tests/test_ingest.py` checks that such an entity keeps everything else)."""
    for part in re.split(r"\bWITH\s+count\(", _body(path)):
        removed: dict[str, int] = {}
        for clause in re.findall(r"\bREMOVE\s+([\w.,\s]+?)(?=\n|\bRETURN\b|\bWITH\b|\)|$)", part):
            for name in re.findall(r"(\w+)\.\w+", clause):
                removed[name] = removed.get(name, 0) + 1
        for name in re.findall(r"\b(\w+)\.\w+\s*=\s*null\b", part, re.IGNORECASE):
            removed[name] = removed.get(name, 0) + 1
        assert all(n <= 1 for n in removed.values()), (path.name, removed)


def test_the_falkordb_schema_makes_every_relationship_type_known():
    """A FalkorDB plan made before a relationship type exists never finds it (docs/design.md,
    "FalkorDB's own defects"): one schema statement registers every type a statement names.
    It writes, so the driver runs it only while a name is unknown, and reads the names it
    makes known as this test does."""
    from graphmem.drivers.falkor import _made_known

    used = {t for path in FILES for types in re.findall(r"\[\w*:([A-Z_|:]+)", _body(path))
            for t in re.split(r"[|:]", types) if t}
    made = [names for s in queries.load("schema", "falkordb").statements() if (names := _made_known(s)) is not None]
    assert len(made) == 1 and {"Sentence", "GraphmemTypes"} <= made[0]
    assert used and used <= made[0], sorted(used - made[0])
