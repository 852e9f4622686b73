"""The simplex tree against a plain-Python model of the complex, and against gudhi."""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import timedelta

import gudhi
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphmem.errors import InputError, UnknownUser
from model import ComplexModel

# Names chosen to break string-built Cypher: quotes, backticks, braces, keywords.
NAMES = ["Alice", "O'Brien", "`tick`", "{brace}", "MATCH (n) DETACH DELETE n", "Zoë", 'say "hi"', "x;y"]

simplex = st.lists(st.sampled_from(NAMES), min_size=1, max_size=5, unique=True)
# kinds and metadata with the separator and quotes that cofaces' packed strings must survive
kind = st.sampled_from(["observed", "session", "a\x1fb", "it's"])
meta = st.none() | st.dictionaries(st.sampled_from(["note", "x\x1fy"]), st.sampled_from(["", "a\x1fb", '"q"']),
                                   max_size=2)
operation = st.one_of(
    st.tuples(st.just("insert"), simplex, kind, meta, st.floats(1e9, 2e9)),
    st.tuples(st.just("remove"), simplex, st.booleans()),
)
PROPERTY = settings(suppress_health_check=[HealthCheck.function_scoped_fixture])  # examples: conftest's profile


EPSILON = timedelta(microseconds=20)


def names_of(simplices) -> set[frozenset]:
    return {frozenset(s.names) for s in simplices}


def check_agrees(cx, model: ComplexModel, probe: list[str]) -> None:
    found = cx.find(probe)
    assert (found.count if found else None) == model.find(probe)
    cofaces = cx.cofaces(probe)
    assert names_of(cofaces) == model.cofaces(probe)
    # largest first, then most observed, then by key; a limit keeps that order's head
    ranks = [(-s.dimension, -s.count, s.key) for s in cofaces]
    assert ranks == sorted(ranks)
    assert cx.cofaces(probe, limit=2) == cofaces[:2]
    for s in cofaces:  # each packed string (cofaces.cypher) agrees with the fields it is made of
        found = cx.find(list(s.names))
        # FalkorDB replies with doubles to 15 significant digits (10 us at today's epochs); the
        # packed string keeps microseconds
        assert abs(s.first_seen - found.first_seen) < EPSILON and abs(s.last_seen - found.last_seen) < EPSILON
        assert replace(s, first_seen=None, last_seen=None) == replace(found, first_seen=None, last_seen=None)
    faces = {frozenset(f.names): f.stored for f in cx.faces(probe)}
    assert faces == model.faces(probe)
    assert {frozenset(f.names) for f in cx.gaps(probe)} == model.gaps(probe)


@PROPERTY
@given(ops=st.lists(operation, min_size=1, max_size=12), probe=simplex)
def test_operations_agree_with_model(mem, ops, probe):
    cx = mem.complex(f"prop-{uuid.uuid4().hex}")
    cx.ensure_entities(NAMES)  # every probe name is a known entity
    model = ComplexModel()
    for op in ops:
        if op[0] == "insert":
            stored = cx.insert(op[1], kind=op[2], meta=op[3], at=op[4])
            model.insert(op[1])
            assert stored.count == model.find(op[1])
        else:
            assert cx.remove(op[1], cofaces=op[2]) == model.remove(op[1], cofaces=op[2])
        check_agrees(cx, model, probe)
        check_agrees(cx, model, op[1])
        assert cx.verify() == []
    assert cx.stats()["simplices"] == len(model.stored)


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(words=st.lists(st.lists(st.integers(0, 11), min_size=1, max_size=6, unique=True), min_size=1, max_size=30),
       probe=st.lists(st.integers(0, 11), min_size=1, max_size=3, unique=True))
def test_cofaces_agree_with_gudhi(mem, words, probe):
    """gudhi keeps the closure; compare on the observed simplices it contains."""
    cx = mem.complex(f"gudhi-{uuid.uuid4().hex}")
    vid = cx.ensure_entities([f"v{i}" for i in range(12)])
    cx.insert_many([[vid[f"v{i}"] for i in word] for word in words])
    tree = gudhi.SimplexTree()
    for word in words:
        tree.insert(word)
    observed = {frozenset(w) for w in words}
    # get_cofaces of a simplex absent from the tree crashes gudhi 3.13, so ask only when present
    in_closure = {frozenset(s) for s, _ in tree.get_cofaces(probe, 0)} | {frozenset(probe)} if tree.find(probe) else set()
    expected = {s for s in in_closure if s in observed}
    got = {frozenset(int(n[1:]) for n in s.names) for s in cx.cofaces([f"v{i}" for i in probe])}
    assert got == expected
    # every maximal simplex of the closure containing the probe was observed, so it is a coface
    maximal = {s for s in in_closure if not any(s < t for t in in_closure)}
    assert maximal <= got


def test_example_from_the_readme(cx):
    s = cx.insert(["Alice", "Bob", "Paris"], kind="turn", meta={"source": "chat"})
    assert (s.names, s.dimension, s.kind, s.count, s.meta) == (("Alice", "Bob", "Paris"), 2, "turn", 1, {"source": "chat"})
    assert cx.insert(["Paris", "Alice", "Bob"]).count == 2  # order-free; counted, not duplicated
    assert cx.find(["Bob", "Alice"]) is None
    assert cx.find(["Bob", "Paris", "Alice"]).count == 2
    cx.insert(["Alice", "Paris"])
    assert names_of(cx.cofaces(["Alice", "Paris"])) == {frozenset({"Alice", "Bob", "Paris"}), frozenset({"Alice", "Paris"})}
    faces = cx.faces(["Alice", "Bob", "Paris"])
    assert len(faces) == 7 and sum(f.stored for f in faces) == 2
    assert {f.names for f in cx.gaps(["Alice", "Bob", "Paris"])} == {("Alice", "Bob"), ("Bob", "Paris")}
    assert cx.remove(["Alice", "Paris"], cofaces=True) == 2
    assert cx.stats()["simplices"] == 0 and cx.verify() == []


