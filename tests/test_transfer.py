"""Export and import (graphmem/transfer.py): a user's memory out of the embedded store as JSON
Lines and back into a fresh store of every backend the suite runs gives the same graph, the
same stats, a sound verify and the same recall; a bad file is refused before anything is
written; an interrupted import run again completes it; a user that holds memories is kept."""

from __future__ import annotations

import gzip
import io
import json
import os
import re
import uuid
from datetime import datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

from graphmem import GraphmemError, InputError, Memory, Settings, queries, transfer
from graphmem.cli import main
from graphmem.transfer import KEYS, UserNotEmpty
from interrupt import interrupt

ROOT = Path(__file__).resolve().parent.parent
QUESTIONS = ["Where did Alice adopt Rex?", "Who plays the violin every evening?", "What did Carol make in pottery class?"]
SECOND = """\
## 14 July 2023
Dana: I moved to Porto last spring. The flat looks over the river, and the light is lovely in the evening.
Eli: Porto suits you, Dana! Did Alice visit you there?
Dana: Alice came in June with Rex. Rex swam in the river while we ate sardines.
"""


@pytest.fixture(scope="module")
def source(home, tmp_path_factory) -> tuple[Memory, str]:
    """An embedded store holding one user's memory of two transcripts (with relations, sentence
    views, sessions, simplices of several dimensions)."""
    mem = Memory(settings=Settings(home=home))
    user = f"transfer-{uuid.uuid4().hex[:8]}"
    second = tmp_path_factory.mktemp("transcripts") / "porto.txt"
    second.write_text(SECOND)
    mem.ingest([ROOT / "examples" / "chat.txt", second], user=user)
    yield mem, user
    mem.close()


@pytest.fixture(scope="module")
def exported(source, tmp_path_factory) -> Path:
    mem, user = source
    path = tmp_path_factory.mktemp("export") / f"{user}.jsonl"
    mem.export(user, path)
    return path


@pytest.fixture
def target(backend, home, request) -> Memory:
    """A store to import into: a fresh graph on the embedded server, or the Neo4j database (where
    each test imports under a user id of its own)."""
    if backend == "neo4j":
        yield request.getfixturevalue("mem")
        return
    fresh = Memory(settings=Settings(home=home, graph=f"transfer-{uuid.uuid4().hex[:8]}"))
    yield fresh
    fresh.close()


def dump(mem: Memory, user: str) -> dict:
    """The user's whole graph, read without graphmem.transfer: every node's properties by its
    label and key, every relationship by its type, ends and properties; the user id and what
    belongs to the store rather than the memory (a lease, an import's mark) left out."""
    nodes, rels = {}, []
    for row in mem.driver.run("MATCH (n) WHERE n.user_id = $u OR (n:User AND n.id = $u) "
                              "RETURN labels(n) AS labels, properties(n) AS p", {"u": user}):
        (label,) = row["labels"]
        properties = dict(row["p"])
        properties.pop("id" if label == "User" else "user_id")
        if label == "User":
            properties = {k: v for k, v in properties.items() if k not in transfer.LOCAL["User"]}
        key = (label, tuple(properties.get(k) for k in {**KEYS, "Abstract": ("key",)}[label]))  # abstracts: rebuilt
        assert key not in nodes, f"two {key} nodes"
        nodes[key] = properties
    for row in mem.driver.run("MATCH (a)-[r]->(b) WHERE a.user_id = $u OR (a:User AND a.id = $u) "
                              "RETURN labels(a)[0] AS la, a {.uid, .n, .vid, .key, .word} AS ka, "
                              "type(r) AS t, properties(r) AS p, labels(b)[0] AS lb, "
                              "b {.uid, .n, .vid, .key, .word} AS kb", {"u": user}):
        rels.append(json.dumps([row["la"], row["ka"], row["t"], row["p"], row["lb"], row["kb"]], sort_keys=True))
    return {"nodes": nodes, "relationships": sorted(rels)}


def stats(mem: Memory, user: str) -> dict:
    return {k: v for k, v in mem.complex(user).stats().items() if k != "user"}


def recalled(mem: Memory, user: str) -> list[list[tuple[str, float]]]:
    return [[(m.uid, m.score) for m in mem.recall(q, user=user).memories] for q in QUESTIONS]


def node_count(mem: Memory) -> int:
    return mem.driver.run("MATCH (n) RETURN count(n) AS n")[0]["n"]


