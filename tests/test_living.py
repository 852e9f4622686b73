"""Living memory: an agent adds messages as it talks, a transcript read again adds only what is
new, stored memories can be listed and read, and forgetting leaves no trace: the store after a
forget is the store into which the forgotten memories were never ingested."""

from __future__ import annotations

import json
import uuid
from datetime import datetime, timezone

import numpy as np
import pytest

from graphmem import Memory
from graphmem.errors import InputError
from interrupt import interrupt

CHAT_A = """## 8 May 2023
Melanie: I adopted a puppy named Rex from the shelter in Lisbon.
Bob: That's lovely! My daughter Emma plays the violin every evening.
Melanie: Rex chewed my favourite shoes yesterday, the zanzibarian slippers.

## 9 May 2023
Bob: Emma wants to learn pottery from Carol next month.
Melanie: Carol made a blue vase in pottery class.
"""

CHAT_B = """## 3 June 2023
Mel: I started running along the river in Porto every morning.
Bob: Running is great. I bought new trail shoes for the hills.
Mel: Next weekend we hike the Douro valley with Bob.
"""

FORGOTTEN_WORDS = ["zanzibarian", "Lisbon", "violin", "pottery", "Melanie", "puppy"]


def _write(tmp_path, name, text, folder="."):
    path = tmp_path / folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def _user() -> str:
    return f"living-{uuid.uuid4().hex[:10]}"


def _texts_of_user(mem: Memory, user: str) -> list[str]:
    """Every property value of every node and relationship that carries the user's id."""
    rows = mem.driver.run("MATCH (n) WHERE n.user_id = $u OR n.id = $u OPTIONAL MATCH (n)-[r]-() "
                          "RETURN properties(n) AS n, collect(properties(r)) AS rs", {"u": user})
    out = []
    for row in rows:
        for props in [row["n"], *row["rs"]]:
            out += [json.dumps(v, default=str) for v in (props or {}).values()]
    return out


def _recall(mem: Memory, user: str, query: str) -> list[tuple[str, float]]:
    got = mem.recall(query, user=user, k=10)
    return [(m.uid, round(m.score, 6)) for m in got.memories]


# -- identity ---------------------------------------------------------------------------


def test_a_transcript_read_again_with_a_blank_line_and_a_new_line_adds_only_the_new_line(mem, tmp_path):
    user = _user()
    first = mem.ingest(_write(tmp_path, "chat.txt", CHAT_A), user=user)
    assert first.memories_added == 5
    edited = CHAT_A.replace("## 9 May 2023\n", "## 9 May 2023\nBob: Carol also teaches on Sundays.\n")
    again = mem.ingest(_write(tmp_path, "chat.txt", "\n" + edited), user=user)
    assert (again.memories_added, again.memories_replaced, again.conversations) == (1, 0, first.conversations)
    stored = mem.memories(user)
    assert len(stored) == 6 and len({m.id for m in stored}) == 6
    assert [m.text for m in stored if m.conversation == first.conversations[0]][3] == "Carol also teaches on Sundays."
    assert [m.position for m in stored] == list(range(6))  # the old messages moved to the file's places


def test_two_files_of_one_name_in_two_folders_are_two_conversations(mem, tmp_path):
    user = _user()
    a = mem.ingest(_write(tmp_path, "chat.txt", CHAT_A, "one"), user=user)
    b = mem.ingest(_write(tmp_path, "chat.txt", CHAT_B, "two"), user=user)
    assert a.conversations != b.conversations and b.memories_added == 3
    assert sorted(c.memories for c in mem.conversations(user)) == [3, 5]


def test_an_edited_message_replaces_its_old_version(mem, tmp_path):
    user = _user()
    mem.ingest(_write(tmp_path, "chat.txt", CHAT_A), user=user)
    again = mem.ingest(_write(tmp_path, "chat.txt", CHAT_A.replace("blue vase", "green bowl")), user=user)
    assert (again.memories_added, again.memories_replaced) == (1, 1)
    texts = [m.text for m in mem.memories(user)]
    assert "Carol made a green bowl in pottery class." in texts and not any("blue vase" in t for t in texts)
    assert not any("blue" in t for t in _texts_of_user(mem, user))
    assert mem.complex(user).verify() == []


