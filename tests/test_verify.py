"""verify() checks what a lost write breaks, not only the trie: a clean ingest is sound, and each
kind of damage a truncated AOF left (a count, a witness, a session simplex, an embedding, an
unfinished memory, a memory's recall counts split) is reported."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphmem import lifecycle

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "chat.txt"


@pytest.fixture
def ingested(mem, user):
    mem.ingest(EXAMPLE, user=user)
    assert mem.complex(user).verify() == []
    return mem, user


def problems(mem, user) -> set[str]:
    return {p["problem"] for p in mem.complex(user).verify()}


def test_a_lost_memory_count_is_reported(ingested):
    mem, user = ingested
    mem.driver.run("MATCH (u:User {id: $u}) SET u.memories = u.memories + 3", {"u": user})
    assert any("memory count" in p for p in problems(mem, user))


def test_lost_witnesses_and_session_simplices_are_reported(ingested):
    mem, user = ingested
    mem.driver.run("MATCH (s:SimplexNode {user_id: $u})-[w:WITNESSED_BY]->(:Memory) DELETE w", {"u": user})
    found = problems(mem, user)
    assert any("turn simplex" in p for p in found) and any("session simplex" in p for p in found)


def test_an_unfinished_or_unembedded_memory_is_reported_and_never_recalled(ingested):
    mem, user = ingested
    first = mem.recall("Where did Alice adopt Rex?", user=user, k=1).memories[0]
    mem.driver.run("MATCH (m:Memory {user_id: $u, uid: $uid}) REMOVE m.complete", {"u": user, "uid": first.uid})
    assert any("incomplete" in p for p in problems(mem, user))
    again = mem.recall("Where did Alice adopt Rex?", user=user, k=10)
    assert first.uid not in [m.uid for m in again.memories]
    mem.driver.run("MATCH (m:Memory {user_id: $u, uid: $uid}) SET m.complete = true REMOVE m.embedding",
                   {"u": user, "uid": first.uid})
    assert any("embedding" in p for p in problems(mem, user))


def test_a_memory_with_two_recall_counts_is_reported(ingested):
    mem, user = ingested
    first = mem.recall("Where did Alice adopt Rex?", user=user, k=1).memories[0]
    lifecycle.flush_accesses(mem.store, user)
    assert problems(mem, user) == set()  # counted: one relationship to its own user
    mem.driver.run("MATCH (m:Memory {user_id: $u, uid: $uid}), (o:User {id: $u}) CREATE (m)-[:RECALLED_FOR]->(o)",
                   {"u": user, "uid": first.uid})
    assert any("recall counts" in p for p in problems(mem, user))
