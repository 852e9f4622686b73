"""Ingest against real spaCy, the real embedder and a real database: a transcript whose right
answers are known, idempotency, interrupted runs, malformed input."""

from __future__ import annotations

import json
import os
from dataclasses import replace
import signal
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import pytest

from graphmem import Memory, Settings
from graphmem.errors import ConfigError, InputError
from graphmem.ingest import ingest, read_transcript
from graphmem.ingest.extract import extract, mentions
from graphmem.ingest.summary import LOADING, IngestSummary
from graphmem.models import Models
from graphmem.store import Store
from graphmem.simplex import normalise
from graphmem.models import SMALL_BATCH, Embedder, resolve_device, resolve_precision

CONVERSATION = """\
## 8 May 2023
Alice: I met Bob in Paris yesterday. My sister came too.
Bob: Alice, you should visit Berlin next month.
Alice: I love Paris.

## 2023-05-20
Bob: Carol told me about her trip to Rome last Saturday.
Alice: Carol loves Rome, and so do I.
"""


def day(epoch: float) -> str:
    return datetime.fromtimestamp(epoch, timezone.utc).date().isoformat()


def memories(mem, user) -> list[dict]:
    return mem.driver.run("MATCH (m:Memory {user_id: $u}) RETURN m.source_id AS source_id, m.restated AS restated, "
                          "m.refers_to AS refers_to, m.session AS session ORDER BY m.position", {"u": user})


def snapshot(mem, user) -> dict:
    """Every count, every stored simplex with its observation count, every term's df."""
    cx = mem.complex(user)
    return {"stats": cx.stats(), "simplices": sorted((s.names, s.kind, s.count) for s in cx.simplices()),
            "terms": sorted((word, df) for word, (df, _) in term_frequencies(mem, user).items()),
            "sentences": sentences(mem, user)}


def sentences(mem, user) -> list[tuple[str, int, str]]:
    """(memory source id, number, text) of every stored sentence, with its memory and embedding."""
    rows = mem.driver.run("MATCH (m:Memory {user_id: $u})-[:HAS_SENTENCE]->(s:Sentence) WHERE s.embedding IS NOT NULL "
                          "RETURN m.source_id AS source_id, s.n AS n, s.text AS text", {"u": user})
    return sorted((r["source_id"], r["n"], r["text"]) for r in rows)


def term_frequencies(mem, user) -> dict[str, tuple[int, int]]:
    """word -> (its stored df, the postings it really has)."""
    rows = mem.driver.run("MATCH (t:Term {user_id: $u}) OPTIONAL MATCH (t)<-[h:HAS_TERM]-(:Memory) "
                          "RETURN t.word AS word, t.df AS df, count(h) AS postings", {"u": user})
    return {row["word"]: (row["df"], row["postings"]) for row in rows}


@pytest.fixture
def conversation(tmp_path):
    path = tmp_path / "conv.txt"
    path.write_text(CONVERSATION)
    return path


def test_known_answers(mem, user, conversation):
    summary = mem.ingest(conversation, user=user)
    assert (summary.turns, summary.memories_added, summary.sessions, summary.sentences) == (5, 5, 2, 2)
    rows = memories(mem, user)
    assert [r["source_id"] for r in rows] == ["conv.txt:2", "conv.txt:3", "conv.txt:4", "conv.txt:7", "conv.txt:8"]
    # restatement: first person as the speaker, second person as the addressee (two speakers)
    assert rows[0]["restated"] == "Alice: Alice met Bob in Paris yesterday. Alice's sister came too."
    assert rows[1]["restated"] == "Bob: Alice, Alice should visit Berlin next month."
    # a turn of several sentences is searchable sentence by sentence as well; one of one is not
    assert sentences(mem, user) == [("conv.txt:2", 0, "Alice: Alice met Bob in Paris yesterday."),
                                    ("conv.txt:2", 1, "Alice: Alice's sister came too.")]
    # relative times against the session date
    assert [day(r["refers_to"]) if r["refers_to"] else None for r in rows] == [
        "2023-05-07", "2023-06-08", None, "2023-05-13", None]
    # a file's conversation is named by its stem and its first message, its sessions within it
    [conv] = summary.conversations
    assert conv.startswith("conv-") and {r["session"] for r in rows} == {f"{conv}#1", f"{conv}#2"}
    cx = mem.complex(user)
    # entities: speakers, places, kin restated as the speaker's
    names = {row["name"] for row in mem.run("entity_catalog", user_id=user)}
    assert {"Alice", "Bob", "Paris", "Berlin", "Rome", "Carol", "Alice's sister"} <= names
    # the first turn's co-occurrence is one simplex, witnessed by that turn's memory
    turn = cx.find(["Alice", "Bob", "Paris", "Alice's sister"])
    assert turn is not None and turn.kind == "turn" and turn.count == 1 and len(turn.witnesses) == 1
    assert cx.find(["Alice", "Paris"]).kind == "turn"  # "I love Paris"
    # each session's entity set is a simplex witnessed by every memory of the session
    session = [s for s in cx.cofaces(["Alice", "Berlin"]) if s.kind == "session"]
    assert len(session) == 1 and len(session[0].witnesses) == 3
    # subject-verb-object relations between entities
    relations = mem.driver.run("MATCH (a:Entity {user_id: $u})-[r:RELATES]->(b:Entity) "
                               "RETURN a.name AS a, r.label AS label, b.name AS b", {"u": user})
    assert {"a": "Carol", "label": "love", "b": "Rome"} in relations
    assert {"a": "Alice", "label": "love", "b": "Paris"} in relations
    assert cx.verify() == []


