"""Consolidation: memories that share an entity within a span of time are summarised in an
abstract memory (graphmem/consolidation.py), kept current as memories are added and forgotten,
rebuilt after an import, and returned by recall for broad questions. Real embedded FalkorDB, real models."""

from __future__ import annotations

import json
import uuid
from datetime import datetime, timezone

from graphmem import Memory, consolidation, queries
from graphmem.ingest import pipeline
from graphmem.ingest.lease import UserLease
from graphmem.recall.ranker import candidate_features
from interrupt import interrupt

CHAT = """## 8 May 2023
Alice: I adopted a puppy named Rex from the shelter in Lisbon.
Bob: That's lovely! My daughter Emma plays the violin every evening.
Alice: Rex chewed my favourite zanzibarian slippers yesterday.
Bob: Emma and Rex should meet in Lisbon someday.

## 12 May 2023
Alice: I started pottery classes with Carol last week.
Bob: I finally visited Tokyo with Emma.
Alice: Carol made a blue vase in pottery class.
Bob: Emma wants to learn pottery from Carol next month.
"""


def _user() -> str:
    return f"consolidation-{uuid.uuid4().hex[:10]}"


def _ingest(mem: Memory, tmp_path, text: str = CHAT) -> str:
    user = _user()
    path = tmp_path / f"{user}.txt"
    path.write_text(text)
    mem.ingest(path, user=user)
    return user


def _about(mem: Memory, user: str, entity: str):
    found = [a for a in mem.abstracts(user) if a.entities[0] == entity]
    assert len(found) <= 1, found
    return found[0] if found else None


def _texts(mem: Memory, user: str, ids: list[str]) -> list[str]:
    return [mem.get(uid, user=user).text for uid in ids]


def test_a_conversation_yields_abstracts_whose_members_share_an_entity(mem, tmp_path):
    user = _ingest(mem, tmp_path)
    abstracts = mem.abstracts(user)
    assert {a.entities[0] for a in abstracts} >= {"Rex", "Carol", "Emma"}
    for a in abstracts:
        assert a.size == len(a.members) >= 2
        mentioning = {m.id for m in mem.memories(user, entity=a.entities[0], limit=None)}
        assert set(a.members) <= mentioning, a.entities[0]
        assert a.text.startswith(a.entities[0]) and a.first_seen <= a.last_seen
    rex = _about(mem, user, "Rex")
    assert rex.size == 3 and "Alice" not in [a.entities[0] for a in abstracts]  # a speaker is no group
    texts = _texts(mem, user, rex.members)
    quoted = rex.text.split(": ", 1)[1]
    assert any(t in quoted for t in texts)  # extractive: the members' own sentences


def test_adding_messages_updates_the_abstracts_they_join(mem, tmp_path):
    user = _ingest(mem, tmp_path)
    before = _about(mem, user, "Rex")
    added = mem.add([("Alice", "Rex learned to fetch the ball in the park.")], user=user,
                    at=datetime(2023, 5, 20, tzinfo=timezone.utc))
    after = _about(mem, user, "Rex")
    assert after.size == before.size + 1 and set(added.memory_ids) < set(after.members)
    assert after.last_seen > before.last_seen
    # a message outside the span of time makes a group of its own, once it has a second member
    mem.add([("Alice", "Rex turned two years old today.")], user=user, at=datetime(2024, 3, 1, tzinfo=timezone.utc))
    assert _about(mem, user, "Rex").size == after.size
    assert len([a for a in mem.abstracts(user) if a.entities[0] == "Rex"]) == 1


def test_a_message_added_waits_for_a_later_pass_noted_in_the_graph(mem, tmp_path):
    user = _ingest(mem, tmp_path)
    before = _about(mem, user, "Rex")
    added = mem.add([("Alice", "Rex slept all afternoon on the sofa.")], user=user,
                    at=datetime(2023, 5, 21, tzinfo=timezone.utc))
    # noted on the user's node, so another process, or this one after a crash, finds it
    assert consolidation.deferred(mem.store, user) == added.memory_ids
    stored = [a for a in consolidation.abstracts(mem.store, user) if a.entities[0] == "Rex"]
    assert stored[0].size == before.size  # not derived yet
    after = _about(mem, user, "Rex")  # reading the abstracts derives what waits first
    assert after.size == before.size + 1 and set(added.memory_ids) < set(after.members)
    assert consolidation.deferred(mem.store, user) == []