def test_an_older_store_has_its_rings_made_lists(cx, mem):
    """graphmem once kept each L_j list as a ring; Memory.setup cuts the link back to each head."""
    for word in (["Ann", "Ben"], ["Ann", "Cy"], ["Ben", "Cy"], ["Ann", "Ben", "Cy"]):
        cx.insert(word)
    assert cx.verify() == []
    # close every list of this user into a ring, as that layout stored it, and drop the marker
    mem.driver.run("MATCH (h:SimplexNode {user_id: $u}) WHERE h.ring_head IS NOT NULL "
                   "MATCH (h)-[:NEXT_SAME_LABEL*0..]->(t) WHERE NOT (t)-[:NEXT_SAME_LABEL]->() "
                   "CREATE (t)-[:NEXT_SAME_LABEL]->(h)", {"u": cx.user})
    mem.driver.run("MATCH (g:Graphmem) DELETE g")
    assert any(p["problem"].startswith("list:") for p in cx.verify())
    mem.setup()
    assert cx.verify() == []
    assert mem.run("migrate_lists") == [{"cut": 0}]  # once done, nothing to cut
    cx.insert(["Ann", "Cy", "Dee"])
    assert cx.verify() == []


def test_witnesses_and_times(cx, mem):
    uid = f"m-{uuid.uuid4().hex}"
    mem.driver.run("CREATE (:Memory {user_id: $u, uid: $uid, text: 'hi'})", {"u": cx.user, "uid": uid})
    first = cx.insert(["Ann", "Ben"], witnesses=[uid], at=1_700_000_000)
    again = cx.insert(["Ann", "Ben"], witnesses=[uid], at=1_700_000_100)
    assert first.count == 1 and again.count == 1  # the same witness is counted once
    assert again.witnesses == (uid,)
    assert again.first_seen.timestamp() == 1_700_000_000 and again.last_seen.timestamp() == 1_700_000_100


def test_witness_builds_session_window_and_place_simplices(cx, mem):
    vids = cx.ensure_entities(["Ann", "Ben", "Cy", "Oslo"], kinds={"Oslo": "GPE"})
    memories = [  # (uid, session, observed_at, mentioned)
        ("m1", "s1", 0.0, ["Ann", "Ben"]),
        ("m2", "s1", 60.0, ["Ben", "Oslo"]),
        ("m3", "s2", 90_000.0, ["Cy", "Oslo"]),
    ]
    for uid, session, at, names in memories:
        mem.driver.run(
            "CREATE (m:Memory {user_id: $u, uid: $uid, session: $s, observed_at: $at, complete: true}) WITH m "
            "UNWIND $vids AS v MATCH (e:Entity {user_id: $u, vid: v}) CREATE (m)-[:MENTIONS]->(e)",
            {"u": cx.user, "uid": uid, "s": session, "at": at, "vids": [vids[n] for n in names]})
    assert cx.witness("session") == 2
    session = cx.find(["Ann", "Ben", "Oslo"])
    assert session.kind == "session" and session.witnesses == ("m1", "m2")
    assert cx.witness("window", window=3600) == 2  # the same groups by hour
    assert cx.find(["Ann", "Ben", "Oslo"]).count == 2  # no new witnesses: only the kind's run adds
    assert cx.witness("place") == 1
    assert cx.find(["Ben", "Cy", "Oslo"]).witnesses == ("m2", "m3")
    # sound, but for what these hand-made memories lack of an ingested one (embeddings, turn simplices)
    assert [p for p in cx.verify() if p["key"] not in ("m1", "m2", "m3")] == []


def test_bad_meta_limits_and_dimensions_are_refused_before_anything_is_written(cx, mem):
    """A meta that is no mapping is refused before the entities are made; a limit under 1 or a
    dimension under 0 is refused, not read as "all" (0) or as a slice from the end (-2); verify
    of a user nothing was stored for is an unknown user, as stats is."""
    for meta in ([1, 2], 5, "s"):
        with pytest.raises(InputError, match="meta must be a mapping"):
            cx.insert(["Carol", "Dave"], meta=meta)
    with pytest.raises(UnknownUser):
        cx.stats()  # nothing was written: not even the user
    with pytest.raises(UnknownUser):
        cx.verify()
    cx.insert(["Alice", "Bob", "Paris"])
    cx.insert(["Alice", "Paris"])
    for limit in (0, -2):
        with pytest.raises(InputError, match="limit must be a positive integer"):
            cx.cofaces(["Alice"], limit=limit)
        with pytest.raises(InputError, match="limit must be a positive integer"):
            cx.simplices(limit=limit)
    with pytest.raises(InputError, match="max_dim must be a non-negative integer"):
        cx.faces(["Alice", "Bob"], max_dim=-5)
    assert len(cx.cofaces(["Alice"], limit=1)) == 1 and len(cx.simplices(limit=1)) == 1
    assert [f.names for f in cx.faces(["Alice", "Bob"], max_dim=0)] == [("Alice",), ("Bob",)]
    assert cx.stats()["entities"] == 3 and cx.verify() == []