@pytest.mark.parametrize("text, names", [
    ("My cousin Tamsin moved to Leeds.", ["Tamsin"]),  # the tagger reads a place
    ("My friend Anouk lives in Utrecht.", ["Anouk"]),  # an organisation
    ("Leah, my sister, lives in Toronto.", ["Leah"]),  # a proper noun, no kind
    ("My kids Ana and Bo love the zoo.", ["Ana", "Bo"]),
    ("My boss Priya Nair works at Stripe.", ["Priya Nair"]),
])
def test_a_name_beside_a_kin_word_is_a_persons(mem, text, names):
    found = [(m.name, m.kind) for m in mentions(mem.models.nlp()(text), "Robin", None)]
    assert [(n, "PERSON") for n in names] == [m for m in found if m[0] in names]


@pytest.mark.parametrize("text, subject", [
    ("My cousin Tamsin moved to Leeds.", "Robin's cousin"),  # a name the tagger does not know
    ("Leah, my sister, lives in Toronto.", "Robin's sister"),
    ("Emma, my sister, lives in Paris.", "Robin's sister"),
    ("My brother Kofi works at Deloitte.", "Kofi"),  # a name it reads as a person's
])
def test_a_claim_about_a_name_beside_a_kin_word_is_keyed_as_before(mem, text, subject):
    """Reading such names as people changes no claim's subject (claims._person says why)."""
    [claim] = extract(mem.models.nlp()(text), "Robin", None, None).claims
    assert claim.subject == subject


def test_a_name_beside_a_pet_is_no_persons(mem):
    found = [(m.name, m.kind) for m in mentions(mem.models.nlp()("My dog Biscuit lives in Ohio."), "Robin", None)]
    assert ("Biscuit", "PERSON") not in found


def ingest_mel(mem, user: str, tmp_path: Path) -> None:
    """Melanie, whom Caroline calls Mel."""
    path = tmp_path / "mel.jsonl"
    path.write_text("\n".join(json.dumps(m) for m in [
        {"speaker": "Melanie", "text": "Hi Caroline, I painted a lake!", "timestamp": "2023-05-08T10:00:00"},
        {"speaker": "Caroline", "text": "Wow Mel, that lake is lovely.", "timestamp": "2023-05-08T10:01:00"}]))
    mem.ingest(path, user=user)


def test_short_names_resolve_to_the_speaker(mem, user, tmp_path):
    ingest_mel(mem, user, tmp_path)
    catalog = {row["name"]: row for row in mem.run("entity_catalog", user_id=user)}
    assert "Mel" not in catalog and "Mel" in catalog["Melanie"]["aliases"]
    assert mem.complex(user).find(["Melanie", "Caroline", "lake"]) is not None