def test_enough_waiting_messages_are_consolidated_by_the_add_itself(mem, tmp_path, monkeypatch):
    monkeypatch.setattr(pipeline, "DEFERRED_MAX", 2)
    user = _ingest(mem, tmp_path)
    size = _about(mem, user, "Rex").size
    first = mem.add([("Alice", "Rex dug a hole in the garden.")], user=user, at=datetime(2023, 5, 22, tzinfo=timezone.utc))
    second = mem.add([("Alice", "Rex barked at the postman.")], user=user, at=datetime(2023, 5, 23, tzinfo=timezone.utc))
    assert consolidation.deferred(mem.store, user) == []
    stored = [a for a in consolidation.abstracts(mem.store, user) if a.entities[0] == "Rex"][0]
    assert stored.size == size + 2 and set(first.memory_ids + second.memory_ids) < set(stored.members)


def test_forgetting_a_member_updates_its_abstract_and_leaves_no_trace_of_its_text(mem, tmp_path):
    user = _ingest(mem, tmp_path)
    rex = _about(mem, user, "Rex")
    [slippers] = [uid for uid, text in zip(rex.members, _texts(mem, user, rex.members)) if "zanzibarian" in text]
    mem.forget(user, memories=[slippers])
    after = _about(mem, user, "Rex")
    assert after.size == rex.size - 1 and slippers not in after.members
    everything = json.dumps([a.to_dict() for a in mem.abstracts(user)])
    assert "zanzibarian" not in everything and "slippers" not in everything
    stored = mem.driver.run("MATCH (a:Abstract {user_id: $u}) RETURN properties(a) AS p", {"u": user})
    assert stored and "zanzibarian" not in json.dumps([r["p"] for r in stored])


def test_forgetting_all_members_deletes_the_abstract(mem, tmp_path):
    user = _ingest(mem, tmp_path)
    carol = _about(mem, user, "Carol")
    mem.forget(user, memories=carol.members[:-1])  # one member left: no group
    assert _about(mem, user, "Carol") is None
    mem.forget(user, entity="Emma")
    assert _about(mem, user, "Emma") is None
    links = mem.driver.run("MATCH (a:Abstract {user_id: $u}) OPTIONAL MATCH (a)-[:SUMMARIZES]->(m) "
                           "RETURN a.key AS key, a.size AS size, count(m) AS members", {"u": user})
    assert links and all(r["size"] == r["members"] >= 2 for r in links)


def test_consolidating_again_changes_nothing_and_equals_a_rebuild(mem, tmp_path):
    user = _ingest(mem, tmp_path)
    mem.add([("Alice", "Rex learned to fetch the ball in the park.")], user=user,
            at=datetime(2023, 5, 20, tzinfo=timezone.utc))
    mem.forget(user, entity="Tokyo")
    kept = [a.to_dict() for a in mem.abstracts(user)]
    done = mem.consolidate(user)
    assert done.deleted == 0 and done.written == len(kept)
    assert [a.to_dict() for a in mem.abstracts(user)] == kept
    # from scratch: the abstracts deleted behind graphmem's back come back the same
    mem.driver.run("MATCH (a:Abstract {user_id: $u}) DETACH DELETE a", {"u": user})
    mem.consolidate(user)
    assert [a.to_dict() for a in mem.abstracts(user)] == kept


def _left_unfinished(mem: Memory, user: str) -> bool:
    """What the next writer's lease reads: whether the last holder left the user half-written
    (the next ingest or forget then runs crash recovery, a scan of the user). Left as found."""
    with UserLease(mem.store, user) as lease:
        if not lease.unfinished:
            lease.settle(lease.catalog)
        return lease.unfinished


def test_a_consolidation_that_ran_to_its_end_leaves_the_user_finished(mem):
    user, at = _user(), datetime(2023, 5, 8, tzinfo=timezone.utc)
    mem.add([("Alice", "Rex chewed the zanzibarian slippers."), ("Alice", "Rex slept in Lisbon.")], user=user, at=at)
    assert not _left_unfinished(mem, user) and consolidation.deferred(mem.store, user)
    mem.abstracts(user)  # derives what waits
    assert not _left_unfinished(mem, user)
    mem.consolidate(user)
    assert not _left_unfinished(mem, user)
    other = Memory(settings=mem.settings)  # another process: what `close` leaves
    other.add([("Alice", "Rex met Carol in Lisbon.")], user=user, at=at)
    other.close()
    assert not _left_unfinished(mem, user) and not consolidation.deferred(mem.store, user)
    # one interrupted half-way leaves the user unfinished, and so does the next (it recovers nothing) ...
    mem.add([("Alice", "Rex barked at Carol.")], user=user, at=at)
    write = queries.load("write_abstracts", mem.store.dialect).text
    interrupt(mem.driver, lambda: mem.consolidate(user), 0, counted=lambda query: query == write)
    assert _left_unfinished(mem, user)
    mem.consolidate(user)
    assert _left_unfinished(mem, user)
    mem.add([("Alice", "Rex found a stick.")], user=user, at=at)  # ... until a writer that recovers
    assert not _left_unfinished(mem, user)


