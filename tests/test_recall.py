"""Recall on a small transcript with known answers: each channel, fusion, gaps, isolation."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from graphmem import Turn
from graphmem.models import Models
from graphmem.recall import trim_to_budget
from graphmem.recall.analysis import analyse, without_frame
from graphmem.recall.channels import cosines_of as _cosines
from graphmem.recall.pipeline import fuse, recall
from graphmem.store import Store

TRANSCRIPT = """\
## 8 May 2023
Alice: I adopted a puppy named Rex from the shelter in Lisbon.
Bob: That's lovely! My daughter Emma plays the violin every evening.
Alice: Rex chewed my favourite shoes yesterday.
Bob: Emma and Rex should meet in Lisbon someday.

## 3 June 2023
Alice: I started pottery classes with Carol last week.
Bob: I finally visited Tokyo with Emma.
Alice: Carol made a blue vase in pottery class.
"""


@pytest.fixture(scope="module")
def memory_user(mem, tmp_path_factory):
    path = tmp_path_factory.mktemp("recall") / "chat.txt"
    path.write_text(TRANSCRIPT)
    user = "recall-fixture"
    mem.ingest(path, user=user)
    return mem, user


def line(n: int) -> str:
    return f"chat.txt:{n}"


def test_each_channel_finds_its_answer(memory_user):
    mem, user = memory_user
    cases = [  # (query, channels, expected source in the top 3)
        ("Which instrument does the daughter practise?", ["semantic"], line(3)),
        ("violin", ["lexical"], line(3)),
        ("What happened to Rex?", ["entity"], line(2)),
        ("Did Emma and Rex meet in Lisbon?", ["simplicial"], line(5)),
        ("What happened in June 2023?", ["temporal"], line(8)),
    ]
    for query, channels, expected in cases:
        got = mem.recall(query, user=user, k=3, channels=channels, neighbours=False)
        assert expected in got.source_ids, (query, channels, got.source_ids)
        assert all(channels[0] in m.channels for m in got.memories)


def test_the_temporal_statement_ranks_a_range_by_the_question_entities_then_by_time(memory_user):
    mem, user = memory_user
    a = analyse(mem.store, mem.models, user, "What did Carol do in June 2023?")
    assert a.time_range is not None and a.entities
    start, end = a.time_range

    def ranked(vids: list[int]) -> list[str]:
        rows = mem.run("recall_temporal", user_id=user, start=start, end=end, vids=vids, limit=10)
        source = {r["uid"]: r["source_id"] for r in mem.run("recall_memories", user_id=user, uids=[r["uid"] for r in rows])}
        return [source[r["uid"]] for r in rows]

    with_carol = ranked([e.vid for e in a.entities])
    assert set(with_carol[:2]) == {line(8), line(10)}  # June, and Carol's
    assert with_carol[2:] == [line(9)]  # June only; May's turns are out of range
    assert sorted(ranked([])) == sorted(with_carol)  # without entities: the same range, by time alone


def test_a_fact_in_one_sentence_of_a_long_turn_is_found_by_that_sentence(mem, tmp_path):
    path = tmp_path / "long.txt"
    path.write_text("## 8 May 2023\n"
                    "Alice: The trains were late all week and my boss moved the quarterly review to Friday. "
                    "The weather was awful too. Anyway, I finally bought a sailing boat.\n"
                    "Bob: I spent the week fixing the kitchen sink and painting the hallway.\n")
    user = "recall-sentences"
    mem.ingest(path, user=user)
    a = analyse(mem.store, mem.models, user, "Did Alice buy a boat?")
    asked = {"user_id": user, "vector": a.vector, "topic": a.topic_vector, "limit": 5}
    scan = 10_000  # the index is shared with the other tests' users
    by_index = _cosines(mem.run("recall_semantic", scan=scan, **asked))
    exact = _cosines(mem.run("recall_semantic_exact", **asked))
    asked.pop("limit")
    filled = _cosines(mem.run("recall_similarity", uids=list(exact), **asked))
    source = {r["uid"]: r["source_id"] for r in mem.run("recall_memories", user_id=user, uids=list(exact))}
    cosines = {source[uid]: c for uid, c in exact.items()}
    turn, sentence, topic_turn, topic_sentence = cosines["long.txt:2"]
    assert sentence > turn + 0.1  # the boat sentence is much nearer the question than the turn it is diluted in
    assert topic_sentence > topic_turn
    bob = cosines["long.txt:3"]
    assert bob[0] == bob[1] and bob[2] == bob[3]  # one sentence: its own best sentence
    for uid, c in exact.items():  # every statement computes the same cosines
        assert by_index[uid] == pytest.approx(c, abs=1e-4) and filled[uid] == pytest.approx(c, abs=1e-4)
    got = mem.recall("Did Alice buy a boat?", user=user, k=1, channels=["semantic"], neighbours=False)
    assert got.source_ids == ["long.txt:2"]


def test_a_small_users_memories_are_scanned_exactly_not_read_from_the_shared_index(mem, tmp_path):
    """The memory index is shared by every user; for a user of at most EXACT_UP_TO memories the
    semantic channel does not read it (its read would reach too few of them) but scans the user's
    own memories, so what it finds is exact, whatever other users the store holds."""
    from graphmem.recall.tuning import EXACT_UP_TO

    path = tmp_path / "small.txt"
    path.write_text("## 8 May 2023\nAlice: I finally bought a sailing boat.\nBob: I painted the hallway.\n")
    user = f"recall-small-{tmp_path.name}"
    mem.ingest(path, user=user)
    assert EXACT_UP_TO >= 2
    statements: list[str] = []
    mem.driver.tracer = lambda query, params: statements.append(query)
    try:
        got = mem.recall("Did Alice buy a boat?", user=user, k=1, channels=["semantic"], neighbours=False)
    finally:
        mem.driver.tracer = None
    assert got.source_ids == ["small.txt:2"]
    index_reads = [q for q in statements if "vector.queryNodes(" in q and "Memory" in q.split("queryNodes(")[1][:30]
                   or "'memory_embedding'" in q]
    assert not index_reads
    assert any("MATCH (m:Memory {user_id: $user_id})" in q and "topic_turn" in q for q in statements)  # the exact scan


def test_the_topic_of_a_question_leaves_out_the_speakers_most_memories_are_said_by(mem, tmp_path):
    path = tmp_path / "topic.txt"
    path.write_text("## 8 May 2023\n" + "".join(f"{who}: {what}\n" for who, what in [
        ("Alice", "I finally bought a sailing boat."), ("Bob", "Nice! I painted the hallway."),
        ("Alice", "My neighbour Carol Smith came over to see it."), ("Bob", "Say hello to Carol Smith from me.")] * 3)
                    + "Bob: Dave fixed my bike.\nEve: Hello everyone, I am new here.\n")
    user = "recall-topic"
    mem.ingest(path, user=user)
    a = analyse(mem.store, mem.models, user, "What has Alice's brother bought?")  # Alice says 6 of the 14 memories
    assert a.topic == "What has brother bought?" and a.topic_vector != a.vector
    assert any("topic" in note for note in a.notes)
    for kept in ("What did Carol Smith see?",  # in 6 of them, but never speaks: her name is what is asked about
                 "What did Dave fix?",  # in one
                 "What did Eve say?"):  # speaks one
        b = analyse(mem.store, mem.models, user, kept)
        assert b.topic == b.query and b.topic_vector == b.vector, kept


def test_a_question_in_the_first_person_means_whoever_asks(memory_user):
    mem, user = memory_user
    alice = mem.recall("What did I adopt?", user=user, k=1, asker="Alice")
    assert any("asked by Alice" in note for note in alice.notes)
    assert "Alice" in [e.name for e in alice.analysis.entities] and alice.analysis.query == "What did I adopt?"
    assert alice.source_ids == [line(2)] and alice.memories[0].speaker == "Alice"
    bob = mem.recall("What did I adopt?", user=user, k=3, asker="Bob")
    assert [e.name for e in bob.analysis.entities if e.kind == "PERSON"] == ["Bob"]
    assert mem.recall("What did Alice adopt?", user=user, k=1, asker="Alice").notes == \
        mem.recall("What did Alice adopt?", user=user, k=1).notes  # no first person: nothing restated


def test_the_answer_channel_finds_the_kind_of_thing_asked_for_said_by_whom_it_names(memory_user):
    mem, user = memory_user
    got = mem.recall("Which cities has Bob been to?", user=user, k=5, channels=["answer"], neighbours=False)
    assert got.analysis.answer_kinds == ["GPE", "LOC", "FAC"]
    assert set(got.source_ids) == {line(5), line(9)}  # Lisbon and Tokyo, as Bob said them; not Alice's Lisbon
    assert not analyse(mem.store, mem.models, user, "What happened to Rex?").answer_kinds


def test_fused_answer_explains_its_channels(memory_user):
    mem, user = memory_user
    got = mem.recall("Where did Alice adopt Rex?", user=user, k=5)
    assert got.source_ids[0] == line(2)
    first = got.memories[0]
    assert {"semantic", "lexical", "entity", "simplicial"} <= set(first.channels)
    assert first.session_date.startswith("2023-05-08") and first.speaker == "Alice"
    assert got.context().startswith("[2023-05-08] Alice: I adopted a puppy named Rex")


def test_context_gives_the_words_as_said_by_whom_and_to_whom(mem, user):
    """context() shows a reader each memory's words as said, after who said them and, when they
    say "you" to the other of two speakers, to whom: not the restatement recall searches by
    ("Sam live in Paris"). With a third speaker, "you" could mean either other: no "to"."""
    at = datetime(2024, 3, 1, tzinfo=timezone.utc)
    mem.add([("Sam", "I live in Paris and work at Acme."),
             ("Robin", "You should visit the Louvre with your sister.")], user=user, conversation="two", at=at)
    mem.ingest([Turn("g1", "Ana", "Do you like the photo of my violin?", "1", at, 1, caption="a violin on a table"),
                Turn("g2", "Ben", "I do.", "1", at, 2), Turn("g3", "Cy", "Me too.", "1", at, 3)],
               user=user, conversation="three")
    lines = {m.speaker: m.context_line() for m in mem.recall("Who should visit the Louvre?", user=user, k=5).memories}
    assert lines["Robin"] == "[2024-03-01] Robin (to Sam): You should visit the Louvre with your sister."
    assert lines["Sam"] == "[2024-03-01] Sam: I live in Paris and work at Acme."
    got = mem.recall("What is in Ana's photo?", user=user, k=5)
    assert got.memories[0].context_line() == \
        "[2024-03-01] Ana: Do you like the photo of my violin? [image: a violin on a table]"
    assert got.memories[0].restated.startswith("Ana: Do you like the photo of Ana's violin?")  # what recall searches


def test_analysis_types_entities_and_times(memory_user):
    mem, user = memory_user
    when = analyse(mem.store, mem.models, user, "When did Carol make the vase?")
    assert when.type == "temporal" and "Carol" in [e.name for e in when.entities]
    assert analyse(mem.store, mem.models, user, "Would Emma enjoy a concert?").type == "open-domain"
    assert analyse(mem.store, mem.models, user, "What do Emma and Rex have in common?").type == "multi-hop"
    june = analyse(mem.store, mem.models, user, "What happened in June 2023?")
    assert june.time_text and june.time_range[1] - june.time_range[0] == 30 * 86400


@pytest.mark.parametrize("asked, searched", [
    ("Can you list the order in which I brought up different aspects of my budget tracker throughout our "
     "conversations, in order? Mention ONLY and ONLY three items.", "different aspects of my budget tracker?"),
    ("Can you give me a comprehensive summary of how I handled the database challenges across our discussions?",
     "how I handled the database challenges?"),
    ("Could you remind me of the date of the workshop I registered for?", "the date of the workshop I registered for?"),
    ("How many book series have I mentioned across my conversations?", "How many book series have I mentioned?"),
    ("Did I put the books in order?", "Did I put the books in order?"),  # an order that is the fact asked about
    ("Did I list two items on the form?", "Did I list two items on the form?"),  # a count that is asked about
    ("What did I order at the restaurant?", "What did I order at the restaurant?"),
    ("Can you list them?", "Can you list them?"),  # nothing would be left to search with
    ("Which  classical musicians does Melanie enjoy?", "Which  classical musicians does Melanie enjoy?"),  # as typed
    # asked without "can you", as agents and people in a hurry ask
    ("Summarize my house buying situation.", "my house buying situation."),
    ("Tell me about my family.", "my family."),
    ("List everything I've told you about my car.", "my car."),
    ("Give me a summary of my health issues.", "my health issues."),
    ("What do you know about my finances?", "What do you know about my finances?"),  # a question as asked
    ("Tell me what my dog is called", "what my dog is called"),
    ("Summarize the plot of Hamlet in two sentences.", "the plot of Hamlet in two sentences."),
])
def test_recall_searches_without_the_words_about_the_conversation_itself(asked, searched):
    assert without_frame(asked) == searched


def test_the_words_about_the_conversation_are_no_search_words_and_the_question_stays_as_asked(memory_user):
    mem, user = memory_user
    asked = "Can you list the order in which Alice brought up pottery throughout our conversations? Mention only two items."
    a = analyse(mem.store, mem.models, user, asked)
    assert a.query == asked and any("without its words about the conversation" in note for note in a.notes)
    assert "pottery" in a.words and not {"list", "order", "conversation", "mention", "item"} & set(a.words)
    plain = analyse(mem.store, mem.models, user, "Alice brought up pottery?")  # the name is no frame
    assert a.vector == plain.vector and a.words == plain.words
    bob = analyse(mem.store, mem.models, user, "Could you remind me of the city Emma visited?", asker="Bob")
    assert any("'the city Emma visited?'" in note for note in bob.notes)
    assert not any(note.startswith("asked by") for note in bob.notes)  # "me" was the request's: nothing restated


def test_gaps_name_entities_never_seen_together(memory_user):
    mem, user = memory_user
    got = mem.recall("Did Carol ever meet Rex in Tokyo?", user=user, k=3)
    never = {tuple(sorted(g.names)) for g in got.gaps if g.kind == "never together"}
    assert ("Carol", "Rex") in never and ("Rex", "Tokyo") in never
    assert ("Emma", "Tokyo") not in never  # Bob visited Tokyo with Emma
    seen = mem.recall("Emma and Tokyo", user=user, k=3)
    assert not [g for g in seen.gaps if g.hole]


def test_fusion_is_weighted_reciprocal_rank():
    scores = fuse({"a": ["x", "y"], "b": ["y"]}, {"a": 1.0, "b": 2.0}, rrf_k=60)
    assert scores["x"] == pytest.approx(1 / 61)
    assert scores["y"] == pytest.approx(1 / 62 + 2 / 61)


def test_token_budget_trims_from_the_bottom(memory_user):
    mem, user = memory_user
    full = mem.recall("Emma", user=user, k=5)
    trimmed = trim_to_budget(full.memories, budget=30)
    assert 0 < len(trimmed) < len(full.memories) and trimmed == full.memories[:len(trimmed)]


def test_one_users_memories_never_reach_another(memory_user, mem, tmp_path):
    mem_, user = memory_user
    path = tmp_path / "other.txt"
    path.write_text("## 1 July 2023\nZed: I adopted a puppy named Rex in Lisbon too.\n")
    mem.ingest(path, user=f"{user}-other")
    mine = mem.recall("puppy named Rex in Lisbon", user=user, k=10)
    theirs = mem.recall("puppy named Rex in Lisbon", user=f"{user}-other", k=10)
    assert theirs.source_ids == ["other.txt:2"]
    assert "other.txt:2" not in mine.source_ids and all(m.speaker != "Zed" for m in mine.memories)


def test_a_mention_matches_the_users_nearest_entity_where_the_shared_index_reaches_none_of_theirs(
        memory_user, mem, tmp_path, monkeypatch):
    import graphmem.recall.analysis as analysis_module

    mem_, user = memory_user
    path = tmp_path / "vark.txt"
    path.write_text("## 1 July 2023\nZed: Quillon Vark adopted a puppy in Lisbon.\n")
    mem.ingest(path, user=f"{user}-vark")
    vector = mem.models.embedder().embed_one("Quillon Vark")  # only the other user's entity is named so
    exact = mem.run("recall_entity_match_exact", user_id=user, vector=vector, limit=3)
    assert len(exact) == 3 and all(r["name"] != "Quillon Vark" for r in exact)
    by_index = mem.run("recall_entity_match", user_id=user, vector=vector, scan=10_000, limit=3)
    assert [(r["vid"], round(r["score"], 4)) for r in by_index] == [(r["vid"], round(r["score"], 4)) for r in exact]
    assert mem.run("recall_entity_match", user_id=user, vector=vector, scan=1, limit=1) == []  # the other's, filtered
    monkeypatch.setattr(analysis_module, "ENTITY_MATCH_SCAN", 1)
    assert [r["vid"] for r in analysis_module._nearest_entity(mem.store, user, vector)] == [exact[0]["vid"]]


def test_rerank_without_its_model_says_so_and_keeps_the_order(memory_user):
    from dataclasses import replace

    mem, user = memory_user
    plain = mem.recall("Where did Alice adopt Rex?", user=user, k=3)
    settings = replace(mem.settings, rerank_model="/nonexistent/cross-encoder")
    got = recall(Store(mem.driver, settings), Models(settings), "Where did Alice adopt Rex?", user=user, k=3)
    assert got.source_ids == plain.source_ids
    assert any("rerank off" in note for note in got.notes)


def test_entities_too_frequent_to_walk_only_boost_what_others_found(memory_user, monkeypatch):
    import graphmem.recall.channels as recall_module

    mem, user = memory_user
    monkeypatch.setattr(recall_module, "FANOUT", 0)  # every entity counts as too frequent
    alone = mem.recall("What happened to Rex?", user=user, k=3, channels=["entity"], neighbours=False)
    assert alone.memories == []  # nothing found by other channels: nothing to boost
    fused = mem.recall("What happened to Rex?", user=user, k=3, channels=["semantic", "entity"], neighbours=False)
    assert all("entity" in m.channels for m in fused.memories if "Rex" in m.text)


def test_words_too_frequent_to_walk_only_boost_what_others_found(memory_user, monkeypatch):
    import graphmem.recall.channels as recall_module

    mem, user = memory_user
    walked = mem.recall("Where did Alice adopt Rex?", user=user, k=3, channels=["lexical"], neighbours=False)
    assert walked.memories  # every word walked: BM25 alone finds the turn
    monkeypatch.setattr(recall_module, "FANOUT", 0)  # every word counts as too frequent
    alone = mem.recall("Where did Alice adopt Rex?", user=user, k=3, channels=["lexical"], neighbours=False)
    assert alone.memories == []  # nothing found by other channels: nothing to boost
    fused = mem.recall("Where did Alice adopt Rex?", user=user, k=3, channels=["semantic", "lexical"],
                   neighbours=False)
    assert any("lexical" in m.channels for m in fused.memories)


def test_the_lexical_boost_scores_a_memory_as_the_walk_does(memory_user):
    """recall_lexical_boost.cypher repeats recall_lexical.cypher's BM25 formula (statements
    cannot share an expression): with every word boosted, a memory scores what the walk gave it."""
    mem, user = memory_user
    terms = analyse(mem.store, mem.models, user, "Did Rex chew shoes in Lisbon, and who plays the violin or pottery?").words
    walked = {r["uid"]: r["score"] for r in mem.run("recall_lexical", user_id=user, terms=terms,
                                                     max_df=1 << 30, limit=50)}
    assert len(walked) >= 3
    boosted = {r["uid"]: r["score"] for r in mem.run("recall_lexical_boost", user_id=user,
                                                      terms=terms, max_df=0, uids=list(walked))}
    assert boosted.keys() == walked.keys()
    assert all(abs(boosted[uid] - walked[uid]) < 1e-9 for uid in walked)


def test_the_entity_walk_takes_neighbours_only_while_their_mentions_fit(memory_user):
    mem, user = memory_user
    rows = mem.driver.run(  # an entity related to one mentioned in a memory without it
        "MATCH (e:Entity {user_id: $u})-[:RELATES]-(:Entity)<-[:MENTIONS]-(m:Memory) "
        "OPTIONAL MATCH (m)-[x:MENTIONS]->(e) WITH e, x WHERE x IS NULL RETURN e.vid AS vid LIMIT 1", {"u": user})
    assert rows, "the fixture has such an entity"
    seed = rows[0]

    def walked(fanout: int) -> set[str]:
        found = mem.run("recall_entity", user_id=user, seeds=[{"vid": seed["vid"], "weight": 1.0}],
                        decay=0.3, fanout=fanout, limit=50)
        return {row["uid"] for row in found}

    own = {row["uid"] for row in mem.driver.run(
        "MATCH (m:Memory {user_id: $u})-[:MENTIONS]->(:Entity {user_id: $u, vid: $v}) RETURN m.uid AS uid",
        {"u": user, "v": seed["vid"]})}
    assert walked(0) == own  # no neighbour fits in no room
    assert walked(1000) > own  # the neighbours' memories join


def test_statements_run_beside_each_other_give_what_they_give_one_after_another(memory_user):
    from graphmem.threads import one_after_another

    mem, user = memory_user
    questions = ["Did Emma and Rex meet in Lisbon?", "What happened in June 2023?",
                 "Where did Alice adopt Rex, and who made a vase?", "What is Carol's job?"]

    def answers() -> list:
        got = [mem.recall(q, user=user, k=5) for q in questions]
        return [([(m.uid, m.score, m.channels) for m in r.memories], [g.question for g in r.gaps],
                 [str(s) for s in r.subcomplex], r.abstracts) for r in got]

    together = answers()
    timings = mem.recall(questions[0], user=user).timings
    assert {"channels", "simplicial", "gaps", "waited"} <= set(timings)
    with one_after_another():
        assert answers() == together