def test_a_question_finds_an_entity_by_an_alias_also_when_stored_before_alias_norms(mem, user, tmp_path):
    ingest_mel(mem, user, tmp_path)

    def named(*names: str) -> list[str]:
        return [r["name"] for r in mem.run("recall_entities_by_name", user_id=user, norms=[normalise(n) for n in names])]

    assert named("Mel") == ["Melanie"] and named("MELANIE", "mel") == ["Melanie"]
    vids = [r["vid"] for r in mem.run("recall_entities_by_name", user_id=user, norms=["lake", "mel", "melanie", "caroline"])]
    assert len(vids) == 3 and vids == sorted(vids)  # each once (by name and by alias), in one order on every backend
    # as graphmem once wrote them: no list, and no mark that the graph was migrated
    mem.driver.run("MATCH (e:Entity {user_id: $u}) SET e.alias_norms = null", {"u": user})
    mem.driver.run("MATCH (g:Graphmem {layout: 'alias_norms'}) DELETE g")
    assert named("Mel") == []
    mem.setup()
    assert named("Mel") == ["Melanie"]


def test_twice_is_once(mem, user, conversation):
    mem.ingest(conversation, user=user)
    once = snapshot(mem, user)
    again = mem.ingest(conversation, user=user)
    assert again.memories_added == 0 and again.entities_added == 0 and again.sentences == 0
    assert snapshot(mem, user) == once and once["sentences"]
    terms = term_frequencies(mem, user)
    assert terms and all(df == postings for df, postings in terms.values())  # BM25's df, batch after batch


def test_sentence_views_can_be_turned_off(mem, user, conversation, monkeypatch):
    settings = replace(mem.settings, sentence_views=False)
    summary = ingest(Store(mem.driver, settings), Models(settings), conversation, user=user)
    assert summary.memories_added == 5 and summary.sentences == 0 and sentences(mem, user) == []
    assert mem.recall("Who did Alice meet in Paris?", user=user, k=1).source_ids == ["conv.txt:2"]
    monkeypatch.setenv("GRAPHMEM_SENTENCE_VIEWS", "off")
    assert Settings.from_env().sentence_views is False
    monkeypatch.setenv("GRAPHMEM_SENTENCE_VIEWS", "maybe")
    with pytest.raises(ConfigError, match="GRAPHMEM_SENTENCE_VIEWS='maybe' is not true or false"):
        Settings.from_env()


def test_dry_run_writes_nothing(mem, user, conversation):
    summary = mem.ingest(conversation, user=user, dry_run=True)
    assert summary.turns == 5 and summary.memories_added == 5 and summary.dry_run
    assert mem.run("user_exists", user_id=user)[0]["known"] is False


@pytest.mark.parametrize("name, content, line, message", [
    ("bad.jsonl", '{"role": "user", "content": "hi"}\n{"role": "user", "content": \n', 2, "bad JSON"),
    ("notext.jsonl", '{"role": "user", "content": "hi"}\n{"role": "user"}\n', 2, "no text"),
    ("odd.json", '{"title": "not a transcript"}', None, "unknown format"),
    ("prose.txt", "this line has no speaker\nAlice: hello\n", 1, "Speaker: text"),  # the first line: no message to continue
    ("empty.txt", "\n  \n", None, "empty file"),
    ("locomo.json", '{"speaker_a": "A", "session_1": [{"speaker": "A", "dia_id": "D1:1"}]}', 1, "no text"),
])
def test_malformed_input_names_file_and_line_and_writes_nothing(mem, user, tmp_path, conversation, name, content,
                                                                line, message):
    bad = tmp_path / name
    bad.write_text(content)
    with pytest.raises(InputError) as err:
        mem.ingest([conversation, bad], user=user)  # the good file first: still nothing written
    assert message in str(err.value) and str(bad) in str(err.value)
    if line:
        assert f"{bad}:{line}:" in str(err.value)
    assert mem.run("user_exists", user_id=user)[0]["known"] is False


def test_formats_give_the_same_turns(tmp_path):
    jsonl = tmp_path / "a.jsonl"
    jsonl.write_text('{"speaker": "A", "text": "hello", "id": "m1", "session": "s1"}\n')
    messages = tmp_path / "b.json"
    messages.write_text('{"messages": [\n  {"role": "A", "content": "hello", "id": "m1", "session": "s1"}\n]}')
    fields = lambda t: (t.source_id, t.speaker, t.text, t.session)  # noqa: E731
    assert fields(read_transcript(jsonl)[0]) == fields(read_transcript(messages)[0]) == ("m1", "A", "hello", "s1")