def test_abstracts_are_not_exported_and_an_import_derives_them_again(mem, tmp_path):
    user = _ingest(mem, tmp_path)
    out = tmp_path / "export.jsonl"
    mem.export(user, out)
    assert '"Abstract"' not in out.read_text() and "SUMMARIZES" not in out.read_text()
    copy = _user()
    mem.import_(out, user=copy)
    assert [(a.text, a.size) for a in mem.abstracts(copy)] == [(a.text, a.size) for a in mem.abstracts(user)]


def test_recall_returns_the_abstracts_that_lent_and_can_do_without(mem, tmp_path):
    user = _ingest(mem, tmp_path)
    got = mem.recall("What things has Rex the puppy done?", user=user, k=5)  # a broad question
    assert got.abstracts and got.abstracts == got.to_dict()["abstracts"]
    by_key = {a.key: a for a in mem.abstracts(user)}
    for lender in got.abstracts:
        assert len(lender["held"]) >= 2 and set(lender["held"]) <= set(lender["members"])
        assert lender["text"] == by_key[lender["key"]].text
    assert "Rex" in [lender["entities"][0] for lender in got.abstracts]
    assert mem.recall("What things has Rex the puppy done?", user=user, k=5, abstracts=False).abstracts == []
    assert mem.recall("What do we know about Rex the puppy?", user=user, k=5).abstracts == []  # not broad


def test_the_ranker_sees_what_an_abstract_lends():
    got = candidate_features(["a", "b", "c"], ["semantic"], {"semantic": ["a"]}, {"a": 2.0}, {"a": 2.0}, {}, {}, {},
                             set(), lent={"a": 0.5, "b": 1.0})
    lent = got.matrix[:, got.names.index("abstract_lent")]
    assert list(lent) == [0.25, 0.5, 0.0]  # a share of the best fused score; c is in no lending abstract


LONG_TURNS = """## 8 May 2023
Alice: I adopted a puppy named Rex from the shelter in Lisbon. He is a small terrier with one white ear and a loud bark. The shelter had kept him for a whole month before I came.
Bob: Rex sounds like a lovely companion for you. My daughter Emma has wanted a dog of her own for years. She asks me about it every single evening after school.
Alice: Rex chewed my favourite slippers to pieces yesterday afternoon. I had to hide every pair of shoes in the wardrobe. The shoe shops in Lisbon are far too expensive for this.
Bob: Emma and Rex should meet in Lisbon someday soon. Emma loves terriers more than any other kind of dog. We could all walk along the river on a Sunday morning.
"""


def test_abstracts_from_the_vectors_an_ingest_holds_are_those_read_back(mem, tmp_path, monkeypatch):
    """An ingest hands consolidation the vectors it wrote (pipeline.HELD_VECTORS) instead of
    reading them back: the abstracts must be the same, central sentences included."""
    read = []
    run = mem.store.run

    def noting(name, **params):
        if name in ("abstract_vectors", "abstract_sentences"):
            read.append((name, params["vectors"], len(params["uids"])))
        return run(name, **params)

    monkeypatch.setattr(mem.store, "run", noting)
    held = _ingest(mem, tmp_path, LONG_TURNS)
    assert read and all(not vectors for _, vectors, _ in read)  # every vector was held, none read back
    monkeypatch.setattr(pipeline, "HELD_VECTORS", 0)
    read.clear()
    again = _ingest(mem, tmp_path, LONG_TURNS)
    assert read and all(vectors for _, vectors, _ in read)
    first, second = ([(a.text, a.entities, a.size) for a in mem.abstracts(user)] for user in (held, again))
    assert first and first == second
    # a sentence chosen from a turn's several by its vector, not the turn's first one
    assert any("wanted a dog of her own" in text for text, _, _ in first)