def test_a_round_trip_to_a_fresh_store_keeps_the_graph_stats_verify_and_recall(source, exported, target, backend):
    mem, user = source
    summary = target.import_(exported)
    assert summary.user == user and summary.source_user == user and summary.relationships > 0
    assert summary.labels["Sentence"] > 0 and summary.labels["Memory"] == stats(mem, user)["memories"] == 11
    assert stats(target, user) == stats(mem, user)
    assert target.complex(user).verify() == [] and mem.complex(user).verify() == []
    assert dump(target, user) == dump(mem, user)
    want, got = recalled(mem, user), recalled(target, user)
    assert [[uid for uid, _ in q] for q in got] == [[uid for uid, _ in q] for q in want]
    if backend == "falkordb":
        assert got == want  # same backend, same float32 vectors: the very same scores
    else:  # Neo4j computes cosines in double precision
        assert [[s for _, s in q] for q in got] == pytest.approx([[s for _, s in q] for q in want], abs=1e-4)


def test_the_file_is_a_header_then_nodes_then_relationships(exported, source):
    _, user = source
    lines = [json.loads(line) for line in exported.read_text().splitlines()]
    header, rest = lines[0], lines[1:]
    assert header["graphmem_export"] == 1 and header["user"] == user and header["dimensions"] == 384
    assert header["embedding_model"] and header["exported_at"].endswith("+00:00")
    kinds = ["node" if "node" in line else "rel" for line in rest]
    assert kinds == sorted(kinds, key=lambda k: k != "node")  # every node before any relationship
    nodes = [line for line in rest if "node" in line]
    assert (header["nodes"], header["relationships"]) == (len(nodes), len(rest) - len(nodes))
    assert [n["labels"][0] for n in nodes] == sorted((n["labels"][0] for n in nodes), key=list(KEYS).index)
    memory = next(n for n in nodes if n["labels"] == ["Memory"])["properties"]
    assert len(memory["embedding"]) == 384 and all(isinstance(x, float) for x in memory["embedding"])
    assert nodes[0]["labels"] == ["User"] and not set(nodes[0]["properties"]) & {"lease", "touched_at", "importing"}


def test_an_import_under_another_user_leaves_the_original_untouched(source, exported):
    mem, user = source
    before = dump(mem, user)
    copy = f"copy-{uuid.uuid4().hex[:8]}"  # holds nothing of the original id
    assert mem.import_(exported, user=copy).user == copy
    assert dump(mem, user) == before
    assert dump(mem, copy) == before and stats(mem, copy) == stats(mem, user)
    assert mem.complex(copy).verify() == []
    assert recalled(mem, copy) == recalled(mem, user)
    # the user id was rewritten everywhere: no property of the copy holds the original id
    held = mem.driver.run("MATCH (n) WHERE n.user_id = $u OR (n:User AND n.id = $u) RETURN properties(n) AS p",
                          {"u": copy})
    assert held and not [p for row in held for p in row["p"].values() if user in json.dumps(p)]


def test_an_export_from_before_alias_norms_imports_to_the_same_graph(source, exported, tmp_path):
    mem, user = source
    older = tmp_path / "older.jsonl"
    with exported.open() as lines, older.open("w") as out:
        for line in lines:
            row = json.loads(line)
            if "Entity" in row.get("labels", ()):
                assert row["properties"].pop("alias_norms")  # what graphmem wrote before it kept them
            out.write(json.dumps(row) + "\n")
    copy = f"older-{uuid.uuid4().hex[:8]}"
    mem.import_(older, user=copy)
    assert dump(mem, copy) == dump(mem, user)


def test_an_export_from_before_two_verbs_were_one_action_imports_with_the_revocation_linked(source, tmp_path):
    """An older graphmem keyed "stop adding" apart from "always include" and linked nothing; the
    import rekeys the claims and links them, as an ingest today would have."""
    mem, _ = source
    user = f"revoked-{uuid.uuid4().hex[:8]}"
    mem.add("Always include version numbers when I ask about software libraries.", user=user)
    mem.add("You can stop adding version numbers now.", user=user)
    path, older = tmp_path / "now.jsonl", tmp_path / "older.jsonl"
    mem.export(user, path)
    rows = [json.loads(line) for line in path.open()]
    rows = [row for row in rows if row.get("rel") != "SUPERSEDES"]  # an older version linked nothing
    rows[0]["relationships"] -= 1
    [revoking] = [row for row in rows if row.get("rel") == "CLAIMS" and row["properties"]["positive"] is False]
    revoking["properties"]["slot"] = "instruction:add:version number"
    older.write_text("".join(json.dumps(row) + "\n" for row in rows))
    copy = f"older-{uuid.uuid4().hex[:8]}"
    mem.import_(older, user=copy)
    [revocation] = [m for m in mem.memories(copy) if m.text.startswith("You can stop")]
    assert [v.text[:11] for v in mem.history(revocation.id, user=copy)] == ["Always incl", "You can sto"]