@pytest.mark.slow
def test_kill_9_then_rerun_gives_the_same_graph(mem, backend, user, tmp_path):
    """A client killed mid-ingest leaves a graph that a re-run completes to exactly what one
    uninterrupted run gives."""
    if backend != "falkordb":
        pytest.skip("drives the embedded server through the CLI")
    lines = [f"{'Alice' if i % 2 else 'Bob'}: I saw {city} with {friend} on day {i}. It rained."
             for i, (city, friend) in enumerate(
                 [(c, f) for c in ("Paris", "Rome", "Oslo", "Lima", "Cairo") for f in ("Carol", "Dan", "Eve")] * 8)]
    path = tmp_path / "long.txt"
    path.write_text("## 1 June 2023\n" + "\n".join(lines) + "\n")
    env = {**os.environ, "GRAPHMEM_HOME": str(mem.settings.home), "GRAPHMEM_INGEST_BATCH": "8"}
    command = [str(Path(sys.executable).parent / "graphmem"), "ingest", str(path), "--user", user, "--json"]
    proc = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 120
    while time.time() < deadline and proc.poll() is None:
        if mem.driver.run("MATCH (m:Memory {user_id: $u}) RETURN count(m) AS n", {"u": user})[0]["n"] >= 16:
            break
        time.sleep(0.05)
    interrupted = proc.poll() is None
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    mem.ingest(path, user=user)
    reference = f"{user}-ref"
    mem.ingest(path, user=reference)
    got, want = snapshot(mem, user), snapshot(mem, reference)
    got["stats"].pop("user"), want["stats"].pop("user")
    assert got == want
    assert interrupted, "the ingest finished before it could be killed; the test proved nothing"


def test_a_turn_with_more_entities_than_the_bound_is_capped_and_counted(mem, user, tmp_path):
    from dataclasses import replace

    path = tmp_path / "crowd.txt"
    path.write_text("## 1 June 2023\nAlice: I met Bob, Carol, Dan and Eve in Paris, Rome and Oslo.\n")
    if mem.settings.uri is not None:
        pytest.skip("opens a second handle on the embedded server")
    small = Memory(settings=replace(mem.settings, max_simplex_size=3))
    try:
        summary = small.ingest(path, user=user)
    finally:
        small.close()
    assert summary.capped_simplices == 1
    turn = [s for s in mem.complex(user).simplices() if s.kind == "turn"]
    assert len(turn) == 1 and len(turn[0].vids) == 3
    assert set(turn[0].names) == {"Alice", "Bob", "Carol"}  # the speaker, then named ones in mention order


def test_a_message_that_names_only_the_subject_of_a_claim_witnesses_its_simplex(mem, user):
    """No entity of its own text is mentioned, only its claim's subject (the speaker): the turn's
    simplex is that subject. An empty one crashed the whole add (a blind history set found it)."""
    said = "We're dropping Tuesdays starting in June, it's always dead. So Wednesday to Sunday from now on."
    uid = mem.add([("user", said)], user=user).memory_ids[0]
    assert [m.uid for m in mem.recall("Which days are we open?", user=user, k=3).memories] == [uid]
    assert [s.names for s in mem.complex(user).simplices() if uid in s.witnesses] == [("user",)]
    assert mem.complex(user).verify() == []


def test_an_ingest_witnesses_only_the_sessions_it_read(mem, user, conversation, tmp_path):
    first = mem.ingest(conversation, user=user)
    assert first.session_simplices == 2
    other = tmp_path / "other.txt"
    other.write_text("## 1 June 2023\nDan: I took Eve to Oslo.\n")
    second = mem.ingest(other, user=user)
    assert second.session_simplices == 1  # not the first file's two again
    assert mem.complex(user).find(["Dan", "Eve", "Oslo"]).witnesses  # its own session was witnessed


def test_bfloat16_embeddings_stay_close_to_float32_ones():
    """The precision setting changes the arithmetic, not what the vectors say (on a CPU without
    native bfloat16 the comparison still holds, only slower)."""
    texts = ["Alice adopted a puppy named Rex in Lisbon.", "Bob's daughter Emma plays the violin.", "ok"]
    exact, fast = Embedder("all-MiniLM-L6-v2", "float32"), Embedder("all-MiniLM-L6-v2", "bfloat16")
    assert (exact.precision, fast.precision) == ("float32", "bfloat16")
    a, b = exact.embed(texts), fast.embed(texts)
    assert b.dtype == np.float32 and np.allclose(np.linalg.norm(b, axis=1), 1.0, atol=1e-5)
    assert ((a * b).sum(axis=1) > 0.999).all()
    assert resolve_precision("auto") in ("float32", "bfloat16") and resolve_precision("float32") == "float32"
    with pytest.raises(ConfigError, match="embedding_precision"):
        Settings(embedding_precision="fp8").validate()