# -- add -------------------------------------------------------------------------------


def test_add_takes_agent_messages_without_plumbing_and_is_recallable_at_once(mem):
    user = _user()
    messages = [
        {"role": "system", "content": "You are a helpful travel assistant"},
        {"role": "user", "name": "Sam", "content": "Book me a table in Lyon for Friday."},
        {"role": "assistant", "content": None,
         "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "book", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "{\"ok\": true, \"ref\": \"XJ-99\"}"},
        {"role": "assistant", "content": "Done: a table for two in Lyon on Friday at eight."},
    ]
    summary = mem.add(messages, user=user, conversation="trip")
    assert summary.memories_added == 2 and summary.conversations == ["trip"]
    stored = mem.memories(user)
    assert [(m.speaker, m.position) for m in stored] == [("Sam", 0), ("assistant", 1)]
    assert not any("helpful travel assistant" in t or "XJ-99" in t for t in _texts_of_user(mem, user))
    assert any(m.text.startswith("Book me a table") for m in mem.recall("Lyon", user=user).memories)
    assert mem.add(messages, user=user, conversation="trip").memories_added == 0  # a retry adds nothing
    more = mem.add([("Sam", "Also a taxi to the station.")], user=user, conversation="trip")
    assert more.memories_added == 1 and mem.memories(user)[-1].position == 2
    assert {"user": user, "memories": 3} in mem.users()  # the count kept as memories are added
    assert mem.complex(user).verify() == []


def test_add_of_one_string_uses_the_time_given(mem):
    user = _user()
    at = datetime(2024, 2, 29, 12, 0, tzinfo=timezone.utc)
    mem.add("I live in Paris.", user=user, at=at)
    [m] = mem.memories(user)
    assert (m.speaker, m.conversation, m.date.date()) == ("user", "default", at.date())


# -- reading ---------------------------------------------------------------------------


def test_memories_are_paged_filtered_and_read_one_by_one(mem, tmp_path):
    user = _user()
    mem.ingest(_write(tmp_path, "chat.txt", CHAT_A), user=user)
    first, second = mem.memories(user, limit=3), None
    second = mem.memories(user, limit=3, after=first[-1].id)
    assert len(first) == 3 and len(second) == 2 and not {m.id for m in first} & {m.id for m in second}
    assert [m.speaker for m in mem.memories(user, speaker="Bob")] == ["Bob", "Bob"]
    assert {m.text for m in mem.memories(user, entity="Carol")} == {
        "Emma wants to learn pottery from Carol next month.", "Carol made a blue vase in pottery class."}
    assert mem.memories(user, entity="Nobody at all") == []
    assert len(mem.memories(user, since=datetime(2023, 5, 9))) == 2
    assert mem.get(first[0].id, user=user) == first[0]
    assert mem.get(first[0].id, user=_user()) is None  # scoped by user
    assert {"user": user, "memories": 5} in mem.users()
    with pytest.raises(InputError):
        mem.memories(user, limit=0)


def test_paging_after_an_id_that_is_no_memory_of_the_user_is_refused_not_restarted(mem):
    user, other = _user(), _user()
    ids = mem.add([("Sam", "I keep bees."), ("Sam", "The bees make honey."), ("Sam", "I sell the honey.")],
                  user=user).memory_ids
    assert [m.id for m in mem.memories(user, limit=2, after=ids[0])] == ids[1:]
    mem.forget(user, memories=[ids[0]])
    for whose, after in [(user, "no-such-id"), (other, ids[1]), (user, ids[0])]:  # a typo, another's, forgotten
        with pytest.raises(InputError, match=f"no memory {after!r} of user {whose!r} to list after"):
            mem.memories(whose, limit=2, after=after)


# -- forgetting --------------------------------------------------------------------------


def test_forgetting_a_conversation_leaves_the_store_as_if_it_had_never_been_ingested(mem, tmp_path):
    both, only_b = _user(), _user()
    a = mem.ingest(_write(tmp_path, "a.txt", CHAT_A), user=both)
    mem.ingest(_write(tmp_path, "b.txt", CHAT_B), user=both)
    mem.ingest(_write(tmp_path, "b.txt", CHAT_B), user=only_b)
    done = mem.forget(both, conversation=a.conversations[0])
    assert done.memories == 5
    cx, clean = mem.complex(both), mem.complex(only_b)
    assert cx.verify() == []
    # the trie's shape depends on the order of vertex ids (the clean store numbered the entities
    # differently), what it stores does not
    stats, want = cx.stats(), clean.stats()
    assert {k: v for k, v in stats.items() if k not in ("user", "trie_nodes")} == \
        {k: v for k, v in want.items() if k not in ("user", "trie_nodes")}
    everything = " ".join(_texts_of_user(mem, both))
    assert not [w for w in FORGOTTEN_WORDS if w in everything]
    names = sorted(row["name"] for row in mem.driver.run("MATCH (e:Entity {user_id: $u}) RETURN e.name AS name",
                                                           {"u": both}))
    assert names == sorted(row["name"] for row in mem.driver.run(
        "MATCH (e:Entity {user_id: $u}) RETURN e.name AS name", {"u": only_b}))
    assert sorted((sorted(s.names), s.count) for s in cx.simplices()) == \
        sorted((sorted(s.names), s.count) for s in clean.simplices())
    for query in ["Where does Mel run?", "What did Bob buy?", "Lisbon puppy", "hiking in the Douro valley"]:
        assert _recall(mem, both, query) == _recall(mem, only_b, query), query
    assert not [m for m in mem.recall("zanzibarian slippers Lisbon", user=both).memories if "Lisbon" in m.text]


def test_forgetting_by_entity_by_time_and_by_id_keeps_the_store_sound(mem, tmp_path):
    user = _user()
    mem.ingest(_write(tmp_path, "a.txt", CHAT_A), user=user)
    mem.ingest(_write(tmp_path, "b.txt", CHAT_B), user=user)
    assert mem.forget(user, entity="Carol").memories == 2
    assert not mem.memories(user, entity="Emma") or all("Carol" not in m.text for m in mem.memories(user))
    assert mem.complex(user).verify() == []
    assert mem.forget(user, before=datetime(2023, 6, 1)).memories == 3
    assert [m.conversation for m in mem.memories(user)].count(None) == 0 and len(mem.memories(user)) == 3
    one = mem.memories(user)[0].id
    assert mem.forget(user, memories=[one]).memories == 1
    assert mem.get(one, user=user) is None and len(mem.memories(user)) == 2
    assert mem.complex(user).verify() == []
    with pytest.raises(InputError):
        mem.forget(user, entity="Nobody at all")
    with pytest.raises(InputError):
        mem.forget(user)


def test_forgetting_a_user_leaves_no_node_with_its_id_and_logs_no_content(mem, tmp_path):
    user = _user()
    mem.ingest(_write(tmp_path, "a.txt", CHAT_A), user=user)
    mem.add("My passport number is 12345.", user=user)
    done = mem.forget(user, everything=True)
    assert done.memories == 6 and done.nodes > 6
    assert mem.driver.run("MATCH (n) WHERE n.user_id = $u OR n.id = $u RETURN count(n) AS n", {"u": user})[0]["n"] == 0
    assert user not in {u["user"] for u in mem.users()}
    log = (mem.settings.home / "erasures.jsonl").read_text().splitlines()
    record = json.loads(log[-1])
    assert record["kind"] == "everything" and record["memories"] == 6
    assert user not in log[-1] and "passport" not in log[-1]
    again = mem.forget(user, everything=True)  # a retry, or a user never seen: nothing to forget, nothing made
    assert again.memories == 0 and again.nodes == 0 and user not in {u["user"] for u in mem.users()}
    assert mem.forget(user, conversation="chat").memories == 0
    assert mem.driver.run("MATCH (n) WHERE n.user_id = $u OR n.id = $u RETURN count(n) AS n", {"u": user})[0]["n"] == 0


def test_a_process_that_kept_the_catalogue_reads_it_again_after_another_writer(mem, home):
    user = _user()
    other = Memory(settings=mem.settings)  # another store handle: another process's view
    try:
        mem.add([("Alice", "Melanie Smith came by with her paintings today.")], user=user)
        other.add([("Alice", "Mel brought a cake to the party.")], user=user)  # "Mel" becomes Melanie's alias
        mem.add([("Alice", "Melanie Smith left early to catch the train.")], user=user)
    finally:
        other.close()
    [aliases] = [row["aliases"] for row in mem.driver.run(
        "MATCH (e:Entity {user_id: $u}) WHERE e.name = 'Melanie Smith' RETURN e.aliases AS aliases", {"u": user})]
    assert "Mel" in aliases, aliases  # not overwritten by a copy of the catalogue from before


def _snapshot(mem: Memory, user: str) -> dict:
    q, u = mem.driver.run, {"u": user}
    return {
        "stats": {k: v for k, v in mem.complex(user).stats().items() if k != "user"},
        "entities": sorted((r["n"], tuple(r["a"] or []), r["f"]) for r in q(
            "MATCH (e:Entity {user_id: $u}) RETURN e.name AS n, e.aliases AS a, e.frequency AS f", u)),
        "simplices": sorted((s.names, s.count, len(s.witnesses)) for s in mem.complex(user).simplices()),
        "terms": sorted((r["w"], r["df"]) for r in q("MATCH (t:Term {user_id: $u}) RETURN t.word AS w, t.df AS df", u)),
        "memories": sorted((m.id, m.text) for m in mem.memories(user, limit=None)),
    }


@pytest.mark.slow
def test_a_forget_interrupted_after_any_statement_is_finished_by_the_next_one(mem, tmp_path):
    a, b = _write(tmp_path, "a.txt", CHAT_A), _write(tmp_path, "b.txt", CHAT_B)

    def prepared() -> tuple[str, str]:
        user = _user()
        conversation = mem.ingest(a, user=user).conversations[0]
        mem.ingest(b, user=user)
        return user, conversation

    clean, conversation = prepared()
    statements: list[str] = []
    mem.driver.tracer = lambda query, params: statements.append(query)
    try:
        mem.forget(clean, conversation=conversation)
    finally:
        mem.driver.tracer = None
    want = _snapshot(mem, clean)
    failures = []
    for point in range(1, len(statements) - 1):  # after each statement but the lease's last ones
        user, _ = prepared()
        interrupt(mem.driver, lambda: mem.forget(user, conversation=conversation), point)
        # the first statements (is there such a user, the lease, what to forget) change nothing yet
        assert not [m for m in mem.memories(user, limit=None) if m.conversation == conversation] or point < 4
        mem.forget(user, conversation=conversation)  # again, as a caller would after an error
        got = _snapshot(mem, user)
        if got != want or mem.complex(user).verify():
            failures.append((point, statements[point].split("\n")[0][:60], [k for k in want if got[k] != want[k]]))
    assert failures == [], failures


def test_messages_added_one_at_a_time_witness_their_session_as_one_ingest_does(mem):
    """A live conversation's session simplex waits with its consolidation (each message's own
    simplex is written at once); the pass that derives them ends where adding the same
    messages at once does, and a message that names nothing new to the session keeps the
    simplex and adds its witness."""
    at = datetime(2024, 3, 1, 10, tzinfo=timezone.utc)
    said = [("Alice", "I adopted a puppy called Rex in Lisbon."), ("Bob", "Emma wants to meet Rex."),
            ("Alice", "Rex and Emma played in Lisbon all afternoon."),  # nothing new to the session
            ("Bob", "Then Emma took Rex to the beach in Cascais.")]  # Cascais: a larger simplex
    one_by_one, at_once = _user(), _user()
    for message in said:
        mem.add([message], user=one_by_one, conversation="walk", at=at)
    mem.add(said, user=at_once, conversation="walk", at=at)

    def sessions(user: str) -> list:
        return sorted((s.names, s.count, len(s.witnesses)) for s in mem.complex(user).simplices()
                      if s.kind == "session")

    assert sessions(one_by_one) == [] and mem.complex(one_by_one).verify() == []  # waiting, not lost
    assert len([s for s in mem.complex(one_by_one).simplices() if s.kind == "turn"]) == 4
    for user in (one_by_one, at_once):
        mem.consolidate(user, rebuild=False)
    assert sessions(one_by_one) == sessions(at_once)
    assert [count for _, count, _ in sessions(one_by_one)] == [4]  # one session simplex, four witnesses
    assert mem.complex(one_by_one).verify() == []
    mem.add([("Alice", "Rex slept in Lisbon.")], user=one_by_one, conversation="walk", at=at)
    mem.consolidate(one_by_one, rebuild=False)  # a message naming nothing new: the same simplex, one more witness
    assert [count for _, count, _ in sessions(one_by_one)] == [5] and mem.complex(one_by_one).verify() == []


def test_counts_kept_by_adding_one_message_at_a_time_are_those_a_recount_gives(mem):
    """`add` raises its entities' counts by the new mentions instead of recounting every
    memory that mentions them: the counts, first and last seen end as a recount's."""
    user = _user()
    said = ["I adopted a puppy called Rex in Lisbon.", "Emma wants to meet Rex.",
            "Rex and Emma played in Lisbon all afternoon.", "Then Emma took Rex to Cascais."]
    for day, text in enumerate(said, start=1):
        mem.add([("Alice", text)], user=user, conversation="walk", at=datetime(2024, 3, day, tzinfo=timezone.utc))
    mem.add([("Alice", said[0])], user=user, conversation="walk")  # known: counts nothing twice

    def counts() -> dict:
        return {r["vid"]: (r["frequency"], r["first_seen"], r["last_seen"]) for r in mem.driver.run(
            "MATCH (e:Entity {user_id: $u}) RETURN e.vid AS vid, e.frequency AS frequency, "
            "e.first_seen AS first_seen, e.last_seen AS last_seen", {"u": user}, read_only=True, retry=False)}

    kept = counts()
    catalog = mem.run("entity_catalog", user_id=user)
    mem.run("update_entities", user_id=user, entities=[{"vid": r["vid"], "aliases": r["aliases"]} for r in catalog])
    assert kept == counts()
    assert [kept[r["vid"]][0] for r in catalog if r["name"] == "Rex"] == [4]


def test_forgetting_leaves_the_user_free_and_an_emptied_trie_node_only_its_place(mem, cx, user):
    """FalkorDB 4.16 removes the wrong properties when one statement removes several of one
    node (FalkorDB#1787). Giving the lease back removed its end and kept its token, so the
    user stayed locked for good after a forget of its last memory. Unstoring a simplex
    removed six properties of its node in one statement; it now writes the node's map whole."""
    mem.add("I live in Paris.", user=user)
    mem.forget(user, memories=[mem.memories(user)[0].id])
    (lease,) = mem.driver.run("MATCH (u:User {id: $u}) RETURN u.lease AS token", {"u": user})
    assert lease["token"] is None  # given back: the next writer does not wait
    cx.insert(["Ann", "Bo"], kind="turn", meta={"source": "chat.txt:1"})
    cx.insert(["Ann", "Bo", "Cy"], kind="turn", meta={"source": "chat.txt:2"})
    assert cx.remove(["Ann", "Bo"]) == 1  # its node stays: the trie's way to {Ann, Bo, Cy}
    rows = mem.driver.run("MATCH (n:SimplexNode {user_id: $u}) WHERE n.depth = 2 RETURN keys(n) AS keys, n.count AS count",
                          {"u": user})
    emptied = [set(r["keys"]) for r in rows if r["count"] == 0]
    assert emptied and all(keys <= {"user_id", "key", "vertex", "depth", "path", "ring_head", "count"} for keys in emptied)
    assert [sorted(c.names) for c in cx.cofaces(["Ann", "Bo"])] == [["Ann", "Bo", "Cy"]]


def test_an_entitys_kind_after_a_forget_is_the_kind_a_fresh_store_reads(mem):
    """Emma read as a person in a forgotten memory, and otherwise in the one kept: the kind
    goes with the memory it was read from, as her aliases and counts do."""
    told = [("Bob", "That's lovely! My daughter Emma plays the violin every evening.")]
    kept = [("Bob", "I finally visited Tokyo with Emma.")]
    forgot, fresh = _forgotten_beside_fresh(mem, told, kept)
    kinds = {user: mem.driver.run("MATCH (e:Entity {user_id: $u}) RETURN e.name AS name, e.kind AS kind ORDER BY name",
                                  {"u": user}) for user in (forgot, fresh)}
    assert kinds[forgot] == kinds[fresh] and any(r["name"] == "Emma" for r in kinds[fresh])
    bob = mem.driver.run("MATCH (e:Entity {user_id: $u, name: 'Bob'}) RETURN e.kind AS kind", {"u": forgot})
    assert [r["kind"] for r in bob] in ([], ["PERSON"])  # a speaker stays a person


def test_an_entity_renamed_by_a_forget_has_the_vector_of_its_new_name(mem):
    """The name an entity had came only from the forgotten memory: it takes the name the kept
    one calls it by, and that name's vector, as a fresh store gives it (FalkorDB sets no vector
    over another without the old one removed first: FalkorDB#2099)."""
    told = [("Bob", "I had lunch with Caroline Ferreira at the harbour.")]
    kept = [("Bob", "Caroline wants to go to the harbour again on Sunday.")]
    def one_entity_both_names(forgot: str) -> None:
        named = mem.driver.run("MATCH (e:Entity {user_id: $u}) RETURN e.name AS name", {"u": forgot})
        assert "Caroline Ferreira" in [r["name"] for r in named]

    forgot, fresh = _forgotten_beside_fresh(mem, told, kept, before_forget=one_entity_both_names)
    vectors = {user: {r["name"]: np.asarray(r["v"], dtype=np.float32) for r in mem.driver.run(
        "MATCH (e:Entity {user_id: $u}) RETURN e.name AS name, e.embedding AS v", {"u": user})}
        for user in (forgot, fresh)}
    assert "Caroline" in vectors[fresh] and set(vectors[forgot]) == set(vectors[fresh])
    # as near as one name embedded alone and in a batch of others are (Caroline Ferreira's is 0.62)
    assert float(vectors[forgot]["Caroline"] @ vectors[fresh]["Caroline"]) > 0.999


def _forgotten_beside_fresh(mem, told, kept, before_forget=lambda forgot: None) -> tuple[str, str]:
    """Two new users: `forgot` was told `told` (conversation c1), then `kept` (c2), and c1 is
    forgotten; `fresh` was only ever told `kept`."""
    forgot, fresh = f"forgot-{uuid.uuid4().hex[:8]}", f"fresh-{uuid.uuid4().hex[:8]}"
    mem.add(told, user=forgot, conversation="c1", at=datetime(2024, 1, 5, tzinfo=timezone.utc))
    for user in (forgot, fresh):
        mem.add(kept, user=user, conversation="c2", at=datetime(2024, 6, 5, tzinfo=timezone.utc))
    before_forget(forgot)
    mem.forget(forgot, conversation="c1")
    return forgot, fresh