def test_links_set_by_hand_travel_and_hold_after_the_import(source, target, tmp_path):
    """A link made by hand and one undone by hand are exported, and the import's settling of the
    claims leaves both as they were."""
    mem, _ = source
    user = f"by-hand-{uuid.uuid4().hex[:8]}"
    paris, berlin, old, new = (mem.add(text, user=user, at=datetime(2024, month, 5)).memory_ids[0] for text, month in [
        ("I live in Paris.", 1), ("I moved to Berlin.", 2),
        ("I'm planning my portfolio website and the deadline for the first sprint is April 1, 2024.", 3),
        ("I'm updating my portfolio website timeline: the new first sprint deadline is April 5, 2024.", 4)])
    mem.unsupersede(berlin, paris, user=user)
    mem.supersede(new, old, user=user)
    path = tmp_path / "by-hand.jsonl"
    mem.export(user, path)
    target.import_(path)
    for uid in (paris, old):
        assert target.history(uid, user=user) == mem.history(uid, user=user)
    assert [v.current for v in target.history(paris, user=user)] == [True]
    assert [v.current for v in target.history(old, user=user)] == [False, True]
    assert dump(target, user) == dump(mem, user)


def test_an_export_derives_what_added_messages_left_waiting_first(source, tmp_path):
    """`Memory.add` leaves a session's simplex to a later pass, and simplices travel: the file
    holds it, and the copy is what the source is once derived."""
    mem, _ = source
    user = f"waiting-{uuid.uuid4().hex[:8]}"
    for text in ("I adopted a puppy called Rex in Lisbon.", "Emma wants to meet Rex in Porto."):
        mem.add([("Alice", text)], user=user, conversation="walk")
    assert not [s for s in mem.complex(user).simplices() if s.kind == "session"]  # waiting
    path = tmp_path / "waiting.jsonl"
    mem.export(user, path)
    assert [s.kind for s in mem.complex(user).simplices()].count("session") == 1
    copy = f"copy-{uuid.uuid4().hex[:8]}"
    mem.import_(path, user=copy)
    assert dump(mem, copy) == dump(mem, user) and mem.complex(copy).verify() == []


def _replace(lines: list[str], at: int, change) -> list[str]:
    return lines[:at - 1] + [change(lines[at - 1])] + lines[at:]


def _short_vector(line: str) -> str:
    data = json.loads(line)
    data["properties"]["embedding"] = data["properties"]["embedding"][:12]
    return json.dumps(data) + "\n"


def _dangling(line: str) -> str:
    data = json.loads(line)
    data["to"] = 10 ** 9
    return json.dumps(data) + "\n"


def _other_user(line: str) -> str:
    data = json.loads(line)
    data["properties"]["user_id"] = "someone-else"
    return json.dumps(data) + "\n"


def _vertex_zero(line: str) -> str:
    data = json.loads(line)
    data["properties"]["vid"] = 0  # FalkorDB's unique key on (user_id, vid) crashes the server on 0
    return json.dumps(data) + "\n"


def _next_vertex_zero(line: str) -> str:
    data = json.loads(line)
    data["properties"]["next_vid"] = 0  # the next entity the user's ingest made would be numbered 0
    return json.dumps(data) + "\n"


def _wrong_end(line: str) -> str:
    data = json.loads(line)
    data["rel"] = "PARENT"  # a MENTIONS (Memory -> Entity) made a PARENT (SimplexNode -> SimplexNode)
    return json.dumps(data) + "\n"