def test_the_embedding_device_is_a_setting_and_a_wrong_one_is_one_clear_error():
    """"auto" takes a GPU where torch sees one; a device this torch lacks, or no device at all,
    is refused by name before any model loads."""
    import torch

    auto = Embedder("all-MiniLM-L6-v2", device="auto")
    assert auto.device == ("cuda" if torch.cuda.is_available() else "cpu")
    cpu = Embedder("all-MiniLM-L6-v2", "float32", device="cpu")
    text = ["Alice adopted a puppy named Rex in Lisbon."]
    assert float(auto.embed(text)[0] @ cpu.embed(text)[0]) > 0.999
    with pytest.raises(ConfigError, match="'gpu0' is no torch device"):
        resolve_device("gpu0")
    if not torch.cuda.is_available():
        with pytest.raises(ConfigError, match="'cuda'.*no such device"):
            resolve_device("cuda")
    assert Settings().embedding_device == "auto"


def test_bfloat16_batches_are_padded_to_few_shapes_without_changing_a_vector():
    """Padded batches (PAD_BATCH) and token lengths (PAD_TOKENS) keep oneDNN's kernels few; each
    text still gets its own vector, the one it gets alone."""
    fast = Embedder("all-MiniLM-L6-v2", "bfloat16")
    texts = [f"Turn {i}: " + "a longer sentence about the violin " * (i % 4) for i in range(SMALL_BATCH + 3)]
    together = fast.embed(texts)
    alone = np.vstack([fast.embed([t]) for t in texts])
    assert together.shape == (len(texts), fast.dimensions)
    assert ((together * alone).sum(axis=1) > 0.999).all()
    assert not np.allclose(together[-1], together[-2])  # the padding copies the last text; it is dropped


def test_the_summary_counts_are_integers(mem, user, conversation):
    summary = mem.ingest(conversation, user=user).to_dict()
    counts = {k: v for k, v in summary.items()
              if k not in ("user", "seconds", "turns_per_second", "dry_run", "stages", "conversations", "memory_ids",
                           "superseded")}
    assert all(type(v) is int for v in counts.values()), counts


def test_the_rate_is_the_ingests_own_not_the_models_loading(mem, user, conversation):
    """A process's first ingest loads the models (seconds); that is its own stage, and the rate
    (turns a second) leaves it out, so a small first ingest does not read as slow."""
    summary = mem.ingest(conversation, user=user)
    assert LOADING in summary.stages and summary.stages[LOADING] <= summary.seconds
    first = IngestSummary("u", turns=4, seconds=10.0, stages={LOADING: 8.0})
    assert first.turns_per_second == pytest.approx(2.0) and first.to_dict()["turns_per_second"] == 2.0
    assert IngestSummary("u", turns=4, seconds=2.0).turns_per_second == pytest.approx(2.0)


def test_a_vector_is_stored_to_the_last_bit_of_its_float32(mem, user):
    """A vector travels as text to FalkorDB, in float32's nine significant digits
    (graphmem.vectors.Vector): fewer would move it, and every cosine with it."""
    from graphmem.vectors import as_param

    mem.add([("Sam", "I keep my bike in the shed.")], user=user)
    vid = mem.driver.run("MATCH (e:Entity {user_id: $u}) RETURN e.vid AS vid LIMIT 1", {"u": user})[0]["vid"]
    rng = np.random.default_rng(7)
    vector = (rng.standard_normal(mem.settings.embedding_dimensions)
              * 10.0 ** rng.integers(-9, 3, mem.settings.embedding_dimensions)).astype(np.float32)
    mem.store.run("complete_memories", user_id=user, rows=[], entities=[{"vid": vid, "embedding": as_param(vector)}])
    stored = mem.driver.run("MATCH (e:Entity {user_id: $u, vid: $vid}) RETURN e.embedding AS v", {"u": user, "vid": vid})
    assert np.array_equal(np.asarray(stored[0]["v"], dtype=np.float32), vector)