CORRUPTIONS = {
    "not JSON": (lambda lines: len(lines) // 2, lambda line: line[: len(line) // 2] + "\n", "not JSON"),
    "a short embedding": (lambda lines: next(i for i, s in enumerate(lines, 1) if '"labels":["Memory"]' in s),
                          _short_vector, "has 12 numbers"),
    "a relationship to no node": (lambda lines: next(i for i, s in enumerate(lines, 1) if '"rel":' in s) + 3,
                                  _dangling, "which the file does not define"),
    "a node of another user": (lambda lines: next(i for i, s in enumerate(lines, 1) if '"labels":["Entity"]' in s),
                               _other_user, "of user 'someone-else'"),
    "an entity numbered 0": (lambda lines: next(i for i, s in enumerate(lines, 1) if '"labels":["Entity"]' in s),
                             _vertex_zero, "'vid' counts from 1"),
    "a user whose next entity is numbered 0": (
        lambda lines: next(i for i, s in enumerate(lines, 1) if '"labels":["User"]' in s), _next_vertex_zero,
        "'next_vid' (the next entity's number) counts from 1"),
    "a relationship between the wrong labels": (
        lambda lines: next(i for i, s in enumerate(lines, 1) if '"rel":"MENTIONS"' in s), _wrong_end, "is a Memory"),
    "another dimension": (lambda lines: 1, lambda line: line.replace('"dimensions":384', '"dimensions":768'),
                          "768 dimensions"),
}


@pytest.mark.parametrize("corruption", sorted(CORRUPTIONS))
def test_a_corrupted_file_is_refused_naming_file_and_line_and_nothing_is_written(exported, target, user,
                                                                                  tmp_path, corruption):
    where, change, says = CORRUPTIONS[corruption]
    lines = exported.read_text().splitlines(keepends=True)
    at = where(lines)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(_replace(lines, at, change)))
    before = node_count(target)
    with pytest.raises(InputError) as refused:
        target.import_(bad, user=user)
    assert str(refused.value).startswith(f"{bad}:{at}: ") and says in str(refused.value)
    assert refused.value.line == at
    assert node_count(target) == before
    assert not target.driver.run("MATCH (u:User {id: $u}) RETURN u.id AS id", {"u": user})


def test_a_file_cut_short_is_refused(exported, target, user, tmp_path):
    lines = exported.read_text().splitlines(keepends=True)
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(lines[:-5]))
    before = node_count(target)
    with pytest.raises(InputError, match=r"the header announces \d+ nodes and \d+ relationships.*cut short"):
        target.import_(cut, user=user)
    assert node_count(target) == before


def test_an_import_interrupted_anywhere_then_run_again_gives_the_clean_graph(source, exported, target, backend,
                                                                             monkeypatch):
    mem, user = source
    want = dump(mem, user)
    monkeypatch.setattr(transfer, "BATCH", 40)  # several statements of each kind
    import_statements = {queries.load(name, target.store.dialect).text
                         for name in ("import_begin", "import_nodes", "import_relationships", "import_end")}
    seen: list[str] = []
    target.driver.tracer = lambda query, params: seen.append(query)
    try:
        target.import_(exported, user=f"clean-{uuid.uuid4().hex[:8]}")
    finally:
        target.driver.tracer = None
    writes = sum(query in import_statements for query in seen)
    assert writes >= 8

    failures = []
    for point in range(1, writes):
        into = f"cut-{point}-{uuid.uuid4().hex[:8]}"
        interrupt(target.driver, lambda: target.import_(exported, user=into), point,
                  counted=lambda query: query in import_statements)
        again = target.import_(exported, user=into)
        if not again.resumed or dump(target, into) != want or target.complex(into).verify():
            failures.append(point)
    assert failures == []


def test_an_import_into_a_user_that_holds_memories_is_refused_unless_it_replaces_them(source, exported, target,
                                                                                        user, tmp_path):
    mem, origin = source
    other = tmp_path / "other.txt"
    other.write_text("Zoe: I keep bees on the roof of the library.\nYann: Do the bees like the lavender?\n")
    target.ingest(other, user=user)
    before = dump(target, user)
    with pytest.raises(UserNotEmpty, match=r"already holds 2 memories"):
        target.import_(exported, user=user)
    assert dump(target, user) == before
    replaced = target.import_(exported, user=user, replace=True)
    assert replaced.replaced == sum(1 for (label, _) in before["nodes"] if label != "User")
    assert dump(target, user) == dump(mem, origin) and stats(target, user) == stats(mem, origin)
    assert target.complex(user).verify() == []
    # a second import of the same file is refused too, and changes nothing; replacing again neither
    after = dump(target, user)
    with pytest.raises(UserNotEmpty):
        target.import_(exported, user=user)
    target.import_(exported, user=user, replace=True)
    assert dump(target, user) == after