def test_an_entity_settled_with_a_new_vector_keeps_every_other_property(mem, user):
    """The last statement of a batch (complete_memories) removes an entity's pending mark and
    then, on FalkorDB, its old vector before writing the new one (FalkorDB#2099): two removals
    from one node, which FalkorDB#1787 can get wrong. An entity an interrupted batch left
    pending with a vector has both done to it, and must keep all else."""
    from graphmem.vectors import as_param

    props = {"user_id": user, "vid": 1, "name": "Alpha Beta", "norm": "alpha beta", "kind": "PERSON",
             "aliases": ["Alpha Beta", "AB"], "alias_text": " Alpha Beta AB", "alias_norms": ["alpha beta", "ab"],
             "frequency": 3, "first_seen": 1.5, "last_seen": 2.5, "pending": 5.0}
    dimensions = mem.settings.embedding_dimensions
    old, new = np.ones(dimensions, dtype=np.float32), np.arange(1, dimensions + 1, dtype=np.float32)
    mem.store.run("complete_memories", user_id=user, rows=[], entities=[])  # a no-op on an empty batch
    mem.driver.run("CREATE (e:Entity) SET e = $p CREATE (m:Memory {user_id: $u, uid: 'm1', text: 't'})-[:MENTIONS]->(e)",
                   {"u": user, "p": props})
    mem.store.run("complete_memories", user_id=user, rows=[], entities=[{"vid": 1, "embedding": as_param(old)}])
    mem.store.run("complete_memories", user_id=user, entities=[{"vid": 1, "embedding": as_param(new)}],
                  rows=[{"uid": "m1", "embedding": as_param(old), "sentences": []}])
    (row,) = mem.driver.run("MATCH (e:Entity {user_id: $u}) RETURN properties(e) AS p", {"u": user})
    stored = dict(row["p"])
    assert np.array_equal(np.asarray(stored.pop("embedding"), dtype=np.float32), new)
    assert stored == {k: v for k, v in props.items() if k != "pending"}
    (m,) = mem.driver.run("MATCH (m:Memory {user_id: $u}) RETURN m.complete AS complete", {"u": user})
    assert m["complete"] is True


def test_falkordb_rows_with_vectors_are_read_as_the_client_reads_them(mem, user):
    """The driver reads plain rows itself (graphmem.drivers.falkor._plain_rows), vectors
    included; the client's parser, which it falls back on, must read them the same."""
    if mem.driver.dialect != "falkordb":
        pytest.skip("the FalkorDB driver's own reading")
    from falkordb.query_result import QueryResult

    from graphmem.drivers.falkor import _plain_rows, params_header

    uid = mem.add([("Sam", "I keep my bike in the shed. It is a blue one.")], user=user).memory_ids[0]
    query, params = mem.store.query("abstract_sentences").text, {"user_id": user, "uids": [uid], "vectors": True}
    graph = mem.driver._graph
    response = graph.execute_command("GRAPH.RO_QUERY", graph.name, params_header(params) + query, "--compact")
    ours = _plain_rows(response)
    parsed = QueryResult(graph, response)
    theirs = [dict(zip([c[1] for c in parsed.header], row)) for row in parsed.result_set]
    assert ours is not None and ours == theirs
    assert ours[0]["sentences"] and all(len(s[2]) == mem.settings.embedding_dimensions for s in ours[0]["sentences"])


def test_the_batch_is_sized_by_where_the_embedding_runs_unless_set(mem):
    """`ingest_batch` 0 (the default): 64 turns a step where the model runs on a CUDA GPU, 128
    elsewhere (bench/README.md, "The vectors last, and a smaller batch on a GPU"); a number
    sets it; a negative one is refused in one line."""
    from types import SimpleNamespace

    import torch

    from graphmem.ingest.pipeline import BATCH_CPU, BATCH_GPU, batch_size

    assert mem.settings.ingest_batch == 0 and (BATCH_CPU, BATCH_GPU) == (128, 64)
    assert batch_size(mem.store, mem.models.embedder()) == (BATCH_GPU if torch.cuda.is_available() else BATCH_CPU)
    assert batch_size(mem.store, SimpleNamespace(device="cuda:1")) == BATCH_GPU
    assert batch_size(mem.store, SimpleNamespace(device="mps")) == BATCH_CPU
    assert batch_size(Store(mem.driver, replace(mem.settings, ingest_batch=8)), SimpleNamespace(device="cuda")) == 8
    with pytest.raises(ConfigError, match="ingest_batch"):
        Settings.from_env(ingest_batch=-1).validate()