def test_streams_and_gzip_files_round_trip(source, tmp_path):
    mem, user = source
    packed = tmp_path / "memory.jsonl.gz"
    mem.export(user, packed)
    assert gzip.decompress(packed.read_bytes()).startswith(b'{"graphmem_export":1')
    assert not list(tmp_path.glob("*.partial"))
    stream = io.StringIO()
    mem.export(user, stream)
    # the same lines but for the header's time: an export is a function of the memory
    assert stream.getvalue().splitlines()[1:] == gzip.decompress(packed.read_bytes()).decode().splitlines()[1:]
    copy = f"{user}-stream"
    stream.seek(0)
    assert mem.import_(stream, user=copy).nodes == mem.import_(packed, user=f"{user}-gz").nodes
    assert dump(mem, copy) == dump(mem, f"{user}-gz") == dump(mem, user)


def test_an_export_refuses_a_label_it_does_not_know_and_writes_no_file(source, user, tmp_path):
    mem, _ = source
    mem.complex(user).insert(["Ada", "Grace"])
    mem.driver.run("CREATE (:Mystery {user_id: $u, note: 'added by a newer graphmem'})", {"u": user})
    out = tmp_path / "mystery.jsonl"
    try:
        with pytest.raises(GraphmemError, match="labelled Mystery, which graphmem.transfer does not know"):
            mem.export(user, out)
    finally:
        mem.driver.run("MATCH (n:Mystery {user_id: $u}) DELETE n", {"u": user})
    assert not out.exists() and not list(tmp_path.iterdir())


def test_the_key_tables_match_the_cypher_files():
    """transfer.py's labels, keys and relationship types are the ones its statements handle."""
    nodes = queries.load("import_nodes").text
    rels = queries.load("import_relationships").text
    for label, key in KEYS.items():
        assert f"row.label = '{label}'" in nodes
        merged = re.search(rf"\(\w+:{label} \{{([^}}]*)\}}\)", nodes)  # a sentence's uid is its memory's
        assert merged and all(f"{k}:" in merged[1] for k in key if (label, k) != ("Sentence", "uid")), label
        assert queries.load(transfer.EXPORTS[label]).params == ("user_id", "after", "limit")
    for kind, (a, b) in transfer.RELATIONSHIPS.items():
        assert f"row.type = '{kind}'" in rels and f":{kind}" in rels
        assert f"row.a.label = '{a}'" in rels and f"row.b.label = '{b}'" in rels
    # every vector a statement writes (vecf32 on FalkorDB) is one transfer.py writes back as a vector
    falkordb = "\n".join(p.read_text() for p in queries.cypher_dir().glob("*.falkordb.cypher"))
    assert set(re.findall(r"\.(\w+) = vecf32\(", falkordb)) == {transfer.VECTOR}
    indexed = set(re.findall(r"CREATE VECTOR INDEX FOR \(\w+:(\w+)\) ON \(\w+\.(\w+)\)", falkordb))
    assert indexed and indexed <= {(label, transfer.VECTOR) for label in transfer.VECTOR_LABELS}


def test_export_and_import_from_the_command_line(source, exported, home, monkeypatch, tmp_path, user):
    mem, origin = source
    monkeypatch.setenv("GRAPHMEM_HOME", str(home))
    monkeypatch.delenv("GRAPHMEM_URI", raising=False)
    monkeypatch.delenv("GRAPHMEM_USER", raising=False)
    runner = CliRunner()
    out = tmp_path / "cli.jsonl"
    done = runner.invoke(main, ["export", "--user", origin, "--out", str(out), "--json"], catch_exceptions=False)
    assert done.exit_code == 0, done.output
    assert json.loads(done.output)["nodes"] == len([s for s in out.read_text().splitlines() if '"node":' in s])
    done = runner.invoke(main, ["import", str(out), "--user", user, "--json"], catch_exceptions=False)
    assert done.exit_code == 0, done.output
    assert json.loads(done.output)["source_user"] == origin and dump(mem, user) == dump(mem, origin)
    refused = runner.invoke(main, ["import", str(out), "--user", user])
    assert refused.exit_code == 1 and "already holds" in refused.output and "--replace" in refused.output
    lines = out.read_text().splitlines(keepends=True)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(lines[:3] + ["{oops\n"] + lines[4:]))
    refused = runner.invoke(main, ["import", str(bad), "--user", f"{user}-bad"])
    assert refused.exit_code == 1 and refused.output.strip().splitlines() == [refused.output.strip()]
    assert refused.output.startswith(f"Error: {bad}:4: not JSON")
    assert os.path.exists(out)
